import { parseWithZod } from "@conform-to/zod/v4";
import { data, Form, type ShouldRevalidateFunctionArgs } from "react-router";
import {
  DelegationForm,
  type DelegationSeat,
  type DelegationState,
  type DelegationTicket,
} from "~/components/delegation-form";
import { GeneralErrorBoundary } from "~/components/error-screens";
import { PastEventBadge } from "~/components/event-card";
import { ArrowLeft } from "~/components/icons";
import { Link } from "~/components/link";
import { RegistrationForm } from "~/components/registration-form";
import {
  DelegationInvoiceSchema,
  FREE_TICKET,
  MAX_DELEGATION_SEATS,
  quantityField,
  RegistrationSchema,
  SeatSchema,
  seatField,
} from "~/components/registration-schema";
import { Alert, AlertDescription } from "~/components/ui/alert";
import { Button, buttonVariants } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { WaitingRoom } from "~/components/waiting-room";
import { sessionTokenOf } from "~/lib/auth.server";
import { formatDate, formatDateRange, formatTime } from "~/lib/format";
import { requireUser } from "~/lib/permissions.server";
import { benchSession } from "~/lib/rate-limit.server";
import { redirectWithToast } from "~/lib/toast.server";
import { bookSeats } from "~/models/registrations/bookings.server";
import { getBookingTarget, getRegistrationPage } from "~/models/registrations/queries.server";
import {
  leaveQueue,
  readQueueNumber,
  signQueueNumber,
  waitForTurn,
} from "~/models/registrations/queue.server";
import {
  joinWaitlist,
  leaveWaitlist,
  limitRegistrationActions,
  RegistrationError,
  registerForEvent,
} from "~/models/registrations/registrations.server";
import type { Route } from "./+types/register";

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: `Register: ${loaderData?.event.title ?? "Event"} | Kongamano` },
  { name: "robots", content: "noindex" },
];

/** The response header naming the number a request waited with (the benchmark counts order). */
export const QUEUE_NUMBER_HEADER = "X-Queue-Number";

export function headers({ actionHeaders }: Route.HeadersArgs) {
  const headers = new Headers({ "Cache-Control": "private, no-store" });
  for (const name of [QUEUE_NUMBER_HEADER, "Retry-After", "Server-Timing"]) {
    const value = actionHeaders.get(name);
    if (value) headers.set(name, value);
  }
  return headers;
}

// A check from the waiting room changes nothing on the page: the page's data is not read again.
export function shouldRevalidate({
  actionResult,
  defaultShouldRevalidate,
}: ShouldRevalidateFunctionArgs) {
  if (actionResult && typeof actionResult === "object" && "queue" in actionResult) return false;
  return defaultShouldRevalidate;
}

async function loadPage(slug: string, userId: string, offerId?: string | null) {
  const page = await getRegistrationPage(slug, userId, offerId);
  if (!page) throw data({ message: "Event Not Found" }, { status: 404 });
  return page;
}

/** The event a booking post is for, and its tickets (the page's data is not read to book). */
async function loadBookingTarget(slug: string) {
  const target = await getBookingTarget(slug);
  if (!target) throw data({ message: "Event Not Found" }, { status: 404 });
  return target;
}

