import type { Submission, SubmissionResult } from "@conform-to/zod/v4";
import { parseWithZod } from "@conform-to/zod/v4";
import { data } from "react-router";
import type { $ZodType, output } from "zod/v4/core";
import { dbErrorCode, eventSaveErrorMessage } from "~/lib/db-errors";
import type { PersonActor } from "~/lib/lifecycle.server";
import { logger } from "~/lib/logger.server";
import { requireRole } from "~/lib/permissions.server";
import type { Role } from "~/lib/roles";
import { redirectWithToast } from "~/lib/toast.server";
import { EntityError } from "./entity-support.server";

/**
 * The request side of the back-office entity screens (categories, types, papers, speakers,
 * sponsors, offices): role check first, form parsed with the screen's Zod schema, invalid input
 * answered 400 with the typed values, expected refusals and failures answered with a message
 * (toast + alert, spec §8), success redirected to the list with a toast.
 */

/** What an admin action answers besides a redirect: the form's state and/or a failure to show. */
export type EntityActionData = {
  result?: SubmissionResult<string[]>;
  error?: { title: string; description?: string };
};

const capitalise = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/**
 * The answer to a save that failed after validation: an EntityError becomes a message on its
 * field (409); anything else is logged and shown as `fallback` (spec §8 'Failed to create
 * paper. Please try again.'), or as the server's own message when `showServerMessage` is set
 * (spec §8: category and type saves show it). The typed values travel back in `result`.
 */
export function saveFailure(
  submission: Pick<Submission<unknown>, "reply">,
  error: unknown,
  options: { title: string; fallback: string; showServerMessage?: boolean; hideFields?: string[] },
) {
  const hideFields = options.hideFields;
  if (error instanceof EntityError) {
    return data<EntityActionData>(
      {
        result: submission.reply({
          ...(error.field ? { fieldErrors: { [error.field]: [error.message] } } : {}),
          formErrors: [error.message],
          hideFields,
        }),
        error: { title: options.title, description: error.message },
      },
      { status: 409 },
    );
  }
  logger.error({ err: error }, options.fallback);
  const description = options.showServerMessage ? eventSaveErrorMessage(error) : options.fallback;
  const code = dbErrorCode(error);
  return data<EntityActionData>(
    {
      result: submission.reply({ formErrors: [description], hideFields }),
      error: { title: options.title, description },
    },
    { status: code === "23505" || code === "23503" ? 409 : 500 },
  );
}

/** Action of a new (`id` undefined) or edit screen. */
export async function saveFromForm<Schema extends $ZodType, Saved extends { id: string }>(
  request: Request,
  options: {
    role: Role;
    schema: Schema;
    /** 'speaker', 'sponsor', ... as in the spec's messages. */
    noun: string;
    listUrl: string;
    id?: string;
    create: (value: output<Schema>, ctx: PersonActor) => Promise<Saved>;
    update: (id: string, value: output<Schema>, ctx: PersonActor) => Promise<Saved | null>;
    /** The saved item's name for the success toast. */
    label: (saved: Saved) => string;
    /** Category and type failures show the server's message (spec §8). */
    showServerMessage?: boolean;
  },
) {
  const user = await requireRole(request, options.role);
  const submission = parseWithZod(await request.formData(), { schema: options.schema });
  if (submission.status !== "success") {
    return data<EntityActionData>({ result: submission.reply() }, { status: 400 });
  }
  const verb = options.id ? "update" : "create";
  const ctx = { id: user.id, role: user.role, request };
  let saved: Saved | null;
  try {
    saved = options.id
      ? await options.update(options.id, submission.value, ctx)
      : await options.create(submission.value, ctx);
  } catch (error) {
    return saveFailure(submission, error, {
      title: options.showServerMessage ? `Failed to ${verb} ${options.noun}` : "Error",
      fallback: `Failed to ${verb} ${options.noun}. Please try again.`,
      showServerMessage: options.showServerMessage,
    });
  }
  if (!saved) throw data(null, { status: 404 });
  return redirectWithToast(options.listUrl, {
    type: "success",
    title: `${capitalise(options.noun)} ${verb}d successfully`,
    description: `${options.label(saved)} has been ${verb}d.`,
  });
}

/** The list URL with the search and filters the editor had (the dialog posts to `?index&...`). */
export function listUrlOf(request: Request, listUrl: string) {
  const url = new URL(request.url);
  url.searchParams.delete("index");
  const query = url.searchParams.toString();
  return query ? `${listUrl}?${query}` : listUrl;
}

/** Action of a list screen: `intent=delete` with the item's `id`, asked for in a dialog. */
export async function deleteFromList<Deleted>(
  request: Request,
  options: {
    role: Role;
    noun: string;
    listUrl: string;
    remove: (id: string, ctx: PersonActor) => Promise<Deleted | null>;
    label: (deleted: Deleted) => string;
  },
) {
  const user = await requireRole(request, options.role);
  const formData = await request.formData();
  if (formData.get("intent") !== "delete") {
    return data<EntityActionData>(
      { error: { title: "Error", description: "Unknown action." } },
      { status: 400 },
    );
  }
  let deleted: Deleted | null;
  try {
    deleted = await options.remove(String(formData.get("id") ?? ""), {
      id: user.id,
      role: user.role,
      request,
    });
  } catch (error) {
    logger.error({ err: error }, `${options.noun} delete failed`);
    return data<EntityActionData>(
      {
        error: {
          title: "Error",
          description: `Failed to delete ${options.noun}. Please try again.`,
        },
      },
      { status: 500 },
    );
  }
  if (!deleted) {
    return data<EntityActionData>(
      { error: { title: "Error", description: `This ${options.noun} no longer exists.` } },
      { status: 404 },
    );
  }
  return redirectWithToast(listUrlOf(request, options.listUrl), {
    type: "success",
    title: `${capitalise(options.noun)} deleted`,
    description: `${options.label(deleted)} has been successfully deleted.`,
  });
}
