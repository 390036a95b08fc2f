import { Link } from "~/components/link";
import { OrderStateBadge, type OrderStateName } from "~/components/order-state-badge";
import { Card } from "~/components/ui/card";

export type ProfileOrder = {
  id: string;
  invoiceNumber: string;
  description: string;
  state: OrderStateName;
  total: string;
  due: string | null;
  dateLabel: string;
};

/** "My orders": every order the person placed, with its state and what is still due. */
export function ProfileOrders({ orders }: { orders: ProfileOrder[] }) {
  return (
    <Card id="orders" className="grid gap-4 p-6">
      <h2 className="text-xl font-semibold">My orders</h2>
      {orders.length === 0 ? (
        <p className="text-sm text-muted-foreground">
          You have no orders yet. Tickets for upcoming events are on each{" "}
          <Link to="/events" className="text-primary-700 underline underline-offset-2">
            event page
          </Link>
          .
        </p>
      ) : (
        <ul className="grid gap-2">
          {orders.map((order) => (
            <li key={order.id}>
              <Link
                to={`/orders/${order.id}`}
                className="flex flex-wrap items-center justify-between gap-2 rounded-lg border border-border p-3 text-sm hover:bg-muted"
              >
                <span className="grid gap-0.5">
                  <span className="font-medium">{order.description}</span>
                  <span className="text-muted-foreground">
                    {order.invoiceNumber} · {order.dateLabel} · {order.total}
                    {order.due ? ` · ${order.due} due` : ""}
                  </span>
                </span>
                <OrderStateBadge state={order.state} />
              </Link>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}
