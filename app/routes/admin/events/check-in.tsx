import { useEffect, useRef } from "react";
import { data, Form, Link, useActionData, useFetcher, useLoaderData } from "react-router";
import { CheckInCamera } from "~/components/admin/check-in-camera";
import { EventErrorBoundary } from "~/components/admin/event-error-boundary";
import { ArrowLeft, CheckCircle2, Search, UserCheck, XCircle } from "~/components/icons";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { formatDateRange } from "~/lib/format";
import { DomainError } from "~/lib/lifecycle.server";
import { requireRole } from "~/lib/permissions.server";
import { cn } from "~/lib/utils";
import { getRegistrationEvent } from "~/models/registrations/admin-queries.server";
import {
  admitsLabel,
  checkInByCode,
  checkInTally,
  checkInTicket,
  checkInTimeLabel,
  doorAt,
  eventDayLabel,
  openCheckInNow,
  recentCheckIns,
  searchCheckInTickets,
} from "~/models/registrations/checkin.server";
import { REGISTRATION_STATE_LABELS } from "~/models/registrations/registration-states";
import type { Route } from "./+types/check-in";

/** The floating chat button would cover the door's controls on a phone: docked here (root.tsx). */
export const handle = { dockChat: true };

export const meta: Route.MetaFunction = ({ data }) => [
  { title: `${data?.event ? `Check-in · ${data.event.title}` : "Check-in"} | Admin | Kongamano` },
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
  const query = (new URL(request.url).searchParams.get("q") ?? "").trim().slice(0, 100);
  const now = new Date();
  const door = doorAt(event, now);
  const [tally, recent, found] = await Promise.all([
    checkInTally(event.id, door.days, door.day),
    recentCheckIns(event.id),
    query ? searchCheckInTickets(event.id, query, door.day) : Promise.resolve([]),
  ]);
  const at = (d: Date) => checkInTimeLabel(d, event.timeZone);
  return {
    event: {
      id: event.id,
      title: event.title,
      dates: formatDateRange(event.startDate, event.endDate, event.timeZone),
      cancelled: Boolean(event.cancelledAt),
    },
    door: {
      open: door.open,
      over: now >= door.closesAt,
      opensAt: at(door.opensAt),
      closesAt: at(door.closesAt),
      multiDay: door.days.length > 1,
      dayLabel: eventDayLabel(tally.day),
    },
    tally,
    query,
    recent: recent.map((r) => ({
      ticketId: r.ticketId,
      attendeeName: r.attendeeName,
      ticketLabel: r.ticketLabel,
      at: r.checkedInAt ? at(r.checkedInAt) : "",
    })),
    found: found.map((r) => ({
      registrationId: r.registrationId,
      attendeeName: r.attendeeName,
      ticketLabel: r.ticketLabel,
      state: r.state,
      stateLabel: REGISTRATION_STATE_LABELS[r.state],
      tickets: r.tickets.map((t) => ({
        id: t.id,
        seat: t.seat,
        // A group ticket stays open until all it admits are in: "Admits 6 — 2 of 6 in".
        full: t.admitted >= t.admits,
        admits: t.admits > 1 ? admitsLabel(t.admits, t.admitted) : null,
        checkedIn: t.checkedInAt
          ? `${t.admits > 1 ? "Last checked in" : "Checked in"} at ${at(t.checkedInAt)}${t.checkedInBy ? ` by ${t.checkedInBy}` : ""}`
          : null,
      })),
    })),
  };
}

export type CheckInAnswer = {
  outcome: "checked_in" | "already" | "refused" | "error" | "notice";
  message: string;
  /** Tells two equal answers apart, so each one is announced. */
  answeredAt: number;
};

