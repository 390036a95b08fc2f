import { parseWithZod } from "@conform-to/zod/v4";
import { data, Link, useActionData, useLoaderData } from "react-router";
import { CancelEventDialog, type CancelEventFailure } from "~/components/admin/cancel-event-dialog";
import { EventErrorBoundary } from "~/components/admin/event-error-boundary";
import { PageHeader } from "~/components/admin/page-header";
import { ExternalLink, UserCheck, Users } from "~/components/icons";
import { Badge } from "~/components/ui/badge";
import { buttonVariants } from "~/components/ui/button";
import { EVENT_TIME_ZONE, eventStatusBadgeVariant, statusLabel } from "~/lib/constants";
import { eventSaveErrorMessage, eventSaveErrorStatus, serverErrorMessage } from "~/lib/db-errors";
import type { PersonActor } from "~/lib/lifecycle.server";
import { logger } from "~/lib/logger.server";
import { requireRole } from "~/lib/permissions.server";
import { redirectWithToast } from "~/lib/toast.server";
import {
  cancelEvent,
  existingSpeakerAndSponsorIds,
  getEventForEdit,
  listEventFormOptions,
  updateEvent,
} from "~/models/events/events.server";
import {
  deleteEventFee,
  eventTimeZone,
  FeeError,
  replaceEventFees,
} from "~/models/events/fees.server";
import { liveRegistrationCount } from "~/models/registrations/admin-queries.server";
import type { Route } from "./+types/edit";
import { useEventEditorGuard } from "./editor-guard";
import { EventForm, type EventFormActionData } from "./event-form";
import { dateToZonedLocal, EventFormSchema, feesFormSchema } from "./event-schema";
import { type FeesActionData, FeesCard } from "./fees-card";

export const meta: Route.MetaFunction = ({ data }) => [
  { title: `${data?.event ? `Edit ${data.event.title}` : "Edit Event"} | Admin | Kongamano` },
  { name: "robots", content: "noindex" },
];

export async function loader({ request, params }: Route.LoaderArgs) {
  await requireRole(request, "editor");
  const [event, options] = await Promise.all([getEventForEdit(params.id), listEventFormOptions()]);
  if (!event) throw data("Event not found", { status: 404 });
  return {
    options,
    event: {
      id: event.id,
      title: event.title,
      slug: event.slug,
      status: event.status,
      cancelled: Boolean(event.cancelledAt),
      registered: await liveRegistrationCount(event.id),
    },
    defaultValue: {
      eventType: event.eventType ?? "conference",
      category: event.category ?? "none",
      industrySector: event.industrySector ?? "",
      tags: event.tags ?? [],
      title: event.title,
      description: event.description ?? "",
      location: event.location,
      startDate: dateToZonedLocal(event.startDate, event.timeZone),
      endDate: dateToZonedLocal(event.endDate, event.timeZone),
      timeZone: event.timeZone,
      theme: event.theme ?? "",
      imageUrl: event.imageUrl ?? "",
      status: event.status,
      featured: event.featured,
      capacity: event.capacity ?? undefined,
      joinUrl: event.joinUrl ?? undefined,
      speakerIds: event.speakerIds,
      sponsorIds: event.sponsorIds,
      agenda: event.agenda.map((item) => ({
        startTime: dateToZonedLocal(item.startTime, event.timeZone),
        endTime: dateToZonedLocal(item.endTime, event.timeZone),
        title: item.title,
        description: item.description ?? "",
      })),
    },
    fees: event.fees.map((fee) => ({
      id: fee.id,
      feeType: fee.feeType,
      currency: fee.currency,
      amountMinor: fee.amountMinor,
      maxQuantity: fee.maxQuantity,
      maxPerOrder: fee.maxPerOrder,
      maxPerAccount: fee.maxPerAccount,
      admits: fee.admits,
      availableUntil: fee.availableUntil,
      saleStartsAt: fee.saleStartsAt ? dateToZonedLocal(fee.saleStartsAt, event.timeZone) : null,
      joinUrl: fee.joinUrl,
      description: fee.description,
    })),
    /** The saved zone the fees card's sale starts are typed in. */
    feesTimeZone: event.timeZone,
  };
}

