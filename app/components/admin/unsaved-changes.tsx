import { useCallback, useEffect, useRef } from "react";
import { useBlocker } from "react-router";
import { Button } from "~/components/ui/button";
import {
  AlertDialog,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogTitle,
} from "~/components/ui/dialog";

/** A form's current values as one comparable string (files left out). */
function snapshot(form: HTMLFormElement) {
  const params = new URLSearchParams();
  for (const [name, value] of new FormData(form)) {
    if (typeof value === "string") params.append(name, value);
  }
  return params.toString();
}

/**
 * Whether the forms with these ids hold values other than those they were loaded (or last
 * saved) with. Read on demand, so values set by scripts (tags, uploads) count too.
 */
export function useUnsavedForms(ids: readonly string[]) {
  const saved = useRef(new Map<string, string>());
  const key = ids.join(" ");
  useEffect(() => {
    for (const id of key.split(" ")) {
      const form = document.getElementById(id);
      if (form instanceof HTMLFormElement) saved.current.set(id, snapshot(form));
    }
  }, [key]);

  const isDirty = useCallback(
    (id?: string) =>
      (id ? [id] : key.split(" ")).some((formId) => {
        const form = document.getElementById(formId);
        const before = saved.current.get(formId);
        return form instanceof HTMLFormElement && before !== undefined && snapshot(form) !== before;
      }),
    [key],
  );

  /** The form's present values become its saved state (after a save that keeps the page). */
  const markSaved = useCallback((id: string) => {
    const form = document.getElementById(id);
    if (form instanceof HTMLFormElement) saved.current.set(id, snapshot(form));
  }, []);

  return { isDirty, markSaved };
}

/**
 * Asks before unsaved work is left behind: links and back/forward inside the app get a dialog,
 * reload and closing the tab get the browser's own prompt. Submissions on the same page pass.
 */
export function UnsavedChangesGuard({ isDirty }: { isDirty: () => boolean }) {
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) =>
      currentLocation.pathname !== nextLocation.pathname && isDirty(),
  );

  useEffect(() => {
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      if (!isDirty()) return;
      event.preventDefault();
      // Older browsers show the prompt only when returnValue is set.
      event.returnValue = "";
    };
    window.addEventListener("beforeunload", onBeforeUnload);
    return () => window.removeEventListener("beforeunload", onBeforeUnload);
  }, [isDirty]);

  return (
    <AlertDialog
      open={blocker.state === "blocked"}
      onOpenChange={(open) => {
        if (!open && blocker.state === "blocked") blocker.reset();
      }}
    >
      <AlertDialogContent>
        <AlertDialogTitle>Leave without saving?</AlertDialogTitle>
        <AlertDialogDescription>
          You have unsaved changes on this page. If you leave now, they will be lost.
        </AlertDialogDescription>
        <AlertDialogFooter>
          <AlertDialogCancel>Stay on this page</AlertDialogCancel>
          <Button
            type="button"
            variant="destructive"
            onClick={() => blocker.state === "blocked" && blocker.proceed()}
          >
            Leave without saving
          </Button>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
