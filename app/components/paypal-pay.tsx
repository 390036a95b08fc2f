import { Form, useNavigation } from "react-router";
import { Button } from "~/components/ui/button";

export type PaypalPayProps = {
  /** The order page the form posts to. */
  action: string;
  /** The balance due PayPal will be asked for ("USD 99.00"). */
  dueLabel: string;
  /** The latest attempt's outcome when it did not go through (cancelled, declined…). */
  note: string | null;
  error: string | null;
};

/**
 * "Pay with PayPal" (issue 31): one button; the buyer approves on PayPal's page, comes back, and
 * confirms here before the money is taken. Offered only when PayPal is configured and takes the
 * order's currency (USD, EUR, GBP). Works without JavaScript (a plain form post and redirect).
 */
export function PaypalPay(props: PaypalPayProps) {
  const navigation = useNavigation();
  const sending = navigation.state !== "idle" && navigation.formData?.get("intent") === "paypal";
  return (
    <section
      id="paypal"
      aria-labelledby="paypal-title"
      className="grid gap-3 rounded-lg border border-border p-4"
    >
      <h3 id="paypal-title" className="font-semibold">
        Pay with PayPal
      </h3>
      {props.note ? (
        <p role="status" className="text-sm">
          {props.note}
        </p>
      ) : null}
      <Form method="post" action={props.action} className="grid gap-2">
        <input type="hidden" name="intent" value="paypal" />
        <p className="text-sm text-muted-foreground">
          You approve {props.dueLabel} on PayPal's page, then confirm here.
        </p>
        {props.error ? (
          <p role="alert" className="text-sm text-destructive">
            {props.error}
          </p>
        ) : null}
        <div>
          <Button type="submit" disabled={sending}>
            Pay with PayPal
          </Button>
        </div>
      </Form>
    </section>
  );
}
