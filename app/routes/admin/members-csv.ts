import type { MembershipState } from "~/db/schema";
import { recordAudit } from "~/lib/audit.server";
import { csvDocument, csvResponse } from "~/lib/csv";
import { requireRole } from "~/lib/permissions.server";
import { MEMBERSHIP_STATE_LABELS, PLAN_NAMES } from "~/models/membership/plans";
import { listMembersForAdmin } from "~/models/membership/queries.server";
import type { Route } from "./+types/members-csv";

/** CSV export of the Members screen with its filters (admins only; the export is audited). */
export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireRole(request, "admin");
  const params = new URL(request.url).searchParams;
  const state = params.get("state");
  const rows = await listMembersForAdmin(
    {
      // Own keys only: `in` also accepts "toString" and the like (a database error).
      state:
        state && Object.hasOwn(MEMBERSHIP_STATE_LABELS, state) ? (state as MembershipState) : null,
      q: params.get("q"),
    },
    100_000,
  );
  await recordAudit(request, {
    action: "membership.export",
    actorId: user.id,
    entity: "membership",
    details: { rows: rows.length, state, q: params.get("q") },
  });
  const csv = csvDocument(
    [
      "Name",
      "Email",
      "Plan",
      "Status",
      "Organisation",
      "KRA PIN / VAT",
      "Student",
      "Valid until",
      "Since",
      "Seat of",
    ],
    rows.map((r) => [
      r.memberName,
      r.email,
      PLAN_NAMES[r.plan],
      MEMBERSHIP_STATE_LABELS[r.state],
      r.organisationName,
      r.taxId,
      r.student ? "yes" : "no",
      r.endsAt ? r.endsAt.toISOString().slice(0, 10) : "",
      r.createdAt.toISOString().slice(0, 10),
      // A Corporate seat holder's row: the organisation whose membership the seat is part of.
      r.seatOf ?? "",
    ]),
  );
  const day = new Date().toISOString().slice(0, 10);
  return csvResponse(csv, `kongamano-members-${day}.csv`);
}