export async function action({ request, params }: Route.ActionArgs) {
  const user = await requireRole(request, "editor");
  const event = await eventOr404(params.id);
  const form = await request.formData();
  const actor = { id: user.id, role: user.role, request };
  const answer = (outcome: CheckInAnswer["outcome"], message: string, status = 200) =>
    data<CheckInAnswer>({ outcome, message, answeredAt: Date.now() }, { status });
  try {
    const intent = form.get("intent");
    if (intent === "open") {
      const { opened } = await openCheckInNow(event.id, actor);
      return answer("notice", opened ? "Check-in is open." : "Check-in was already open.");
    }
    const result =
      intent === "ticket"
        ? await checkInTicket(event.id, String(form.get("ticketId") ?? ""), actor)
        : intent === "code"
          ? await checkInByCode(event.id, String(form.get("code") ?? ""), actor)
          : null;
    if (!result) return answer("error", "Unknown action.", 400);
    return answer(result.outcome, result.message);
  } catch (error) {
    if (error instanceof DomainError) return answer("error", error.message, error.status);
    throw error;
  }
}

const FETCHER_KEY = "check-in";

const ANSWER_STYLE: Record<CheckInAnswer["outcome"], string> = {
  checked_in: "border-green-700 bg-green-50 text-green-900",
  already: "border-yellow-700 bg-yellow-50 text-yellow-900",
  refused: "border-red-700 bg-red-50 text-red-900",
  error: "border-red-700 bg-red-50 text-red-900",
  notice: "border-border bg-muted text-foreground",
};

/** The last answer, announced to screen readers and big enough to read at arm's length. */
function AnswerPanel({ answer, busy }: { answer: CheckInAnswer | undefined; busy: boolean }) {
  return (
    <div
      role="status"
      aria-live="polite"
      aria-atomic="true"
      aria-label="Check-in result"
      // Sticky: the answer stays where the operator is looking, also after scrolling to a name.
      className="sticky top-0 z-10 min-h-16 bg-background py-1"
    >
      {busy ? (
        <p className="rounded-lg border border-border p-4 text-base">Checking…</p>
      ) : answer ? (
        <p
          key={answer.answeredAt}
          data-outcome={answer.outcome}
          className={cn(
            "flex items-start gap-3 rounded-lg border-2 p-4 text-base font-medium",
            ANSWER_STYLE[answer.outcome],
          )}
        >
          {answer.outcome === "checked_in" || answer.outcome === "notice" ? (
            <CheckCircle2 aria-hidden className="mt-0.5 size-5 shrink-0" />
          ) : (
            <XCircle aria-hidden className="mt-0.5 size-5 shrink-0" />
          )}
          {answer.message}
        </p>
      ) : (
        <p className="rounded-lg border border-dashed border-border p-4 text-sm text-muted-foreground">
          Scan a ticket, type its code, or search by name.
        </p>
      )}
    </div>
  );
}

function CodeForm() {
  const fetcher = useFetcher<CheckInAnswer>({ key: FETCHER_KEY });
  const inputRef = useRef<HTMLInputElement>(null);
  /** The code sent from the field, until its answer is in. */
  const sent = useRef<string | null>(null);
  const busy = fetcher.state !== "idle";
  // The field empties as soon as a code is sent, ready for the next scan; a refused code comes
  // back selected (to correct it, or to be replaced by the next scan). The focus stays here.
  useEffect(() => {
    const input = inputRef.current;
    if (busy || sent.current === null || !input) return;
    const code = sent.current;
    sent.current = null;
    const outcome = fetcher.data?.outcome;
    if ((outcome === "refused" || outcome === "error") && input.value === "") {
      input.value = code;
      input.select();
    }
    input.focus();
  }, [busy, fetcher.data]);

  function submitCode(code: string) {
    fetcher.submit({ intent: "code", code }, { method: "post" });
  }

  return (
    <div className="grid gap-4">
      <fetcher.Form
        method="post"
        className="grid gap-2"
        onSubmit={() => {
          const input = inputRef.current;
          if (!input) return;
          sent.current = input.value;
          // After the submission has read the form (it does so right after this handler).
          setTimeout(() => {
            if (input.value === sent.current) input.value = "";
          }, 0);
        }}
      >
        <input type="hidden" name="intent" value="code" />
        <Label htmlFor="ticket-code">Ticket code</Label>
        <div className="flex gap-2">
          <Input
            ref={inputRef}
            id="ticket-code"
            name="code"
            required
            autoComplete="off"
            autoCapitalize="off"
            autoCorrect="off"
            spellCheck={false}
            enterKeyHint="go"
            className="h-11 min-w-0 flex-1 font-mono"
            aria-describedby="ticket-code-hint"
          />
          {/* Disabled only while a code is on its way: during the page's refresh after an
              answer, a disabled button would make the scanner's Enter submit nothing. */}
          <Button type="submit" className="h-11" disabled={fetcher.state === "submitting"}>
            Check in
          </Button>
        </div>
        <p id="ticket-code-hint" className="text-xs text-muted-foreground">
          A handheld scanner types the code here and presses Enter.
        </p>
      </fetcher.Form>
      <CheckInCamera onCode={submitCode} />
    </div>
  );
}

