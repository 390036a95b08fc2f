import { useState } from "react";
import { useFetcher } from "react-router";
import { XCircle } from "~/components/icons";
import { Button } from "~/components/ui/button";
import {
  AlertDialog,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogTitle,
  AlertDialogTrigger,
} from "~/components/ui/dialog";
import { toast } from "~/lib/notify";
import { useFetcherDone } from "~/lib/use-fetcher-done";

/** What the cancel action answers besides a redirect: a failure shown as a toast. */
export type CancelEventFailure = { cancelEvent: { error: string } };

/**
 * "Cancel event" with a confirmation naming what follows: registration closes and everyone
 * registered is e-mailed. Posts `_form=cancel-event` to the edit route's action.
 */
export function CancelEventDialog({ title, registered }: { title: string; registered: number }) {
  const [open, setOpen] = useState(false);
  const fetcher = useFetcher<CancelEventFailure>();
  const busy = fetcher.state !== "idle";

  useFetcherDone(fetcher, (answer) => {
    setOpen(false);
    const error = answer?.cancelEvent?.error;
    if (error) toast.error("Could not cancel the event", { description: error });
  });

  return (
    <AlertDialog open={open} onOpenChange={(next) => !busy && setOpen(next)}>
      <AlertDialogTrigger asChild>
        <Button type="button" variant="outline" className="text-destructive hover:text-destructive">
          <XCircle aria-hidden />
          Cancel event
        </Button>
      </AlertDialogTrigger>
      <AlertDialogContent>
        <AlertDialogTitle>Cancel this event?</AlertDialogTitle>
        <AlertDialogDescription>
          <strong>{title}</strong> stops taking registrations, its tickets no longer check in, and{" "}
          {registered === 1
            ? "the 1 person registered is"
            : `the ${registered} people registered are`}{" "}
          e-mailed that it is cancelled. This cannot be undone.
        </AlertDialogDescription>
        <fetcher.Form method="post">
          <input type="hidden" name="_form" value="cancel-event" />
          <AlertDialogFooter>
            <AlertDialogCancel disabled={busy}>Keep event</AlertDialogCancel>
            <Button type="submit" variant="destructive" disabled={busy}>
              {busy ? "Cancelling..." : "Cancel event"}
            </Button>
          </AlertDialogFooter>
        </fetcher.Form>
      </AlertDialogContent>
    </AlertDialog>
  );
}