export async function loader({ request, params }: Route.LoaderArgs) {
  // A visitor signs in (or creates an account) first and comes back here.
  const user = await requireUser(request);
  const url = new URL(request.url);
  const offerId = url.searchParams.get("offer");
  const page = await loadPage(params.slug, user.id, offerId);
  // A sold-out ticket's waitlist (and a waitlist offer) use the one-ticket form; else a delegation.
  const waitlistTicket = url.searchParams.get("waitlist");
  const { event } = page;
  const ticketName = (feeId: string | null) =>
    page.tickets.find((t) => t.feeId === feeId)?.label ?? "this ticket";
  return {
    event: {
      slug: event.slug,
      title: event.title,
      location: event.location,
      dateLabel: formatDateRange(event.startDate, event.endDate, event.timeZone),
      timeLabel: `${formatTime(event.startDate, event.timeZone)} (${event.timeZone})`,
    },
    closedReason: page.closedReason,
    past: page.past,
    tickets: page.tickets.map((t) => ({
      value: t.feeId ?? FREE_TICKET,
      label: t.label,
      amountLabel: t.amountLabel,
      description: t.description,
      paid: t.unitAmountMinor > 0,
      remaining: t.remaining,
      maxPerRegistration: t.maxPerRegistration,
      maxPerAccount: t.maxPerAccount,
      onSale: t.onSale,
      offSaleReason: t.offSaleReason,
    })),
    delegationTickets: page.tickets.map(
      (t): DelegationTicket => ({
        value: t.feeId ?? FREE_TICKET,
        label: t.label,
        amountLabel: t.amountLabel,
        description: t.description,
        unitAmountMinor: t.unitAmountMinor,
        currency: t.currency,
        remaining: t.remaining,
        maxPerOrder: Math.min(t.maxPerRegistration, MAX_DELEGATION_SEATS),
        admits: t.admits,
        onSale: t.onSale,
        offSaleReason: t.offSaleReason,
      }),
    ),
    waitlistTicket:
      waitlistTicket && page.tickets.some((t) => (t.feeId ?? FREE_TICKET) === waitlistTicket)
        ? waitlistTicket
        : null,
    attendee: { name: user.name, email: user.email },
    registrations: page.registrations,
    waitlist: page.waitlist && { ...page.waitlist, ticketLabel: ticketName(page.waitlist.feeId) },
    offer: page.offer && {
      id: page.offer.id,
      ticket: page.offer.feeId ?? FREE_TICKET,
      quantity: page.offer.quantity,
      ticketLabel: ticketName(page.offer.feeId),
      expiresLabel: page.offer.expiresAt
        ? `${formatDate(page.offer.expiresAt, event.timeZone)} ${formatTime(page.offer.expiresAt, event.timeZone)}`
        : "",
    },
  };
}

export async function action({ request, params }: Route.ActionArgs) {
  const user = await requireUser(request);
  const formData = await request.formData();
  const intent = formData.get("intent");
  // Leaving the waitlist and redrawing the seat rows book nothing: they skip the waiting room.
  if (intent === "leave-waitlist" || intent === "seats") {
    return (
      (await limited(user.id, request, formData)) ??
      otherAction(formData, params.slug, user, request)
    );
  }
  // Booking intents (register, book, waitlist join and offer claims) pass the waiting room first.
  // The rate limit counts a first post, and a re-post from the waiting room only when it comes
  // in without the place kept for its number (late, or a number used before): waiting is free.
  const queueKey = params.slug;
  const number = readQueueNumber(queueKey, user.id, formData.get("queueNumber"));
  if (number === null) {
    const refused = await limited(user.id, request, formData);
    if (refused) return refused;
  }
  const arrived = performance.now();
  const entry = await waitForTurn(queueKey, { number, signal: request.signal });
  if (!entry.admitted) return waitingRoom(formData, queueKey, user.id, entry);
  const waitedMs = performance.now() - arrived;
  try {
    if (number !== null && !entry.tookReservation) {
      const refused = await limited(user.id, request, formData);
      if (refused) return withQueueNumber(refused, entry.number, waitedMs);
    }
    return withQueueNumber(
      await bookingAction(formData, params.slug, user, request),
      entry.number,
      waitedMs,
    );
  } finally {
    await leaveQueue(queueKey, entry.slot);
  }
}