function TicketButton({
  ticketId,
  label,
  onSubmit,
}: {
  ticketId: string;
  label: string;
  onSubmit: () => void;
}) {
  const fetcher = useFetcher<CheckInAnswer>({ key: FETCHER_KEY });
  return (
    <fetcher.Form method="post" onSubmit={onSubmit}>
      <input type="hidden" name="intent" value="ticket" />
      <input type="hidden" name="ticketId" value={ticketId} />
      <Button type="submit" size="sm" className="h-10" aria-label={label}>
        <UserCheck aria-hidden />
        Check in
      </Button>
    </fetcher.Form>
  );
}

function NameSearch() {
  const { event, query, found } = useLoaderData<typeof loader>();
  const fetcher = useFetcher<CheckInAnswer>({ key: FETCHER_KEY });
  const searchRef = useRef<HTMLInputElement>(null);
  /** A check-in sent from a button of this list, until its answer and the new list are in. */
  const checkingIn = useRef(false);
  // The button that was pressed is gone once its seat is checked in: rather than dropping the
  // keyboard focus to the page, it goes back to the search field, selected for the next name
  // (the answer itself is announced by the result panel).
  useEffect(() => {
    if (fetcher.state !== "idle" || !checkingIn.current) return;
    checkingIn.current = false;
    const input = searchRef.current;
    if (!input || (document.activeElement && document.activeElement !== document.body)) return;
    input.focus();
    input.select();
  }, [fetcher.state]);
  return (
    <Card className="grid gap-4 p-4 sm:p-6">
      <h2 className="text-lg font-semibold">Find by name</h2>
      <Form method="get" role="search" replace preventScrollReset className="grid gap-2">
        <Label htmlFor="check-in-search">Name or e-mail</Label>
        <div className="flex gap-2">
          <Input
            ref={searchRef}
            id="check-in-search"
            type="search"
            name="q"
            defaultValue={query}
            autoComplete="off"
            className="h-11 min-w-0 flex-1"
          />
          <Button type="submit" variant="outline" className="h-11">
            <Search aria-hidden />
            Search
          </Button>
        </div>
      </Form>
      {query ? (
        found.length === 0 ? (
          <p className="text-sm text-muted-foreground">
            {query.length < 2
              ? "Type at least two letters."
              : `Nobody registered for ${event.title} matches “${query}”.`}
          </p>
        ) : (
          <ul className="grid gap-3" aria-label="People found">
            {found.map((r) => (
              <li key={r.registrationId} className="grid gap-2 rounded-lg border border-border p-3">
                <div className="flex flex-wrap items-center justify-between gap-2">
                  <p className="font-medium">{r.attendeeName}</p>
                  {r.state === "confirmed" ? null : (
                    <Badge variant="destructive">{r.stateLabel}</Badge>
                  )}
                </div>
                <p className="text-sm text-muted-foreground">{r.ticketLabel}</p>
                <ul className="grid gap-2">
                  {r.tickets.map((t) => {
                    const seat = r.tickets.length > 1 ? `Seat ${t.seat}` : "Ticket";
                    return (
                      <li key={t.id} className="flex flex-wrap items-center justify-between gap-2">
                        <span className="text-sm">
                          {seat}
                          {t.admits ? ` · ${t.admits}` : ""}
                          {t.checkedIn ? ` · ${t.checkedIn}` : ""}
                        </span>
                        {t.full || r.state !== "confirmed" ? null : (
                          <TicketButton
                            ticketId={t.id}
                            label={`Check in ${r.attendeeName}${
                              r.tickets.length > 1 ? `, seat ${t.seat}` : ""
                            }`}
                            onSubmit={() => {
                              checkingIn.current = true;
                            }}
                          />
                        )}
                      </li>
                    );
                  })}
                </ul>
              </li>
            ))}
          </ul>
        )
      ) : null}
    </Card>
  );
}

