import { Form, useNavigation } from "react-router";
import { Button } from "~/components/ui/button";

export type CardPayProps = {
  /** The page the form posts to (the order page, intent "card"). */
  action: string;
  /** The balance due, as the button pays it ("USD 150.00"). */
  dueLabel: string;
  error: string | null;
};

/**
 * "Pay by card" (issue 31): one button that sends the buyer to Paystack's page for the balance
 * due; Paystack brings them back to the order, which says "paid" only once Paystack confirmed it.
 */
export function CardPay({ action, dueLabel, error }: CardPayProps) {
  const navigation = useNavigation();
  const starting = navigation.state !== "idle" && navigation.formData?.get("intent") === "card";
  return (
    <section
      id="card"
      aria-labelledby="card-heading"
      className="grid gap-3 rounded-lg border border-border p-4"
    >
      <h3 id="card-heading" className="font-semibold">
        Pay by card
      </h3>
      <p className="text-sm text-muted-foreground">
        Visa, Mastercard and other cards on Paystack's secure page. You pay {dueLabel} and come back
        here.
      </p>
      {error ? (
        <p role="alert" className="text-sm text-destructive">
          {error}
        </p>
      ) : null}
      <Form method="post" action={action} className="flex flex-wrap gap-3">
        <input type="hidden" name="intent" value="card" />
        <Button type="submit" disabled={starting}>
          {starting ? "Opening Paystack…" : "Pay by card"}
        </Button>
      </Form>
    </section>
  );
}