/** The rate limit's answer (429, shown in the form or above the page), or null when allowed. */
async function limited(userId: string, request: Request, formData: FormData) {
  // Every registration and waitlist action counts, per account and per client address.
  const limit = await limitRegistrationActions(userId, request);
  if (!limit) return null;
  if (limit.persistent) {
    // Its next posts are refused before anything is read or rendered, until the window ends.
    const token = sessionTokenOf(request.headers.get("cookie"));
    if (token) benchSession(token, Date.now() + limit.retryAfterSeconds * 1000, limit.message);
  }
  const init = { status: 429, headers: { "Retry-After": String(limit.retryAfterSeconds) } };
  // Shown in the form (what was typed stays), or above the page when the form is not there.
  if (formData.get("intent") === "leave-waitlist") {
    return data({ result: null, message: limit.message }, init);
  }
  const submission = parseWithZod(formData, { schema: RegistrationSchema });
  return data({ result: submission.reply({ formErrors: [limit.message] }), message: null }, init);
}

/** The waiting page: the visitor's place, and everything they posted kept for the re-post. */
function waitingRoom(
  formData: FormData,
  queueKey: string,
  userId: string,
  entry: { number: number; position: number },
) {
  const fields: [string, string][] = [];
  for (const [name, value] of formData) {
    if (name !== "queueNumber" && typeof value === "string") fields.push([name, value]);
  }
  return data(
    {
      result: null,
      message: null,
      queue: {
        position: entry.position,
        queueNumber: signQueueNumber(queueKey, userId, entry.number),
        fields,
        answeredAt: Date.now(),
      },
    },
    { status: 200, headers: { [QUEUE_NUMBER_HEADER]: String(entry.number) } },
  );
}

/**
 * Names on an admitted request's answer (redirect or form) the number it waited with, and how
 * long it held in line on the server (`Server-Timing: queue;dur=…`, milliseconds): the benchmark
 * tells the time in line from the time the registration itself took.
 */
function withQueueNumber<T>(answer: T, number: number | null, waitedMs: number): T {
  const set = (headers: Headers) => {
    if (number !== null) headers.set(QUEUE_NUMBER_HEADER, String(number));
    headers.set("Server-Timing", `queue;dur=${waitedMs.toFixed(1)}`);
  };
  if (answer instanceof Response) {
    set(answer.headers);
    return answer;
  }
  const wrapped = answer as { init?: ResponseInit | null };
  if (wrapped && typeof wrapped === "object" && "init" in wrapped) {
    const headers = new Headers(wrapped.init?.headers);
    set(headers);
    wrapped.init = { ...wrapped.init, headers };
  }
  return answer;
}

type Account = { id: string; name: string; email: string };

async function otherAction(formData: FormData, slug: string, user: Account, request: Request) {
  const account = { id: user.id, name: user.name, email: user.email };
  const here = `/events/${encodeURIComponent(slug)}/register`;
  if (formData.get("intent") === "leave-waitlist") {
    try {
      // On the public page everyone leaves only their own place; staff use the back office.
      await leaveWaitlist(String(formData.get("entryId") ?? ""), {
        id: user.id,
        role: "user",
        request,
      });
    } catch (error) {
      if (!(error instanceof RegistrationError)) throw error;
      return data({ result: null, message: error.message }, { status: 400 });
    }
    return redirectWithToast(here, { type: "success", title: "You left the waitlist" });
  }
  return delegationAction(formData, slug, account, request, here);
}

