import { useState } from "react";
import { useFetcher } from "react-router";
import { XCircle } from "~/components/icons";
import { Button } from "~/components/ui/button";
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogTitle,
  DialogTrigger,
} from "~/components/ui/dialog";
import { Field } from "~/components/ui/field";
import { Textarea } from "~/components/ui/textarea";
import { useFetcherDone } from "~/lib/use-fetcher-done";

export const CANCEL_REASON_MAX = 500;

/** What the cancel action answers besides a redirect: the message, and the reason as typed. */
export type CancelRegistrationFailure = { cancel: { registrationId: string; error: string } };

function failureFor(value: unknown, registrationId: string) {
  if (value && typeof value === "object" && "cancel" in value) {
    const failure = (value as CancelRegistrationFailure).cancel;
    if (failure?.registrationId === registrationId) return failure.error;
  }
  return null;
}

/**
 * "Cancel registration" with a confirmation and an optional reason. The dialog stays open with
 * the message and the typed reason when the action refuses; a success redirects with a toast.
 */
export function CancelRegistrationDialog({
  registrationId,
  attendeeName,
  seats,
}: {
  registrationId: string;
  attendeeName: string;
  seats: number;
}) {
  const [open, setOpen] = useState(false);
  const fetcher = useFetcher();
  const busy = fetcher.state !== "idle";
  const error = failureFor(fetcher.data, registrationId);

  useFetcherDone(fetcher, (answer) => {
    if (!failureFor(answer, registrationId)) setOpen(false);
  });

  const reasonId = `cancel-reason-${registrationId}`;
  const messageId = `cancel-message-${registrationId}`;
  return (
    <Dialog open={open} onOpenChange={(next) => !busy && setOpen(next)}>
      <DialogTrigger asChild>
        <Button
          type="button"
          variant="outline"
          size="sm"
          className="text-destructive hover:text-destructive"
          aria-label={`Cancel registration of ${attendeeName}`}
        >
          <XCircle aria-hidden />
          Cancel
        </Button>
      </DialogTrigger>
      <DialogContent>
        <DialogTitle>Cancel this registration?</DialogTitle>
        <DialogDescription>
          <strong>{attendeeName}</strong>
          {seats > 1 ? ` loses all ${seats} seats` : " loses the seat"}; the tickets stop working at
          check-in and the seats go to the waitlist at once. This cannot be undone. The attendee is
          e-mailed that it is cancelled (with your message, if you write one); the internal note is
          not sent. If money was paid for it, you are taken to the refund step next.
        </DialogDescription>
        <fetcher.Form method="post" className="grid gap-4">
          <input type="hidden" name="intent" value="cancel" />
          <input type="hidden" name="registrationId" value={registrationId} />
          <Field
            label="Internal note (optional)"
            htmlFor={reasonId}
            hint="Kept with the registration and in the activity log. Never sent to the attendee."
            errors={error ? [error] : null}
          >
            <Textarea
              id={reasonId}
              name="reason"
              maxLength={CANCEL_REASON_MAX}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? `${reasonId}-error` : undefined}
            />
          </Field>
          <Field
            label="Message to the attendee (optional)"
            htmlFor={messageId}
            hint="Sent by e-mail with the cancellation notice, word for word."
          >
            <Textarea id={messageId} name="message" maxLength={CANCEL_REASON_MAX} />
          </Field>
          <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <DialogClose asChild>
              <Button type="button" variant="outline" disabled={busy}>
                Keep registration
              </Button>
            </DialogClose>
            <Button type="submit" variant="destructive" disabled={busy}>
              {busy ? "Cancelling..." : "Cancel registration"}
            </Button>
          </div>
        </fetcher.Form>
      </DialogContent>
    </Dialog>
  );
}
