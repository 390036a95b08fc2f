import { data, Link, useLoaderData, useLocation } from "react-router";
import {
  CANCEL_REASON_MAX,
  CancelRegistrationDialog,
  type CancelRegistrationFailure,
} from "~/components/admin/cancel-registration-dialog";
import { EmptyState } from "~/components/admin/empty-state";
import { EventErrorBoundary } from "~/components/admin/event-error-boundary";
import { ListFilters } from "~/components/admin/list-filters";
import { ListPagination } from "~/components/admin/list-pagination";
import { PageHeader } from "~/components/admin/page-header";
import { Download, Pencil, UserCheck, Users } from "~/components/icons";
import { Badge } from "~/components/ui/badge";
import { buttonVariants } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { TableScroll } from "~/components/ui/table-scroll";
import { formatDate, formatDateRange, formatTime } from "~/lib/format";
import { formatMinor } from "~/lib/money";
import { requireRole } from "~/lib/permissions.server";
import { redirectWithToast } from "~/lib/toast.server";
import { refundableOrderOfRegistration } from "~/models/orders/queries.server";
import {
  findEventRegistration,
  getRegistrationEvent,
  listEventRegistrations,
  registrationCounts,
  registrationFiltersFrom,
} from "~/models/registrations/admin-queries.server";
import {
  REGISTRATION_STATE_BADGES,
  REGISTRATION_STATE_LABELS,
  REGISTRATION_STATES,
} from "~/models/registrations/registration-states";
import { cancelRegistration, RegistrationError } from "~/models/registrations/registrations.server";
import type { Route } from "./+types/registrations";

export const meta: Route.MetaFunction = ({ data }) => [
  {
    title: `${data?.event ? `Registrations · ${data.event.title}` : "Registrations"} | Admin | Kongamano`,
  },
  { name: "robots", content: "noindex" },
];

async function eventOr404(id: string) {
  const event = await getRegistrationEvent(id);
  if (!event) throw data("Event not found", { status: 404 });
  return event;
}

export async function loader({ request, params }: Route.LoaderArgs) {
  await requireRole(request, "editor");
  const event = await eventOr404(params.id);
  const filters = registrationFiltersFrom(new URL(request.url).searchParams);
  const [list, counts] = await Promise.all([
    listEventRegistrations(event.id, filters),
    registrationCounts(event.id),
  ]);
  const now = Date.now();
  const when = (d: Date) => `${formatDate(d, event.timeZone)}, ${formatTime(d, event.timeZone)}`;
  return {
    event: {
      id: event.id,
      title: event.title,
      dates: formatDateRange(event.startDate, event.endDate, event.timeZone),
      cancelled: Boolean(event.cancelledAt),
    },
    filters,
    counts,
    total: list.total,
    page: list.page,
    pageSize: list.pageSize,
    registrations: list.rows.map((r) => ({
      id: r.id,
      attendeeName: r.attendeeName,
      attendeeEmail: r.attendeeEmail,
      ticketLabel: r.ticketLabel,
      quantity: r.quantity,
      state: r.state,
      price:
        r.unitAmountMinor > 0 && r.currency ? formatMinor(r.unitAmountMinor, r.currency) : "Free",
      holdEnded: r.state === "awaiting_payment" && r.holdUntil !== null && +r.holdUntil < now,
      registered: when(r.createdAt),
      cancelled: r.cancelledAt ? when(r.cancelledAt) : null,
      cancelReason: r.cancelReason,
      checkedIn: r.checkedIn,
      orderId: r.orderId,
    })),
  };
}