/** Whether the door admits people now, and the organiser's "Open check-in now" when it does not yet. */
function DoorStatus() {
  const { event, door } = useLoaderData<typeof loader>();
  if (event.cancelled || door.open) return null;
  if (door.over) {
    return <p className="text-sm text-muted-foreground">Check-in closed at {door.closesAt}.</p>;
  }
  return (
    <div className="grid gap-2 rounded-lg border border-border p-3">
      <p className="text-sm">
        Check-in opens at <span className="font-medium">{door.opensAt}</span>.
      </p>
      <Form method="post">
        <input type="hidden" name="intent" value="open" />
        <Button type="submit" variant="outline" size="sm">
          Open check-in now
        </Button>
      </Form>
    </div>
  );
}

export default function CheckIn() {
  const { event, tally, recent, door } = useLoaderData<typeof loader>();
  // Without JavaScript the forms post normally and the answer comes back as action data.
  const actionData = useActionData<typeof action>();
  const fetcher = useFetcher<CheckInAnswer>({ key: FETCHER_KEY });
  const answer = fetcher.data ?? actionData;
  return (
    <div className="mx-auto grid w-full max-w-xl gap-4">
      <div className="grid gap-1">
        <Link
          to={`/admin/events/${event.id}/registrations`}
          className="inline-flex w-fit items-center gap-1 text-sm text-primary-700 underline underline-offset-2"
        >
          <ArrowLeft aria-hidden className="size-4" />
          Registrations
        </Link>
        <h1 className="text-2xl font-semibold tracking-tight">Check-in</h1>
        <p className="text-muted-foreground">
          {event.title} · {event.dates}
        </p>
        <p className="text-lg font-semibold" aria-live="polite">
          {tally.checkedIn} of {tally.valid} checked in
          {door.multiDay ? ` · ${door.dayLabel}` : ""}
        </p>
        {door.multiDay ? (
          <ul
            className="flex flex-wrap gap-x-4 gap-y-1 text-sm text-muted-foreground"
            aria-label="Checked in per day"
          >
            {tally.days.map((d) => (
              <li key={d.day}>
                {d.label}: {d.checkedIn}
              </li>
            ))}
          </ul>
        ) : null}
        {event.cancelled ? <Badge variant="destructive">This event is cancelled</Badge> : null}
        <DoorStatus />
      </div>
      <AnswerPanel answer={answer} busy={fetcher.state === "submitting"} />
      <Card className="grid gap-4 p-4 sm:p-6">
        <h2 className="text-lg font-semibold">Scan or type a ticket</h2>
        <CodeForm />
      </Card>
      <NameSearch />
      {recent.length ? (
        <Card className="grid gap-3 p-4 sm:p-6">
          <h2 className="text-lg font-semibold">Last checked in</h2>
          <ul className="grid gap-2 text-sm">
            {recent.map((r) => (
              <li key={r.ticketId}>
                <span className="font-medium">{r.attendeeName}</span> · {r.ticketLabel} · {r.at}
              </li>
            ))}
          </ul>
        </Card>
      ) : null}
    </div>
  );
}

export function ErrorBoundary() {
  return <EventErrorBoundary />;
}
