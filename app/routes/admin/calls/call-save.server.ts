// The action of the new and edit call screens: editors only, the form parsed with its schema
// (400 with the typed values), the model's refusals under their field, success to the list.
import { parseWithZod } from "@conform-to/zod/v4";
import { data } from "react-router";
import { CallFormSchema, type CallFormValues } from "~/lib/forms/call-schema";
import { DomainError } from "~/lib/lifecycle.server";
import { requireRole } from "~/lib/permissions.server";
import { redirectWithToast } from "~/lib/toast.server";
import { createCall, updateCall } from "~/models/cfp/calls.server";
import { deadlineFromDay } from "~/models/cfp/deadlines";
import { ADMIN_CALLS_PATH } from "~/models/cfp/urls";
import type { EntityActionData } from "~/models/shared/entity-actions.server";

const FIELDS: Record<string, string> = { eventId: "eventId", reviewDeadline: "reviewDeadline" };

function callInput(value: CallFormValues) {
  return {
    title: value.title,
    description: value.description,
    tracks: value.tracks,
    criteria: value.criteria,
    submissionDeadline: deadlineFromDay(value.submissionDeadline),
    reviewDeadline: deadlineFromDay(value.reviewDeadline),
    eventId: value.eventId,
    blindMode: value.blindMode,
  };
}

export async function saveCall(request: Request, callId?: string) {
  const user = await requireRole(request, "editor");
  const submission = parseWithZod(await request.formData(), { schema: CallFormSchema });
  if (submission.status !== "success") {
    return data<EntityActionData>({ result: submission.reply() }, { status: 400 });
  }
  const actor = { id: user.id, role: user.role, request };
  try {
    const saved = callId
      ? await updateCall(actor, callId, callInput(submission.value))
      : await createCall(actor, callInput(submission.value));
    return redirectWithToast(ADMIN_CALLS_PATH, {
      type: "success",
      title: callId ? "Call updated successfully" : "Call created successfully",
      description: callId
        ? `${saved.title} has been updated.`
        : `${saved.title} has been created. Open it when it is ready for submissions.`,
    });
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    if (error.status === 404) throw data(null, { status: 404 });
    const field = error.field ? (FIELDS[error.field] ?? error.field) : undefined;
    return data<EntityActionData>(
      {
        result: submission.reply({
          ...(field ? { fieldErrors: { [field]: [error.message] } } : {}),
          formErrors: [error.message],
        }),
        error: { title: "Error", description: error.message },
      },
      { status: error.status },
    );
  }
}
