import { parseWithZod } from "@conform-to/zod/v4";
import { data, Form, Link, useNavigation } from "react-router";
import { z } from "zod";
import { PageHeader } from "~/components/admin/page-header";
import { Badge } from "~/components/ui/badge";
import { Button, buttonVariants } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { NativeSelect } from "~/components/ui/native-select";
import { TableScroll } from "~/components/ui/table-scroll";
import type { MembershipState } from "~/db/schema";
import { formatDate } from "~/lib/format";
import { maskEmail } from "~/lib/mask-email";
import { requireRole } from "~/lib/permissions.server";
import { redirectWithToast } from "~/lib/toast.server";
import {
  approveApplication,
  MembershipError,
  rejectApplication,
} from "~/models/membership/membership.server";
import { MEMBERSHIP_STATE_LABELS, NOTICE_LABELS, PLAN_NAMES } from "~/models/membership/plans";
import {
  countMembersByState,
  listMembersForAdmin,
  listMissedNotices,
  listNoticeLog,
  listUpgradeRequestsForAdmin,
  retentionReport,
} from "~/models/membership/queries.server";
import { getSiteFigures } from "~/models/site/figures.server";
import type { Route } from "./+types/members";

export const meta: Route.MetaFunction = () => [
  { title: "Members | Admin | Kongamano" },
  { name: "robots", content: "noindex" },
];

const STATES = Object.keys(MEMBERSHIP_STATE_LABELS) as MembershipState[];

export async function loader({ request }: Route.LoaderArgs) {
  await requireRole(request, "admin");
  const params = new URL(request.url).searchParams;
  const stateParam = params.get("state");
  const state = STATES.includes(stateParam as MembershipState)
    ? (stateParam as MembershipState)
    : null;
  const q = params.get("q")?.trim() ?? "";
  const [members, counts, applications, upgrades, notices, missed, retention, figures] =
    await Promise.all([
      listMembersForAdmin({ state, q }),
      countMembersByState(),
      listMembersForAdmin({ state: "applied" }),
      listUpgradeRequestsForAdmin(),
      listNoticeLog(50),
      listMissedNotices(),
      retentionReport(),
      getSiteFigures(),
    ]);
  const row = (m: (typeof members)[number]) => ({
    id: m.id,
    memberName: m.memberName,
    email: maskEmail(m.email),
    plan: PLAN_NAMES[m.plan],
    state: m.state,
    organisationName: m.organisationName,
    taxId: m.taxId,
    student: m.student,
    hasProof: Boolean(m.studentProofKey),
    validUntil: m.endsAt ? formatDate(m.endsAt) : null,
    cancelling: Boolean(m.cancelRequestedAt),
    since: formatDate(m.createdAt),
    seatOf: m.seatOf,
    upgradeTo: null as string | null,
  });
  return {
    filter: { state, q },
    currentMembers: figures.members,
    members: members.map(row),
    counts,
    // Corporate upgrade requests are reviewed here too, with the same Approve and Reject.
    applications: [
      ...applications.map(row),
      ...upgrades.map((u) => ({ ...row(u), upgradeTo: PLAN_NAMES[u.upgradeTo] })),
    ],
    notices: notices.map((n) => ({
      id: n.id,
      memberName: n.memberName,
      kind: NOTICE_LABELS[n.kind],
      status: n.status,
      reason: n.reason,
      attempts: n.attempts,
      when: formatDate(n.updatedAt),
    })),
    missed: missed.map((m) => ({
      key: `${m.term_id}:${m.kind}`,
      memberName: m.member_name,
      kind: NOTICE_LABELS[m.kind],
      due: formatDate(m.due_at),
    })),
    retention,
  };
}

const ReviewSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("approve"), id: z.uuid() }),
  z.object({
    intent: z.literal("reject"),
    id: z.uuid(),
    reason: z
      .string({ error: "Give the reason (it is e-mailed to the applicant)." })
      .trim()
      .min(1, { error: "Give the reason (it is e-mailed to the applicant)." })
      .max(1000, { error: "The reason must be at most 1000 characters." }),
  }),
]);