async function bookingAction(formData: FormData, slug: string, user: Account, request: Request) {
  const account = { id: user.id, name: user.name, email: user.email };
  const here = `/events/${encodeURIComponent(slug)}/register`;
  if (formData.get("intent") === "book") {
    return delegationAction(formData, slug, account, request, here);
  }

  const submission = parseWithZod(formData, { schema: RegistrationSchema });
  if (submission.status !== "success") {
    return data({ result: submission.reply(), message: null }, { status: 400 });
  }
  const target = await loadBookingTarget(slug);
  const values = submission.value;
  const feeId = values.ticket === FREE_TICKET ? null : values.ticket;
  try {
    if (values.intent === "waitlist") {
      const { position } = await joinWaitlist({
        eventId: target.eventId,
        feeId,
        quantity: values.quantity,
        account,
        name: values.attendeeName,
        email: values.attendeeEmail,
        request,
      });
      return redirectWithToast(here, {
        type: "success",
        title: "You're on the waitlist",
        description: `You are number ${position}. We will e-mail you when a seat is free.`,
      });
    }
    const result = await registerForEvent({
      eventId: target.eventId,
      feeId,
      quantity: values.quantity,
      account,
      attendee: { name: values.attendeeName, email: values.attendeeEmail },
      organisationName: values.organisationName,
      taxId: values.taxId,
      offerId: values.offerId,
      request,
    });
    if (result.state === "awaiting_payment" && result.orderId) {
      return redirectWithToast(`/orders/${result.orderId}`, {
        type: "success",
        title: "Seats held",
        description: `Invoice ${result.invoiceNumber} is on its way to ${user.email}. Your ticket follows once it is paid.`,
      });
    }
    return redirectWithToast(`/registrations/${result.registrationId}`, {
      type: "success",
      title: "You're registered",
      description: `Your ticket is on its way to ${values.attendeeEmail}.`,
    });
  } catch (error) {
    if (!(error instanceof RegistrationError)) throw error;
    const field = error.field === "feeId" ? "ticket" : error.field === "form" ? null : error.field; // quantity, attendeeEmail: the form's own names
    return data(
      {
        result: submission.reply(
          field ? { fieldErrors: { [field]: [error.message] } } : { formErrors: [error.message] },
        ),
        message: null,
      },
      { status: error.status === 404 ? 404 : 400 },
    );
  }
}

/** The seats, quantities and invoice fields as posted (nothing typed is lost on a refusal). */
function readDelegation(formData: FormData, tickets: string[]) {
  const text = (name: string) => {
    const value = formData.get(name);
    return typeof value === "string" ? value : "";
  };
  const seats: DelegationSeat[] = [];
  for (let i = 0; i <= MAX_DELEGATION_SEATS && formData.has(seatField(i, "ticket")); i++) {
    seats.push({
      ticket: text(seatField(i, "ticket")),
      name: text(seatField(i, "name")),
      email: text(seatField(i, "email")),
    });
  }
  const quantities: Record<string, number> = {};
  for (const ticket of tickets) {
    const raw = formData.get(quantityField(ticket));
    const n = typeof raw === "string" ? Number.parseInt(raw, 10) : 0;
    quantities[ticket] = Number.isFinite(n) && n > 0 ? Math.min(n, 1000) : 0;
  }
  return {
    seats,
    quantities,
    organisationName: text("organisationName"),
    taxId: text("taxId"),
  };
}

/** The seats each ticket's quantity asks for, keeping what was typed for each ticket's seats. */
function seatsFor(quantities: Record<string, number>, tickets: string[], typed: DelegationSeat[]) {
  return tickets.flatMap((ticket) => {
    const mine = typed.filter((s) => s.ticket === ticket);
    return Array.from(
      { length: Math.min(quantities[ticket] ?? 0, MAX_DELEGATION_SEATS) },
      (_, n) => mine[n] ?? { ticket, name: "", email: "" },
    );
  });
}

/**
 * A delegation order: "seats" redraws the seat rows for the quantities (the form without
 * JavaScript); "book" validates every seat and books them all (the server counts and prices the
 * seats itself: the quantities typed and the total shown are never trusted).
 */
