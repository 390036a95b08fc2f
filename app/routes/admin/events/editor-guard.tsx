import { useCallback, useEffect, useRef, useState } from "react";
import { UnsavedChangesGuard, useUnsavedForms } from "~/components/admin/unsaved-changes";
import { Button } from "~/components/ui/button";
import {
  AlertDialog,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogTitle,
} from "~/components/ui/dialog";

export const EVENT_FORM_ID = "event-form";
export const FEES_FORM_ID = "fees-form";
const FORM_IDS = [EVENT_FORM_ID, FEES_FORM_ID] as const;

function formById(id: string) {
  const form = document.getElementById(id);
  return form instanceof HTMLFormElement ? form : null;
}

/**
 * The event editor's two forms never lose work (issue 18): saving one while the other has
 * changes offers to save both (fees first, then the details, whose save leaves the page);
 * leaving or reloading with changes asks first. Wrap both forms in `onSubmitCapture`.
 */
export function useEventEditorGuard(fees: unknown) {
  const { isDirty, markSaved } = useUnsavedForms(FORM_IDS);
  const [asking, setAsking] = useState(false);
  const bypass = useRef(false);
  const detailsNext = useRef(false);

  // Fresh fees from the server (after a save) are the fees form's new saved state.
  // biome-ignore lint/correctness/useExhaustiveDependencies: re-run when the loader's fees change
  useEffect(() => {
    const frame = requestAnimationFrame(() => markSaved(FEES_FORM_ID));
    return () => cancelAnimationFrame(frame);
  }, [fees, markSaved]);

  const submit = useCallback((id: string) => {
    bypass.current = true;
    formById(id)?.requestSubmit();
    bypass.current = false;
  }, []);

  const onSubmitCapture = useCallback(
    (event: React.FormEvent<HTMLElement>) => {
      const form = event.target as HTMLFormElement;
      const submitter = (event.nativeEvent as SubmitEvent).submitter as HTMLButtonElement | null;
      // Conform's list buttons (add/remove rows) submit too: they save nothing.
      if (bypass.current || submitter?.name === "__intent__") return;
      const other = form.id === EVENT_FORM_ID ? FEES_FORM_ID : EVENT_FORM_ID;
      if (!FORM_IDS.includes(form.id as never) || !isDirty(other)) return;
      event.preventDefault();
      event.stopPropagation();
      setAsking(true);
    },
    [isDirty],
  );

  const saveBoth = useCallback(async () => {
    setAsking(false);
    const feesForm = formById(FEES_FORM_ID);
    // Zod and the schema come with the fees form's deferred validation (decision 0095).
    const [{ parseWithZod }, { FeesFormSchema }] = await Promise.all([
      import("@conform-to/zod/v4"),
      import("./event-schema"),
    ]);
    const valid =
      feesForm &&
      parseWithZod(new FormData(feesForm), { schema: FeesFormSchema }).status === "success";
    // Invalid fees: their messages show and nothing is saved; the details stay in their form.
    detailsNext.current = Boolean(valid);
    submit(FEES_FORM_ID);
  }, [submit]);

  const onFeesSaved = useCallback(() => {
    requestAnimationFrame(() => markSaved(FEES_FORM_ID));
    if (!detailsNext.current) return;
    detailsNext.current = false;
    submit(EVENT_FORM_ID);
  }, [markSaved, submit]);

  const dialogs = (
    <>
      <UnsavedChangesGuard isDirty={isDirty} />
      <AlertDialog open={asking} onOpenChange={setAsking}>
        <AlertDialogContent>
          <AlertDialogTitle>Save the event details and the fees?</AlertDialogTitle>
          <AlertDialogDescription>
            Both the event details and the fees have unsaved changes. They are saved separately:
            save both now so that nothing is lost.
          </AlertDialogDescription>
          <AlertDialogFooter>
            <AlertDialogCancel>Keep editing</AlertDialogCancel>
            <Button type="button" onClick={saveBoth}>
              Save details and fees
            </Button>
          </AlertDialogFooter>
        </AlertDialogContent>
      </AlertDialog>
    </>
  );
  return { onSubmitCapture, onFeesSaved, dialogs };
}
