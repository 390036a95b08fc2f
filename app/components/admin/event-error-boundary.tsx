import { isRouteErrorResponse, Link, useRouteError } from "react-router";
import { EmptyState } from "~/components/admin/empty-state";
import { ArrowLeft } from "~/components/icons";
import { buttonVariants } from "~/components/ui/button";

/** The error screen of every back-office page about one event (edit, registrations, check-in). */
export function EventErrorBoundary() {
  const error = useRouteError();
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  return (
    <EmptyState
      title={notFound ? "Event Not Found" : "Something went wrong"}
      hint={
        notFound
          ? "The event you're looking for doesn't exist or has been removed."
          : "An unexpected error occurred. This might be a temporary issue."
      }
      action={
        <Link to="/admin/events" className={buttonVariants({ variant: "outline" })}>
          <ArrowLeft aria-hidden />
          Back to events
        </Link>
      }
    />
  );
}
