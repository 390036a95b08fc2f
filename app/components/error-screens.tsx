import { isRouteErrorResponse, useRevalidator, useRouteError } from "react-router";
import { AlertTriangle, Home, RefreshCw, RotateCcw } from "~/components/icons";
import { Link } from "~/components/link";
import { buttonVariants } from "~/components/ui/button";
import { cn } from "~/lib/utils";

/** 404 screen for any unknown path (spec §2.1). */
export function NotFoundScreen() {
  return (
    <main
      id="main"
      className="mx-auto flex min-h-[60vh] max-w-xl flex-col items-center justify-center gap-4 px-4 py-16 text-center"
    >
      <h1 className="text-6xl font-bold text-primary">404</h1>
      <p className="text-xl text-slate-700">Oops! Page not found</p>
      <Link to="/" className={cn(buttonVariants(), "mt-2")}>
        <Home aria-hidden />
        Return to Home
      </Link>
    </main>
  );
}

export const GENERIC_ERROR_DETAILS =
  "The page could not be displayed because of an internal error. It has been logged.";

/**
 * What the collapsible 'error details' may show. Thrown responses carry text meant for the
 * visitor; exceptions show their stack only in development, never in production.
 */
export function errorDetails(error: unknown, development: boolean = import.meta.env.DEV) {
  if (isRouteErrorResponse(error)) {
    const status = [error.status, error.statusText].filter(Boolean).join(" ");
    return typeof error.data === "string" && error.data ? `${status}: ${error.data}` : status;
  }
  if (!development) return GENERIC_ERROR_DETAILS;
  if (error instanceof Error) return error.stack ?? `${error.name}: ${error.message}`;
  return String(error);
}

/** Error fallback (spec §2.2): the texts, collapsible details, 'Try Again' and 'Reload Page'. */
export function ErrorScreen({ details }: { details: string }) {
  const revalidator = useRevalidator();
  const retrying = revalidator.state === "loading";
  return (
    <main
      id="main"
      className="mx-auto flex min-h-[60vh] max-w-xl flex-col items-center justify-center px-4 py-16 text-center"
    >
      <span className="flex size-14 items-center justify-center rounded-full bg-red-100 text-destructive">
        <AlertTriangle aria-hidden className="size-7" />
      </span>
      <h1 className="mt-4 text-2xl font-semibold">Something went wrong</h1>
      <p className="mt-2 text-slate-700">
        An unexpected error occurred. This might be a temporary issue.
      </p>
      <details className="mt-6 w-full rounded-md border border-border bg-muted text-left text-sm">
        <summary className="cursor-pointer px-4 py-2 font-medium">Error details</summary>
        <pre className="max-h-64 overflow-auto border-t border-border px-4 py-3 text-xs whitespace-pre-wrap text-slate-800">
          {details}
        </pre>
      </details>
      <div className="mt-6 flex flex-wrap justify-center gap-3">
        {/* Revalidating re-runs the loaders and resets the error boundary. */}
        <button
          type="button"
          className={buttonVariants()}
          disabled={retrying}
          onClick={() => revalidator.revalidate()}
        >
          <RotateCcw aria-hidden />
          {retrying ? "Trying again..." : "Try Again"}
        </button>
        <button
          type="button"
          className={buttonVariants({ variant: "outline" })}
          onClick={() => window.location.reload()}
        >
          <RefreshCw aria-hidden />
          Reload Page
        </button>
      </div>
    </main>
  );
}

/** A next step a refusal offers (e.g. "Sign in and renew from your profile"). */
export type NextStep = { href: string; label: string };

/** What a route throws for an expected refusal the person should read, not an error. */
export type Refusal = { title: string; message: string; next: NextStep[] };

function refusalOf(data: unknown): Refusal | null {
  if (!data || typeof data !== "object") return null;
  const { title, message, next } = data as Partial<Refusal>;
  if (typeof title !== "string" || typeof message !== "string" || !Array.isArray(next)) return null;
  return { title, message, next };
}

/**
 * An expired or tampered link, or a thing that is gone (410/404/409 with a `Refusal`): a human
 * page that says what happened and offers the next step, never the error fallback (issue 30).
 */
export function RefusalScreen({ status, refusal }: { status: number; refusal: Refusal }) {
  return (
    <main
      id="main"
      className="mx-auto flex min-h-[60vh] max-w-xl flex-col items-center justify-center gap-4 px-4 py-16 text-center"
    >
      <p className="text-sm font-medium text-muted-foreground">Error {status}</p>
      <h1 className="text-2xl font-semibold">{refusal.title}</h1>
      <p className="text-slate-700">{refusal.message}</p>
      <div className="mt-2 flex flex-wrap justify-center gap-3">
        {refusal.next.map((step, i) => (
          <Link
            key={step.href}
            to={step.href}
            className={buttonVariants({ variant: i === 0 ? "default" : "outline" })}
          >
            {step.label}
          </Link>
        ))}
      </div>
    </main>
  );
}

/**
 * Route error boundary: a refusal's own page when the route threw one, the 404 screen for missing
 * things, the error fallback otherwise.
 */
export function GeneralErrorBoundary() {
  const error = useRouteError();
  if (isRouteErrorResponse(error)) {
    const refusal = error.status < 500 ? refusalOf(error.data) : null;
    if (refusal) return <RefusalScreen status={error.status} refusal={refusal} />;
    if (error.status === 404) return <NotFoundScreen />;
  }
  return <ErrorScreen details={errorDetails(error)} />;
}
