import { Badge } from "~/components/ui/badge";

const VARIANTS = {
  awaiting_payment: "warning",
  paid: "success",
  cancelled: "neutral",
  expired: "neutral",
  refunded: "info",
} as const;

export const ORDER_STATE_LABELS = {
  awaiting_payment: "Awaiting payment",
  paid: "Paid",
  cancelled: "Cancelled",
  expired: "Expired",
  refunded: "Refunded",
} as const;

export type OrderStateName = keyof typeof ORDER_STATE_LABELS;

export function OrderStateBadge({ state }: { state: OrderStateName }) {
  return <Badge variant={VARIANTS[state]}>{ORDER_STATE_LABELS[state]}</Badge>;
}