export async function action({ request }: Route.ActionArgs) {
  const user = await requireRole(request, "admin");
  const submission = parseWithZod(await request.formData(), { schema: ReviewSchema });
  if (submission.status !== "success") {
    const id = submission.payload.id;
    return data(
      {
        id: typeof id === "string" ? id : null,
        error: Object.values(submission.error ?? {}).flat()[0] ?? "Unknown action.",
        reason: typeof submission.payload.reason === "string" ? submission.payload.reason : "",
      },
      { status: 400 },
    );
  }
  const actor = { id: user.id, role: user.role, request };
  const value = submission.value;
  try {
    if (value.intent === "approve") {
      const result = await approveApplication(value.id, actor);
      return redirectWithToast("/admin/members", {
        type: "success",
        title: "Application approved",
        description: `Invoice ${result.invoiceNumber} is on its way to the applicant.`,
      });
    }
    await rejectApplication(value.id, value.reason, actor);
    return redirectWithToast("/admin/members", {
      type: "success",
      title: "Application rejected",
      description: "The reason was e-mailed to the applicant.",
    });
  } catch (error) {
    if (!(error instanceof MembershipError)) throw error;
    return data(
      { id: value.id, error: error.message, reason: value.intent === "reject" ? value.reason : "" },
      { status: error.status === 404 ? 404 : 409 },
    );
  }
}

function StateBadge({ state }: { state: MembershipState }) {
  const tone =
    state === "active" || state === "renewal_open"
      ? "bg-green-100 text-green-900"
      : state === "grace" || state === "awaiting_payment" || state === "applied"
        ? "bg-yellow-100 text-yellow-900"
        : "bg-muted text-foreground";
  return <Badge className={tone}>{MEMBERSHIP_STATE_LABELS[state]}</Badge>;
}

