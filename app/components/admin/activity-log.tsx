import { Form, Link } from "react-router";
import { Download, History } from "~/components/icons";
import { Button, buttonVariants } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { NativeSelect } from "~/components/ui/native-select";
import { TableScroll } from "~/components/ui/table-scroll";
import { formatDate, formatTime } from "~/lib/format";
import type { ActivityEntry, ActivityFilters } from "~/models/security/audit-log.server";
import { describeActivity, entityLabel } from "./activity-describe";
import { EmptyState } from "./empty-state";
import { ListPagination } from "./list-pagination";

const ALL = "all";

/** The Activity Log filters: a GET form (tab kept), so the filtered view is a shareable URL. */
export function ActivityFiltersForm({
  filters,
  actions,
  entities,
}: {
  filters: ActivityFilters;
  actions: string[];
  entities: string[];
}) {
  return (
    <Form
      method="get"
      role="search"
      aria-label="Filter the activity log"
      className="mb-6 grid gap-4 sm:grid-cols-2 sm:items-end xl:grid-cols-3"
    >
      <input type="hidden" name="tab" value="activity" />
      <div className="grid gap-2">
        <Label htmlFor="activity-actor">Actor</Label>
        <Input
          id="activity-actor"
          name="actor"
          type="search"
          defaultValue={filters.actor ?? ""}
          placeholder="Name or full email address"
        />
      </div>
      <div className="grid gap-2">
        <Label htmlFor="activity-action">Action</Label>
        <NativeSelect id="activity-action" name="action" defaultValue={filters.action ?? ALL}>
          <option value={ALL}>All actions</option>
          {actions.map((a) => (
            <option key={a} value={a}>
              {describeActivity({ action: a, entity: null, details: null })}
            </option>
          ))}
        </NativeSelect>
      </div>
      <div className="grid gap-2">
        <Label htmlFor="activity-entity">Entity</Label>
        <NativeSelect id="activity-entity" name="entity" defaultValue={filters.entity ?? ALL}>
          <option value={ALL}>All entities</option>
          {entities.map((e) => (
            <option key={e} value={e}>
              {entityLabel(e)}
            </option>
          ))}
        </NativeSelect>
      </div>
      <div className="grid gap-2">
        <Label htmlFor="activity-from">From</Label>
        <Input id="activity-from" name="from" type="date" defaultValue={filters.from ?? ""} />
      </div>
      <div className="grid gap-2">
        <Label htmlFor="activity-to">To</Label>
        <Input id="activity-to" name="to" type="date" defaultValue={filters.to ?? ""} />
      </div>
      <div className="flex gap-2">
        <Button type="submit">Apply</Button>
        <Link to="/admin/security?tab=activity" className={buttonVariants({ variant: "outline" })}>
          Clear
        </Link>
      </div>
    </Form>
  );
}

function detailsText(details: Record<string, unknown> | null) {
  if (!details) return "";
  return Object.entries(details)
    .map(([k, v]) => `${k}: ${typeof v === "string" ? v : JSON.stringify(v)}`)
    .join(", ");
}

/** The log itself, newest first, with a CSV export of exactly the filtered rows. */
export function ActivityLogTable({
  entries,
  total,
  page,
  pageSize,
  exportHref,
  filtered,
}: {
  entries: ActivityEntry[];
  total: number;
  page: number;
  pageSize: number;
  exportHref: string;
  filtered: boolean;
}) {
  return (
    <section aria-labelledby="activity-heading" className="grid gap-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="activity-heading" className="text-lg font-semibold">
          {total} {total === 1 ? "entry" : "entries"}
          {filtered ? " match" : " in the activity log"}
        </h2>
        <a
          href={exportHref}
          download
          className={buttonVariants({ variant: "outline", size: "sm" })}
        >
          <Download aria-hidden />
          Export CSV
        </a>
      </div>
      {entries.length === 0 ? (
        <EmptyState
          icon={History}
          title="No activity found"
          hint={filtered ? "Try adjusting your filters." : "Sign-ins and changes will appear here."}
        />
      ) : (
        <TableScroll
          label="Activity log, newest first"
          className="rounded-xl border border-border bg-card"
        >
          <table className="w-full min-w-[800px] text-sm">
            <caption className="sr-only">Activity log, newest first</caption>
            <thead className="border-b border-border bg-muted/50 text-left text-slate-700">
              <tr>
                <th scope="col" className="px-4 py-3 font-medium">
                  Time
                </th>
                <th scope="col" className="px-4 py-3 font-medium">
                  Actor
                </th>
                <th scope="col" className="px-4 py-3 font-medium">
                  Action
                </th>
                <th scope="col" className="px-4 py-3 font-medium">
                  Entity
                </th>
                <th scope="col" className="px-4 py-3 font-medium">
                  Details
                </th>
                <th scope="col" className="px-4 py-3 font-medium">
                  IP address
                </th>
              </tr>
            </thead>
            <tbody>
              {entries.map((e) => (
                <tr key={e.id} className="border-b border-border align-top last:border-0">
                  <td className="px-4 py-3 whitespace-nowrap">
                    <time dateTime={e.createdAt}>
                      {formatDate(e.createdAt)}
                      <br />
                      <span className="text-xs text-muted-foreground">
                        {formatTime(e.createdAt)}
                      </span>
                    </time>
                  </td>
                  <td className="px-4 py-3">
                    <div className="font-medium">{e.actorName ?? "—"}</div>
                    {e.actorEmail ? (
                      <div className="font-mono text-xs text-slate-700">{e.actorEmail}</div>
                    ) : null}
                  </td>
                  <td className="px-4 py-3">
                    <div title={e.action}>{describeActivity(e)}</div>
                  </td>
                  <td className="px-4 py-3">
                    {e.entity ? entityLabel(e.entity) : "—"}
                    {e.entityId ? (
                      <div
                        className="max-w-[12rem] truncate font-mono text-xs text-slate-700"
                        title={e.entityId}
                      >
                        {e.entityId}
                      </div>
                    ) : null}
                  </td>
                  <td className="max-w-[16rem] px-4 py-3 text-xs break-words text-slate-700">
                    {detailsText(e.details)}
                  </td>
                  <td className="px-4 py-3 font-mono text-xs text-slate-700">{e.ip ?? "—"}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
      <ListPagination page={page} pageSize={pageSize} total={total} />
    </section>
  );
}