async function delegationAction(
  formData: FormData,
  slug: string,
  account: { id: string; name: string; email: string },
  request: Request,
  here: string,
) {
  const target = await loadBookingTarget(slug);
  const ticketValues = target.feeIds.map((feeId) => feeId ?? FREE_TICKET);
  const posted = readDelegation(formData, ticketValues);
  const answer = (state: Omit<DelegationState, "quantities">, status: number) => {
    const quantities: Record<string, number> = {};
    for (const seat of state.seats) quantities[seat.ticket] = (quantities[seat.ticket] ?? 0) + 1;
    return data(
      {
        result: null,
        message: null,
        delegation: { ...state, quantities, answeredAt: Date.now() },
      },
      { status },
    );
  };
  const invoice = { organisationName: posted.organisationName, taxId: posted.taxId };
  const rowsForQuantities = seatsFor(posted.quantities, ticketValues, posted.seats);
  if (formData.get("intent") === "seats") {
    return answer({ seats: rowsForQuantities, ...invoice }, 200);
  }
  // Quantities changed without the rows being redrawn (no JavaScript): show the rows to fill in.
  const sameSeats =
    rowsForQuantities.length === posted.seats.length &&
    rowsForQuantities.every((s, i) => s.ticket === posted.seats[i].ticket);
  if (!sameSeats) {
    return answer(
      {
        seats: rowsForQuantities,
        ...invoice,
        formErrors: ["The seats changed: enter a name and e-mail for each seat, then register."],
      },
      400,
    );
  }
  if (posted.seats.length === 0) {
    return answer({ seats: [], ...invoice, formErrors: ["Choose at least one seat."] }, 400);
  }
  const errors: Record<string, string[]> = {};
  const seats = posted.seats.map((seat, i) => {
    const parsed = SeatSchema.safeParse(seat);
    if (parsed.success) return parsed.data;
    for (const issue of parsed.error.issues) {
      const name = seatField(i, String(issue.path[0]) as "ticket" | "name" | "email");
      errors[name] = [...(errors[name] ?? []), issue.message];
    }
    return null;
  });
  const parsedInvoice = DelegationInvoiceSchema.safeParse({
    organisationName: posted.organisationName || undefined,
    taxId: posted.taxId || undefined,
  });
  if (!parsedInvoice.success) {
    for (const issue of parsedInvoice.error.issues) {
      const name = String(issue.path[0]);
      errors[name] = [...(errors[name] ?? []), issue.message];
    }
  }
  if (Object.keys(errors).length > 0 || !parsedInvoice.success) {
    return answer({ seats: posted.seats, ...invoice, errors }, 400);
  }
  try {
    const result = await bookSeats({
      eventId: target.eventId,
      account,
      seats: seats.map((seat) => {
        const s = seat as DelegationSeat;
        return { feeId: s.ticket === FREE_TICKET ? null : s.ticket, name: s.name, email: s.email };
      }),
      organisationName: parsedInvoice.data.organisationName,
      taxId: parsedInvoice.data.taxId,
      request,
    });
    const count = result.registrationIds.length;
    if (result.state === "awaiting_payment" && result.orderId) {
      return redirectWithToast(`/orders/${result.orderId}`, {
        type: "success",
        title: count === 1 ? "Seat held" : `${count} seats held`,
        description: `Invoice ${result.invoiceNumber} is on its way to ${account.email}. Each attendee's ticket follows once it is paid.`,
      });
    }
    if (count === 1) {
      return redirectWithToast(`/registrations/${result.registrationIds[0]}`, {
        type: "success",
        title: "You're registered",
        description: `Your ticket is on its way to ${seats[0]?.email}.`,
      });
    }
    return redirectWithToast(here, {
      type: "success",
      title: `${count} seats registered`,
      description: "Each attendee's ticket is on its way to their e-mail address.",
    });
  } catch (error) {
    if (!(error instanceof RegistrationError)) throw error;
    return answer(
      { seats: posted.seats, ...invoice, formErrors: [error.message] },
      error.status === 404 ? 404 : 400,
    );
  }
}