export default function AdminMembers({ loaderData, actionData }: Route.ComponentProps) {
  const { filter, members, counts, applications, notices, missed, retention, currentMembers } =
    loaderData;
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const csvQuery = new URLSearchParams(
    Object.entries({ state: filter.state ?? "", q: filter.q }).filter(([, v]) => v),
  ).toString();
  return (
    <div className="grid gap-8">
      <PageHeader
        title="Members"
        description="Memberships, applications to review, renewal notices and retention."
        actions={
          <a
            href={`/admin/members.csv${csvQuery ? `?${csvQuery}` : ""}`}
            className={buttonVariants({ variant: "outline" })}
          >
            Export CSV
          </a>
        }
      />

      <section aria-labelledby="applications-heading" className="grid gap-3">
        <h2 id="applications-heading" className="text-xl font-semibold">
          Applications to review ({applications.length})
        </h2>
        {applications.length === 0 ? (
          <p className="text-muted-foreground">No applications are waiting.</p>
        ) : (
          <ul className="grid gap-3">
            {applications.map((a) => (
              <li key={a.id} className="grid gap-3 rounded-lg border border-border p-4">
                <p>
                  <strong>{a.memberName}</strong> ({a.email}) ·{" "}
                  {a.upgradeTo ? `upgrade from ${a.plan} to ${a.upgradeTo}` : a.plan}
                  {a.organisationName ? ` · ${a.organisationName}` : ""}
                  {a.taxId ? ` · KRA PIN / VAT ${a.taxId}` : ""}
                  {a.hasProof ? " · student discount requested" : ""}
                </p>
                {a.hasProof ? (
                  <a href={`/admin/members/${a.id}/student-proof`} className="text-sm underline">
                    Download student proof
                  </a>
                ) : null}
                <div className="flex flex-wrap items-end gap-3">
                  <Form method="post">
                    <input type="hidden" name="intent" value="approve" />
                    <input type="hidden" name="id" value={a.id} />
                    <Button type="submit" disabled={busy}>
                      Approve
                    </Button>
                  </Form>
                  <Form method="post" className="flex flex-wrap items-end gap-2">
                    <input type="hidden" name="intent" value="reject" />
                    <input type="hidden" name="id" value={a.id} />
                    <div className="grid gap-1">
                      <Label htmlFor={`reason-${a.id}`}>Reason for rejecting</Label>
                      <Input
                        id={`reason-${a.id}`}
                        name="reason"
                        defaultValue={actionData?.id === a.id ? actionData.reason : ""}
                        aria-invalid={actionData?.id === a.id ? true : undefined}
                        aria-describedby={
                          actionData?.id === a.id ? `reason-${a.id}-error` : undefined
                        }
                      />
                    </div>
                    <Button type="submit" variant="outline" disabled={busy}>
                      Reject
                    </Button>
                  </Form>
                </div>
                {actionData?.id === a.id ? (
                  <p id={`reason-${a.id}-error`} role="alert" className="text-sm text-destructive">
                    {actionData.error}
                  </p>
                ) : null}
              </li>
            ))}
          </ul>
        )}
      </section>

      <section aria-labelledby="members-heading" className="grid gap-3">
        <h2 id="members-heading" className="text-xl font-semibold">
          All members
        </h2>
        <p>
          Current members (with member benefits, team seats included; the figure the public pages
          show): <strong data-testid="current-members">{currentMembers}</strong>
        </p>
        <Form method="get" className="flex flex-wrap items-end gap-3" role="search">
          <div className="grid gap-1">
            <Label htmlFor="members-q">Search</Label>
            <Input
              id="members-q"
              name="q"
              type="search"
              defaultValue={filter.q}
              placeholder="Name, e-mail or organisation"
            />
          </div>
          <div className="grid gap-1">
            <Label htmlFor="members-state">Status</Label>
            <NativeSelect id="members-state" name="state" defaultValue={filter.state ?? ""}>
              <option value="">
                All ({Object.values(counts).reduce((a, b) => a + (b ?? 0), 0)})
              </option>
              {STATES.map((s) => (
                <option key={s} value={s}>
                  {MEMBERSHIP_STATE_LABELS[s]} ({counts[s] ?? 0})
                </option>
              ))}
            </NativeSelect>
          </div>
          <Button type="submit" variant="outline">
            Filter
          </Button>
        </Form>
        {members.length === 0 ? (
          <p className="text-muted-foreground">No members match.</p>
        ) : (
          <TableScroll label="Member list">
            <table className="w-full text-left text-sm">
              <ColumnHeads names={["Member", "Email", "Plan", "Status", "Valid until", "Since"]} />
              <tbody>
                {members.map((m) => (
                  <tr
                    key={m.id}
                    className="border-b border-border"
                    data-seat={m.seatOf ? "true" : undefined}
                  >
                    <td className="py-2 pr-4">
                      {m.memberName}
                      {m.seatOf ? (
                        <span className="block">
                          <Badge className="bg-primary-50 text-primary-700">Seat</Badge>{" "}
                          <span className="text-muted-foreground">of {m.seatOf}</span>
                        </span>
                      ) : m.organisationName ? (
                        <span className="block text-muted-foreground">{m.organisationName}</span>
                      ) : null}
                    </td>
                    <td className="py-2 pr-4">{m.email}</td>
                    <td className="py-2 pr-4">
                      {m.plan}
                      {m.student ? " (student)" : ""}
                    </td>
                    <td className="py-2 pr-4">
                      <StateBadge state={m.state} />
                      {m.cancelling ? (
                        <span className="block text-xs">cancels at period end</span>
                      ) : null}
                    </td>
                    <td className="py-2 pr-4">{m.validUntil ?? "—"}</td>
                    <td className="py-2 pr-4">{m.since}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
        )}
      </section>

      <section aria-labelledby="notices-heading" className="grid gap-3">
        <h2 id="notices-heading" className="text-xl font-semibold">
          Renewal notices
        </h2>
        <p>
          Members who should have had a notice and did not:{" "}
          <strong data-testid="missed-notices">{missed.length}</strong>
        </p>
        {missed.length > 0 ? (
          <ul className="list-disc pl-6 text-sm">
            {missed.map((m) => (
              <li key={m.key}>
                {m.memberName}: {m.kind} (due {m.due})
              </li>
            ))}
          </ul>
        ) : null}
        {notices.length === 0 ? (
          <p className="text-muted-foreground">No notices have been due yet.</p>
        ) : (
          <TableScroll label="Delivery log of renewal notices">
            <table className="w-full text-left text-sm">
              <caption className="sr-only">Delivery log of renewal notices</caption>
              <ColumnHeads names={["Member", "Notice", "Outcome", "Attempts", "When"]} />
              <tbody>
                {notices.map((n) => (
                  <tr key={n.id} className="border-b border-border">
                    <td className="py-2 pr-4">{n.memberName}</td>
                    <td className="py-2 pr-4">{n.kind}</td>
                    <td className="py-2 pr-4">
                      {n.status}
                      {n.reason ? `: ${n.reason}` : ""}
                    </td>
                    <td className="py-2 pr-4">{n.attempts}</td>
                    <td className="py-2 pr-4">{n.when}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
        )}
      </section>

      <section aria-labelledby="retention-heading" className="grid gap-3">
        <h2 id="retention-heading" className="text-xl font-semibold">
          Retention
        </h2>
        <div className="grid gap-6 lg:grid-cols-2">
          <TableScroll label="Renewal rate by plan and month">
            <table className="w-full text-left text-sm">
              <caption className="text-left font-medium">
                Renewal rate by plan and month (terms ending)
              </caption>
              <ColumnHeads names={["Month", "Plan", "Ending", "Renewed", "Rate"]} />
              <tbody>
                {retention.renewals.length === 0 ? (
                  <tr>
                    <td colSpan={5} className="py-2 text-muted-foreground">
                      No terms have ended in the last 12 months.
                    </td>
                  </tr>
                ) : (
                  retention.renewals.map((r) => (
                    <tr key={`${r.month}-${r.plan}`} className="border-b border-border">
                      <td className="py-2 pr-4">{r.month}</td>
                      <td className="py-2 pr-4">{PLAN_NAMES[r.plan]}</td>
                      <td className="py-2 pr-4">{r.ending}</td>
                      <td className="py-2 pr-4">{r.renewed}</td>
                      <td className="py-2 pr-4">{r.rate === null ? "—" : `${r.rate}%`}</td>
                    </tr>
                  ))
                )}
              </tbody>
            </table>
          </TableScroll>
          <TableScroll label="New, lapsed and reactivated by month">
            <table className="w-full text-left text-sm">
              <caption className="text-left font-medium">
                New, lapsed and reactivated by month
              </caption>
              <ColumnHeads names={["Month", "New", "Lapsed", "Reactivated"]} />
              <tbody>
                {retention.movements.map((m) => (
                  <tr key={m.month} className="border-b border-border">
                    <td className="py-2 pr-4">{m.month}</td>
                    <td className="py-2 pr-4">{m.newMembers}</td>
                    <td className="py-2 pr-4">{m.lapsed}</td>
                    <td className="py-2 pr-4">{m.reactivated}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
        </div>
      </section>
      <p className="text-sm text-muted-foreground">
        Payments for membership invoices are recorded on the{" "}
        <Link to="/admin/payments" className="underline">
          Payments
        </Link>{" "}
        screen.
      </p>
    </div>
  );
}

/** A table's column headings, in one bordered row. */
function ColumnHeads({ names }: { names: string[] }) {
  return (
    <thead>
      <tr className="border-b border-border">
        {names.map((name) => (
          <th key={name} scope="col" className="py-2 pr-4">
            {name}
          </th>
        ))}
      </tr>
    </thead>
  );
}