export async function action({ request, params }: Route.ActionArgs) {
  const user = await requireRole(request, "editor");
  const event = await eventOr404(params.id);
  const form = await request.formData();
  const registrationId = String(form.get("registrationId") ?? "");
  const fail = (error: string, status: number) =>
    data<CancelRegistrationFailure>({ cancel: { registrationId, error } }, { status });
  if (form.get("intent") !== "cancel") return fail("Unknown action.", 400);
  const reason = String(form.get("reason") ?? "").trim();
  const message = String(form.get("message") ?? "").trim();
  if (reason.length > CANCEL_REASON_MAX) {
    return fail(`The internal note can be at most ${CANCEL_REASON_MAX} characters.`, 400);
  }
  if (message.length > CANCEL_REASON_MAX) {
    return fail(`The message can be at most ${CANCEL_REASON_MAX} characters.`, 400);
  }
  // The registration must belong to the event the editor is looking at (the URL names it).
  const registration = await findEventRegistration(event.id, registrationId);
  if (!registration) {
    return fail("This registration was not found for this event. Please refresh the page.", 404);
  }
  try {
    await cancelRegistration(
      registrationId,
      { id: user.id, role: user.role, request },
      reason || undefined,
      message || undefined,
    );
    // Money paid for it goes back through the refund step (issue 26).
    const refundOrderId = await refundableOrderOfRegistration(registrationId);
    if (refundOrderId) {
      return redirectWithToast(`/admin/payments?refund=${refundOrderId}#refund`, {
        type: "success",
        title: "Registration cancelled · refund due",
        description: `${registration.attendeeName}'s registration is cancelled and the seats go to the waitlist. Record the refund of what was paid.`,
      });
    }
    const back = new URL(request.url);
    return redirectWithToast(`/admin/events/${event.id}/registrations${back.search}`, {
      type: "success",
      title: "Registration cancelled",
      description: `${registration.attendeeName}'s registration is cancelled; the seats go to the waitlist.`,
    });
  } catch (error) {
    if (error instanceof RegistrationError) return fail(error.message, error.status);
    throw error;
  }
}