export default function Register({ loaderData, actionData }: Route.ComponentProps) {
  const { event, closedReason, registrations, waitlist, offer } = loaderData;
  const delegation = actionData && "delegation" in actionData ? actionData.delegation : null;
  const queue = actionData && "queue" in actionData ? actionData.queue : null;
  const eventPath = `/events/${encodeURIComponent(event.slug)}`;
  return (
    <main id="main" className="mx-auto grid w-full max-w-2xl gap-6 px-4 py-10">
      <Link
        to={eventPath}
        className="inline-flex items-center gap-1 text-sm font-medium text-primary-700 hover:underline"
      >
        <ArrowLeft aria-hidden className="size-4" />
        Back to event
      </Link>
      <div className="grid gap-1">
        {loaderData.past ? <PastEventBadge /> : null}
        <h1 className="text-3xl font-semibold">Register for {event.title}</h1>
        <p className="text-muted-foreground">
          {event.dateLabel} · {event.timeLabel} · {event.location}
        </p>
      </div>
      {actionData?.message ? (
        <Alert variant="destructive">
          <AlertDescription>{actionData.message}</AlertDescription>
        </Alert>
      ) : null}
      {queue ? (
        <WaitingRoom eventTitle={event.title} state={queue} />
      ) : closedReason ? (
        <Card className="grid gap-3 p-6">
          <p>{closedReason}</p>
          <Link to="/events" className={buttonVariants({ variant: "outline" })}>
            Browse upcoming events
          </Link>
        </Card>
      ) : waitlist ? (
        <Card className="grid gap-3 p-6">
          <h2 className="text-xl font-semibold">You are on the waitlist</h2>
          <p>
            You are number {waitlist.position} on the waitlist for {waitlist.ticketLabel}. We will
            e-mail you as soon as a seat is free; it is then held for you for 24 hours.
          </p>
          <Form method="post">
            <input type="hidden" name="entryId" value={waitlist.id} />
            <Button type="submit" name="intent" value="leave-waitlist" variant="outline">
              Leave Waitlist
            </Button>
          </Form>
        </Card>
      ) : (
        <>
          {registrations.length > 0 ? (
            <Card className="grid gap-3 p-6">
              <h2 className="text-xl font-semibold">Your registrations for this event</h2>
              <ul className="grid gap-2 text-sm">
                {registrations.map((r) => (
                  <li key={r.id}>
                    <Link
                      to={`/registrations/${r.id}`}
                      className="text-primary-700 underline underline-offset-2"
                    >
                      {r.attendeeName}: {r.ticketLabel} × {r.quantity}
                    </Link>{" "}
                    ({r.state === "confirmed" ? "confirmed" : "awaiting payment"})
                  </li>
                ))}
              </ul>
              <p className="text-sm text-muted-foreground">
                You can register another attendee below.
              </p>
            </Card>
          ) : null}
          {offer ? (
            <Alert>
              <AlertDescription>
                {offer.quantity === 1 ? "A seat" : `${offer.quantity} seats`} of {offer.ticketLabel}{" "}
                {offer.quantity === 1 ? "is" : "are"} held for you until {offer.expiresLabel}.
                Register below to claim {offer.quantity === 1 ? "it" : "them"}.
              </AlertDescription>
            </Alert>
          ) : null}
          <Card className="p-6">
            {offer ||
            loaderData.waitlistTicket ||
            (actionData?.result && !delegation) ||
            // Nothing left to book: the page is the waitlist's (the one-ticket form offers it).
            !loaderData.delegationTickets.some((t) => t.onSale && t.remaining !== 0) ? (
              <RegistrationForm
                tickets={loaderData.tickets}
                attendee={loaderData.attendee}
                offer={offer && { id: offer.id, ticket: offer.ticket, quantity: offer.quantity }}
                preselect={loaderData.waitlistTicket}
                lastResult={actionData?.result ?? undefined}
              />
            ) : (
              <DelegationForm
                key={delegation?.answeredAt ?? "start"}
                tickets={loaderData.delegationTickets}
                buyer={loaderData.attendee}
                state={delegation ?? initialDelegation(loaderData.delegationTickets)}
                waitlistHref={(ticket) => `?waitlist=${encodeURIComponent(ticket)}`}
              />
            )}
          </Card>
        </>
      )}
    </main>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}

/** The delegation form's start: one seat of the first ticket on sale, for the buyer. */
function initialDelegation(tickets: DelegationTicket[]): DelegationState {
  const first = tickets.find((t) => t.onSale && t.remaining !== 0);
  return { quantities: first ? { [first.value]: 1 } : {}, seats: [] };
}
