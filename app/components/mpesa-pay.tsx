import { useEffect, useState } from "react";
import { Form, Link, useNavigation, useRevalidator } from "react-router";
import { Button } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";

export type MpesaPushStatus = {
  id: string;
  state: "pending" | "paid" | "cancelled" | "timed_out" | "failed";
  amount: string;
  phone: string;
  resultDesc: string | null;
  receipt: string | null;
};

export type MpesaPayProps = {
  /** The page the form posts to and comes back to. */
  action: string;
  /** Where the page asks for the push's state while it waits (JSON). */
  statusUrl: string;
  /** What this push asks for ("KES 5,000.00"), the balance in shillings, and the parts. */
  partLabel: string;
  dueLabel: string;
  parts: number;
  rateLabel: string | null;
  push: MpesaPushStatus | null;
  error: string | null;
  phone: string;
};

const POLL_MS = 3000;

function outcomeText(push: MpesaPushStatus) {
  switch (push.state) {
    case "paid":
      return `Paid: ${push.amount} received${push.receipt ? ` (M-Pesa receipt ${push.receipt})` : ""}.`;
    case "cancelled":
      return "The request was cancelled on the phone. Nothing was paid.";
    case "timed_out":
      return "The request timed out before the PIN was entered. Nothing was paid.";
    case "failed":
      return `M-Pesa did not take the payment${push.resultDesc ? `: ${push.resultDesc}` : ""}.`;
    default:
      return `Check your phone (${push.phone}) and enter your M-Pesa PIN to pay ${push.amount}.`;
  }
}

/**
 * "Pay with M-Pesa" (issue 34): a phone number and one button; the page then says to check the
 * phone and follows the request by itself (asking the server every few seconds) until it is paid,
 * cancelled, timed out or failed, and offers to try again. Without JavaScript the form still posts
 * and "Check again" reloads the page.
 */
export function MpesaPay(props: MpesaPayProps) {
  const { push } = props;
  const navigation = useNavigation();
  const revalidator = useRevalidator();
  const [live, setLive] = useState<MpesaPushStatus | null>(push);
  useEffect(() => setLive(push), [push]);
  const pending = live?.state === "pending";

  useEffect(() => {
    if (!pending || !live) return;
    let stopped = false;
    const timer = setInterval(async () => {
      try {
        const response = await fetch(props.statusUrl, { headers: { Accept: "application/json" } });
        if (!response.ok || stopped) return;
        const next = (await response.json()) as { push: MpesaPushStatus | null };
        if (next.push && next.push.state !== "pending") {
          setLive(next.push);
          revalidator.revalidate();
        }
      } catch {
        // The next tick asks again.
      }
    }, POLL_MS);
    return () => {
      stopped = true;
      clearInterval(timer);
    };
  }, [pending, live, props.statusUrl, revalidator]);

  const sending =
    navigation.state === "submitting" && navigation.formData?.get("intent") === "mpesa-push";
  return (
    <section
      id="mpesa"
      aria-labelledby="mpesa-title"
      className="grid gap-3 rounded-lg border border-border p-4"
    >
      <h3 id="mpesa-title" className="font-semibold">
        Pay with M-Pesa
      </h3>
      {live ? (
        <p
          role="status"
          aria-live="polite"
          className={live.state === "paid" ? "text-sm font-medium" : "text-sm"}
        >
          {outcomeText(live)}
          {pending ? (
            <>
              {" "}
              <Link to={props.action} className="text-primary-700 underline underline-offset-2">
                Check again
              </Link>
            </>
          ) : null}
        </p>
      ) : null}
      {!pending ? (
        <Form method="post" action={props.action} className="grid gap-2" noValidate>
          <input type="hidden" name="intent" value="mpesa-push" />
          <p className="text-sm text-muted-foreground">
            {props.parts > 1
              ? `Balance due ${props.dueLabel}: paid in ${props.parts} parts, this one ${props.partLabel}.`
              : `We send a payment request for ${props.partLabel} to your phone.`}
            {props.rateLabel ? ` (${props.rateLabel})` : ""}
          </p>
          <Label htmlFor="mpesa-phone">M-Pesa phone number</Label>
          <Input
            id="mpesa-phone"
            name="phone"
            type="tel"
            inputMode="tel"
            autoComplete="tel"
            defaultValue={props.phone}
            aria-invalid={props.error ? true : undefined}
            aria-describedby={props.error ? "mpesa-phone-error" : undefined}
            className="max-w-xs"
          />
          {props.error ? (
            <p id="mpesa-phone-error" role="alert" className="text-sm text-destructive">
              {props.error}
            </p>
          ) : null}
          <div>
            <Button type="submit" disabled={sending}>
              {live ? "Try again" : "Pay with M-Pesa"}
            </Button>
          </div>
        </Form>
      ) : null}
    </section>
  );
}
