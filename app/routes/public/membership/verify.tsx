import { data } from "react-router";
import { GeneralErrorBoundary } from "~/components/error-screens";
import { Card } from "~/components/ui/card";
import { formatDate } from "~/lib/format";
import { PLAN_NAMES } from "~/models/membership/plans";
import { verifyCard } from "~/models/membership/queries.server";
import type { Route } from "./+types/verify";

export const meta: Route.MetaFunction = () => [
  { title: "Membership Verification | Kongamano" },
  { name: "robots", content: "noindex, nofollow" },
];

export function headers() {
  return { "Cache-Control": "no-store", "X-Robots-Tag": "noindex, nofollow" };
}

/** Public: name, plan and validity only (the card's QR code points here). */
export async function loader({ params }: Route.LoaderArgs) {
  const card = await verifyCard(params.code);
  if (!card) throw data({ message: "No membership card has this code." }, { status: 404 });
  return {
    memberName: card.memberName,
    plan: PLAN_NAMES[card.plan],
    seatOf: card.seatOf,
    current: card.current,
    inGrace: card.inGrace,
    validUntil: card.validUntil ? formatDate(card.validUntil) : null,
  };
}

export default function VerifyPage({ loaderData }: Route.ComponentProps) {
  const card = loaderData;
  return (
    <main id="main" className="mx-auto grid w-full max-w-md gap-6 px-4 py-10">
      <h1 className="text-3xl font-semibold">Membership Verification</h1>
      <Card className="grid gap-3 p-6">
        <p
          className={
            card.current
              ? "text-xl font-semibold text-success"
              : "text-xl font-semibold text-destructive"
          }
        >
          {card.current ? "Current member" : "Not a current member"}
        </p>
        <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2">
          <dt className="text-muted-foreground">Name</dt>
          <dd>{card.memberName}</dd>
          <dt className="text-muted-foreground">Plan</dt>
          <dd>
            {card.plan}
            {card.seatOf ? ` (team seat of ${card.seatOf})` : ""}
          </dd>
          <dt className="text-muted-foreground">Valid until</dt>
          <dd>
            {card.validUntil ?? "Not yet valid"}
            {card.inGrace ? " (renewal grace period)" : ""}
          </dd>
        </dl>
      </Card>
    </main>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
