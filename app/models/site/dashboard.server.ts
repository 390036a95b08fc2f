import { sql } from "drizzle-orm";
import { queryRows } from "~/db/client.server";

export type DashboardCounts = {
  events: number;
  papers: number;
  speakers: number;
  sponsors: number;
  /** Only computed for admins (offices are admin-only, spec §6). */
  offices: number | null;
};

/** Live counts for the dashboard cards (design.md §4: not the spec's fixed text), one query. */
export async function getDashboardCounts({
  includeOffices,
}: {
  includeOffices: boolean;
}): Promise<DashboardCounts> {
  const [row] = await queryRows<Record<keyof DashboardCounts, number | string | null>>(sql`
    select
      (select count(*) from events) as events,
      (select count(*) from papers) as papers,
      (select count(*) from speakers) as speakers,
      (select count(*) from sponsors) as sponsors,
      ${includeOffices ? sql`(select count(*) from offices)` : sql`null`} as offices
  `);
  const n = (value: number | string | null | undefined) => Number(value ?? 0);
  return {
    events: n(row?.events),
    papers: n(row?.papers),
    speakers: n(row?.speakers),
    sponsors: n(row?.sponsors),
    offices: includeOffices ? n(row?.offices) : null,
  };
}

export type ActivityItem = {
  id: string;
  actorName: string;
  action: string;
  entity: string | null;
  /** A human label of the item (its title or name when the audit row recorded one). */
  subject: string | null;
  /** Readable past-tense verb ('created', 'saved the fees of'). */
  verb: string;
  /** Readable entity ('event', 'event category'). */
  entityLabel: string;
  createdAt: string;
};

// Account and security events (sign-ins, role changes, invitations) stay in the admins' Activity
// Log; the dashboard shows what happened to the content.
const ADMIN_ONLY_ENTITIES = ["user", "invitation", "session", "security"];

/**
 * The latest back-office activity from the audit log. Only the actor's display name is exposed
 * (never an e-mail); editors do not see account-related rows.
 */
export async function listRecentActivity({
  isAdmin,
  limit = 8,
}: {
  isAdmin: boolean;
  limit?: number;
}): Promise<ActivityItem[]> {
  const entityFilter = isAdmin
    ? sql``
    : sql`and coalesce(a.entity, '') not in (${sql.join(
        ADMIN_ONLY_ENTITIES.map((e) => sql`${e}`),
        sql`, `,
      )})`;
  const rows = await queryRows<{
    id: string;
    actor_name: string | null;
    action: string;
    entity: string | null;
    subject: string | null;
    created_at: string | Date;
  }>(sql`
    select a.id, u.full_name as actor_name, a.action, a.entity,
           coalesce(a.details->>'title', a.details->>'name') as subject, a.created_at
    from audit_log a
    left join "user" u on u.id = a.actor_id
    where a.action not like 'auth.%' ${entityFilter}
    order by a.created_at desc
    limit ${limit}
  `);
  return rows.map((r) => ({
    id: r.id,
    actorName: r.actor_name ?? "System",
    action: r.action,
    entity: r.entity,
    subject: r.subject,
    verb: describeAction(r.action),
    entityLabel: describeEntity(r.entity),
    createdAt: new Date(r.created_at).toISOString(),
  }));
}

const VERBS: Record<string, string> = {
  create: "created",
  update: "updated",
  delete: "deleted",
  fees_replace: "saved the fees of",
  fee_delete: "removed a fee from",
  role_change: "changed the role of",
  invite: "invited",
  revoke: "revoked",
  accepted: "accepted",
};

/** 'event.create' → 'created'; unknown verbs read as their words ('mark_read' → 'mark read'). */
export function describeAction(action: string) {
  const verb = action.split(".").pop() ?? action;
  return VERBS[verb] ?? verb.replace(/_/g, " ");
}

/** 'event_category' → 'event category'. */
export function describeEntity(entity: string | null) {
  return entity ? entity.replace(/[_-]/g, " ") : "item";
}
