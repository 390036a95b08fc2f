import { useEffect } from "react";
import { isRouteErrorResponse, Link, useNavigation, useRouteError } from "react-router";
import { Button, buttonVariants } from "~/components/ui/button";
import { toast } from "~/lib/notify";
import type { EntityActionData } from "~/models/shared/entity-actions.server";

// Small pieces shared by the category, type, paper, speaker, sponsor and office forms.

/** Shows a failed save or delete as a toast (forms also show it in a dismissible alert). */
export function useFailureToast(actionData: EntityActionData | undefined) {
  useEffect(() => {
    if (actionData?.error) {
      toast.error(actionData.error.title, { description: actionData.error.description });
    }
  }, [actionData]);
}

/** Required-field marker: a visible asterisk, spoken as "required". */
export function Required() {
  return (
    <>
      <span aria-hidden className="text-destructive">
        {" *"}
      </span>
      <span className="sr-only"> (required)</span>
    </>
  );
}

/** The submit button: 'Creating...' / 'Updating...' while the form is being saved (spec §2.15). */
export function SaveButton({ mode, label }: { mode: "create" | "edit"; label: string }) {
  const navigation = useNavigation();
  const saving = navigation.state !== "idle" && navigation.formMethod?.toUpperCase() === "POST";
  return (
    <Button type="submit" disabled={saving}>
      {saving ? (mode === "create" ? "Creating..." : "Updating...") : label}
    </Button>
  );
}

/**
 * What the ErrorBoundary of an edit screen renders: a record that does not exist (404) gets a
 * short message and a way back to its list, inside the back-office layout; anything else is
 * re-thrown to the boundary above.
 */
export function EntityNotFound({
  title,
  backTo,
  backLabel,
}: {
  title: string;
  backTo: string;
  backLabel: string;
}) {
  const error = useRouteError();
  if (!isRouteErrorResponse(error) || error.status !== 404) throw error;
  return (
    <div className="grid justify-items-start gap-3 py-8">
      <h1 className="text-2xl font-semibold">{title}</h1>
      <p className="text-muted-foreground">It may have been deleted by someone else.</p>
      <Link to={backTo} className={buttonVariants({ variant: "outline" })}>
        {backLabel}
      </Link>
    </div>
  );
}