function SeatFigures() {
  const { counts } = useLoaderData<typeof loader>();
  const figures = [
    {
      label: "Capacity left",
      value:
        counts.capacityLeft === null ? "No limit" : `${counts.capacityLeft} of ${counts.capacity}`,
    },
    { label: "Seats taken", value: String(counts.taken) },
    { label: "On the waitlist", value: String(counts.waitlist) },
    { label: "Checked in", value: `${counts.checkedIn} of ${counts.validTickets}` },
  ];
  return (
    <Card className="mb-6 grid gap-4 p-4 sm:p-6">
      <h2 className="text-lg font-semibold">Seats</h2>
      <dl className="grid grid-cols-2 gap-4 sm:grid-cols-4">
        {figures.map((f) => (
          <div key={f.label} className="grid gap-1">
            <dt className="text-sm text-muted-foreground">{f.label}</dt>
            <dd className="text-xl font-semibold">{f.value}</dd>
          </div>
        ))}
      </dl>
      <TableScroll label="Seats per ticket">
        <table className="w-full text-left text-sm">
          <caption className="sr-only">Seats per ticket</caption>
          <thead className="text-muted-foreground">
            <tr>
              <th scope="col" className="py-2 pr-4 font-medium">
                Ticket
              </th>
              <th scope="col" className="py-2 pr-4 text-right font-medium">
                Confirmed
              </th>
              <th scope="col" className="py-2 pr-4 text-right font-medium">
                Held
              </th>
              <th scope="col" className="py-2 pr-4 text-right font-medium">
                Left
              </th>
              <th scope="col" className="py-2 pr-4 text-right font-medium">
                Waiting
              </th>
              <th scope="col" className="py-2 text-right font-medium">
                Checked in
              </th>
            </tr>
          </thead>
          <tbody>
            {counts.tickets.map((t) => (
              <tr key={t.feeId ?? "none"} className="border-t border-border">
                <th scope="row" className="py-2 pr-4 font-medium">
                  {t.label}
                </th>
                <td className="py-2 pr-4 text-right">{t.confirmed}</td>
                <td className="py-2 pr-4 text-right">{t.held + t.offered}</td>
                <td className="py-2 pr-4 text-right">
                  {t.left === null ? "No limit" : `${t.left} of ${t.maxQuantity}`}
                </td>
                <td className="py-2 pr-4 text-right">{t.waiting}</td>
                <td className="py-2 text-right">{t.checkedIn}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>
      <p className="text-xs text-muted-foreground">
        Held: awaiting payment within the hold, or offered to someone on the waitlist.
      </p>
    </Card>
  );
}

export default function EventRegistrations() {
  const { event, filters, counts, registrations, total, page, pageSize } =
    useLoaderData<typeof loader>();
  const location = useLocation();
  const filtered = filters.search !== "" || filters.status !== "all";
  const csvQuery = new URLSearchParams(location.search);
  csvQuery.delete("page");
  const csvHref = `/admin/events/${event.id}/registrations.csv${
    csvQuery.size ? `?${csvQuery}` : ""
  }`;
  const statusOptions = [
    { value: "all", label: "All statuses" },
    ...REGISTRATION_STATES.map((s) => ({
      value: s,
      label: `${REGISTRATION_STATE_LABELS[s]} (${counts.byState[s]})`,
    })),
  ];
  return (
    <>
      <PageHeader
        title="Registrations"
        description={
          <span className="inline-flex flex-wrap items-center gap-2">
            {event.title} · {event.dates}
            {event.cancelled ? <Badge variant="destructive">Cancelled</Badge> : null}
          </span>
        }
        actions={
          <>
            <Link to={`/admin/events/${event.id}/check-in`} className={buttonVariants()}>
              <UserCheck aria-hidden />
              Check-in
            </Link>
            <a href={csvHref} download className={buttonVariants({ variant: "outline" })}>
              <Download aria-hidden />
              Export CSV
            </a>
            <Link
              to={`/admin/events/${event.id}/edit`}
              className={buttonVariants({ variant: "outline" })}
            >
              <Pencil aria-hidden />
              Edit event
            </Link>
          </>
        }
      />
      <SeatFigures />
      <ListFilters
        searchLabel="Search registrations"
        searchPlaceholder="Search by name or e-mail"
        search={filters.search}
        filters={[
          { name: "status", label: "Status", value: filters.status, options: statusOptions },
        ]}
      />
      <p className="sr-only" aria-live="polite">
        {total} {total === 1 ? "registration" : "registrations"} found
      </p>
      {registrations.length === 0 ? (
        <EmptyState
          icon={Users}
          title="No registrations found"
          hint={
            filtered
              ? "Try adjusting your filters or search terms."
              : "Nobody has registered for this event yet."
          }
          action={
            filtered ? (
              <Link
                to={`/admin/events/${event.id}/registrations`}
                className={buttonVariants({ variant: "outline" })}
              >
                Clear filters
              </Link>
            ) : null
          }
        />
      ) : (
        <Card className="p-0">
          <TableScroll label="Registrations" className="rounded-xl">
            <table className="w-full min-w-[44rem] text-left text-sm">
              <caption className="sr-only">Registrations</caption>
              <thead className="bg-muted/50 text-muted-foreground">
                <tr>
                  <th scope="col" className="px-4 py-3 font-medium">
                    Attendee
                  </th>
                  <th scope="col" className="px-4 py-3 font-medium">
                    Ticket
                  </th>
                  <th scope="col" className="px-4 py-3 font-medium">
                    Status
                  </th>
                  <th scope="col" className="px-4 py-3 font-medium">
                    Registered
                  </th>
                  <th scope="col" className="px-4 py-3 text-right font-medium">
                    Checked in
                  </th>
                  <th scope="col" className="px-4 py-3 font-medium">
                    <span className="sr-only">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {registrations.map((r) => (
                  <tr key={r.id} className="border-t border-border align-top">
                    <td className="px-4 py-3">
                      <p className="font-medium">{r.attendeeName}</p>
                      <p className="break-all text-muted-foreground">{r.attendeeEmail}</p>
                    </td>
                    <td className="px-4 py-3">
                      <p>{r.ticketLabel}</p>
                      <p className="text-muted-foreground">
                        {r.quantity} {r.quantity === 1 ? "seat" : "seats"} · {r.price}
                      </p>
                    </td>
                    <td className="px-4 py-3">
                      <Badge variant={REGISTRATION_STATE_BADGES[r.state]}>
                        {REGISTRATION_STATE_LABELS[r.state]}
                      </Badge>
                      {r.holdEnded ? (
                        <p className="mt-1 text-xs text-muted-foreground">Hold ended</p>
                      ) : null}
                      {r.cancelled ? (
                        <p className="mt-1 text-xs text-muted-foreground">
                          {r.cancelled}
                          {r.cancelReason ? ` · ${r.cancelReason}` : ""}
                        </p>
                      ) : null}
                    </td>
                    <td className="px-4 py-3 whitespace-nowrap">{r.registered}</td>
                    <td className="px-4 py-3 text-right">
                      {r.checkedIn} of {r.quantity}
                    </td>
                    <td className="px-4 py-3">
                      {r.state === "confirmed" || r.state === "awaiting_payment" ? (
                        <CancelRegistrationDialog
                          registrationId={r.id}
                          attendeeName={r.attendeeName}
                          seats={r.quantity}
                        />
                      ) : null}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
        </Card>
      )}
      <ListPagination page={page} pageSize={pageSize} total={total} />
    </>
  );
}

export function ErrorBoundary() {
  return <EventErrorBoundary />;
}