async function feesAction(actor: PersonActor, eventId: string, formData: FormData) {
  const deleteId =
    formData.get("_form") === "delete-fee" ? formData.get("feeId") : formData.get("deleteFee");
  if (typeof deleteId === "string" && deleteId) {
    try {
      const removed = await deleteEventFee(actor, eventId, deleteId);
      if (!removed) {
        return data<FeesActionData>(
          {
            fees: {
              error: { title: "Error", description: "Fee not found. Please refresh the page." },
            },
          },
          { status: 404 },
        );
      }
      return data<FeesActionData>({
        fees: { message: "Fee removed successfully", removedId: deleteId },
      });
    } catch (error) {
      logger.error({ err: error }, "fee delete failed");
      return data<FeesActionData>(
        { fees: { error: { title: "Error", description: serverErrorMessage(error) } } },
        { status: 500 },
      );
    }
  }
  // Sale starts are read in the event's saved zone, as the card showed them.
  const timeZone = (await eventTimeZone(eventId)) ?? EVENT_TIME_ZONE;
  const submission = parseWithZod(formData, { schema: feesFormSchema(timeZone) });
  if (submission.status !== "success") {
    return data<FeesActionData>(
      { fees: { result: submission.reply() } },
      { status: submission.status === "error" ? 400 : 200 },
    );
  }
  try {
    await replaceEventFees(actor, eventId, submission.value.fees);
    return data<FeesActionData>({
      fees: {
        result: submission.reply({ resetForm: true }),
        message: "Event fees saved successfully",
      },
    });
  } catch (error) {
    const expected = error instanceof FeeError;
    if (!expected) logger.error({ err: error }, "fees save failed");
    return data<FeesActionData>(
      {
        fees: {
          result: submission.reply(),
          error: { title: "Error", description: serverErrorMessage(error) },
        },
      },
      { status: expected ? error.status : 500 },
    );
  }
}

export async function action({ request, params }: Route.ActionArgs) {
  const user = await requireRole(request, "editor");
  const formData = await request.formData();
  const form = formData.get("_form");
  if (form === "fees" || form === "delete-fee") {
    return feesAction({ id: user.id, role: user.role, request }, params.id, formData);
  }
  if (form === "cancel-event") {
    const cancelled = await cancelEvent({ id: user.id, role: user.role, request }, params.id);
    if (!cancelled) {
      return data<CancelEventFailure>(
        { cancelEvent: { error: "This event no longer exists. It may have been deleted." } },
        { status: 404 },
      );
    }
    return redirectWithToast(`/admin/events/${params.id}/edit`, {
      type: "success",
      title: cancelled.alreadyCancelled ? "Event already cancelled" : "Event cancelled",
      description: cancelled.alreadyCancelled
        ? `${cancelled.title} was cancelled before; nobody was e-mailed again.`
        : `${cancelled.title} is cancelled; everyone registered is being e-mailed.`,
    });
  }
  const submission = parseWithZod(formData, { schema: EventFormSchema });
  if (submission.status !== "success") {
    return data<EventFormActionData>(
      { result: submission.reply(), failure: null },
      { status: submission.status === "error" ? 400 : 200 },
    );
  }
  try {
    const links = await existingSpeakerAndSponsorIds(
      submission.value.speakerIds,
      submission.value.sponsorIds,
    );
    const updated = await updateEvent({ id: user.id, role: user.role, request }, params.id, {
      ...submission.value,
      ...links,
    });
    if (!updated) {
      return data<EventFormActionData>(
        {
          result: submission.reply(),
          failure: {
            title: "Failed to update event",
            message: "This event no longer exists. It may have been deleted.",
          },
        },
        { status: 404 },
      );
    }
  } catch (error) {
    const status = eventSaveErrorStatus(error);
    if (status === 500) logger.error({ err: error }, "event update failed");
    return data<EventFormActionData>(
      {
        result: submission.reply(),
        failure: { title: "Failed to update event", message: eventSaveErrorMessage(error) },
      },
      { status },
    );
  }
  return redirectWithToast("/admin/events", {
    type: "success",
    title: "Event updated successfully",
  });
}

export default function EditEvent() {
  const { event, options, defaultValue, fees, feesTimeZone } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const guard = useEventEditorGuard(fees);
  return (
    <div className="grid gap-6" onSubmitCapture={guard.onSubmitCapture}>
      {guard.dialogs}
      <PageHeader
        title="Edit Event"
        description={
          <span className="inline-flex flex-wrap items-center gap-2">
            {event.title}
            <Badge variant={eventStatusBadgeVariant(event.status)}>
              {statusLabel(event.status)}
            </Badge>
            {event.cancelled ? <Badge variant="destructive">Cancelled</Badge> : null}
          </span>
        }
        actions={
          <>
            <Link
              to={`/admin/events/${event.id}/registrations`}
              className={buttonVariants({ variant: "outline" })}
            >
              <Users aria-hidden />
              Registrations
            </Link>
            <Link
              to={`/admin/events/${event.id}/check-in`}
              className={buttonVariants({ variant: "outline" })}
            >
              <UserCheck aria-hidden />
              Check-in
            </Link>
            {event.status === "published" ? (
              <Link to={`/events/${event.slug}`} className={buttonVariants({ variant: "outline" })}>
                <ExternalLink aria-hidden />
                View on site
              </Link>
            ) : null}
            {event.cancelled ? null : (
              <CancelEventDialog title={event.title} registered={event.registered} />
            )}
          </>
        }
      />
      <EventForm
        mode="edit"
        options={options}
        defaultValue={defaultValue}
        actionData={
          actionData && "result" in actionData && "failure" in actionData ? actionData : undefined
        }
      />
      <FeesCard
        mode="edit"
        fees={fees}
        timeZone={feesTimeZone}
        documentActionData={actionData && "fees" in actionData ? actionData : undefined}
        onSaved={guard.onFeesSaved}
      />
    </div>
  );
}

export function ErrorBoundary() {
  return <EventErrorBoundary />;
}
