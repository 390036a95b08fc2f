import QRCode from "qrcode";
import { data } from "react-router";
import { GeneralErrorBoundary } from "~/components/error-screens";
import { Link } from "~/components/link";
import { Card } from "~/components/ui/card";
import { env } from "~/lib/env.server";
import { formatDate } from "~/lib/format";
import { requireUser } from "~/lib/permissions.server";
import { PLAN_NAMES } from "~/models/membership/plans";
import { getOwnCard } from "~/models/membership/queries.server";
import type { Route } from "./+types/card";

export const meta: Route.MetaFunction = () => [
  { title: "Membership Card | Kongamano" },
  { name: "robots", content: "noindex" },
];

export function headers() {
  return { "Cache-Control": "private, no-store" };
}

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUser(request);
  const card = await getOwnCard(user.id);
  if (!card?.validUntil)
    throw data({ message: "You have no membership card yet." }, { status: 404 });
  const verifyUrl = `${env().BASE_URL}/membership/verify/${card.code}`;
  return {
    memberName: card.memberName as string,
    plan: PLAN_NAMES[card.plan as keyof typeof PLAN_NAMES],
    seatOf: card.seatOf ?? null,
    current: Boolean(card.current),
    validFrom: card.validFrom ? formatDate(card.validFrom) : null,
    validUntil: formatDate(card.validUntil),
    verifyUrl,
    qrDataUrl: await QRCode.toDataURL(verifyUrl, { margin: 1, width: 220 }),
  };
}

export default function MembershipCardPage({ loaderData }: Route.ComponentProps) {
  const card = loaderData;
  return (
    <main id="main" className="mx-auto grid w-full max-w-md gap-6 px-4 py-10">
      <h1 className="text-3xl font-semibold">Membership Card</h1>
      <Card className="grid gap-4 p-6 text-center">
        <p className="text-sm font-semibold uppercase tracking-wide text-primary-700">Kongamano</p>
        <p className="text-2xl font-semibold">{card.memberName}</p>
        <p>{card.plan} Member</p>
        {card.seatOf ? <p>Team seat of {card.seatOf}</p> : null}
        <p className={card.current ? "font-medium text-success" : "font-medium text-destructive"}>
          {card.current ? "Current" : "Not current"} · valid until {card.validUntil}
        </p>
        <img
          src={card.qrDataUrl}
          alt="QR code that opens the public verification page of this card"
          width={220}
          height={220}
          className="mx-auto"
        />
        <p className="text-sm text-muted-foreground">
          Anyone can scan the code to check that this card is current:{" "}
          <a href={card.verifyUrl} className="break-all underline">
            {card.verifyUrl}
          </a>
        </p>
      </Card>
      <Link to="/profile#membership" className="text-sm font-medium text-primary-700 underline">
        Back to your profile
      </Link>
    </main>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
