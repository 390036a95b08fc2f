// Calls for papers: every way a call can change, one exported function per change, each in one
// transaction with its audit row (style.md rule 11). A call is prepared (draft), opened to
// submissions, closed, and may be opened again (e.g. a deadline extended).
import { eq } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import {
  type BlindMode,
  type CallCriterion,
  type CallRow,
  type CallState,
  calls,
  events,
} from "~/db/schema";
import {
  type Actor,
  auditIn,
  defineMachine,
  type PersonActor,
  type Tx,
} from "~/lib/lifecycle.server";
import { hasRole } from "~/lib/roles";
import { CfpError } from "./cfp-error";

export const CALL_TRANSITIONS: Record<CallState, readonly CallState[]> = {
  draft: ["open"],
  open: ["closed"],
  closed: ["open"],
};

export const callMachine = defineMachine<CallState, CallRow>({
  entity: "call",
  noun: "call",
  table: calls,
  transitions: CALL_TRANSITIONS,
  error: (message, status) => new CfpError(message, status),
});

/** The criteria a new call offers (editors change them per call); each is scored 1–5. */
export const DEFAULT_CRITERIA: readonly CallCriterion[] = [
  { key: "relevance", label: "Relevance to practitioners" },
  { key: "originality", label: "Originality" },
  { key: "rigour", label: "Method and rigour" },
  { key: "clarity", label: "Clarity of writing" },
];

export const MAX_TRACKS = 20;
export const MAX_CRITERIA = 10;

export type CallInput = {
  title: string;
  description: string;
  tracks: string[];
  submissionDeadline: Date;
  reviewDeadline: Date;
  eventId: string | null;
  blindMode: BlindMode;
  /** Criterion labels in order (keys are made from them). */
  criteria: string[];
};

/** Editors and admins run calls; the routes check first, this is the model's own guard. */
export function assertEditor(actor: Actor): asserts actor is PersonActor {
  if (!("id" in actor) || !hasRole(actor.role, "editor")) {
    throw new CfpError("Only editors can do this.", 403);
  }
}

function criterionKey(label: string, taken: Set<string>) {
  const base =
    label
      .toLowerCase()
      .normalize("NFKD")
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-+|-+$/g, "")
      .slice(0, 40) || "criterion";
  let key = base;
  for (let n = 2; taken.has(key); n++) key = `${base}-${n}`;
  taken.add(key);
  return key;
}

function distinctTrimmed(values: string[]) {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const value of values) {
    const text = value.trim();
    if (text && !seen.has(text.toLowerCase())) {
      seen.add(text.toLowerCase());
      out.push(text);
    }
  }
  return out;
}

/** The row values of a call from the form's input, or the refusal of the first wrong field. */
async function callValues(tx: Tx, input: CallInput, existing?: CallRow) {
  const title = input.title.trim();
  if (!title) throw new CfpError("Title is required", 400, "title");
  const tracks = distinctTrimmed(input.tracks);
  if (tracks.length > MAX_TRACKS) {
    throw new CfpError(`At most ${MAX_TRACKS} tracks.`, 400, "tracks");
  }
  const labels = distinctTrimmed(input.criteria);
  if (labels.length === 0) {
    throw new CfpError("At least one review criterion is required", 400, "criteria");
  }
  if (labels.length > MAX_CRITERIA) {
    throw new CfpError(`At most ${MAX_CRITERIA} review criteria.`, 400, "criteria");
  }
  if (input.reviewDeadline.getTime() < input.submissionDeadline.getTime()) {
    throw new CfpError(
      "The review deadline must be after the submission deadline",
      400,
      "reviewDeadline",
    );
  }
  if (input.eventId) {
    const [event] = await tx
      .select({ id: events.id })
      .from(events)
      .where(eq(events.id, input.eventId));
    if (!event) throw new CfpError("Choose an event from the list", 400, "eventId");
  }
  // A criterion keeps its key when its label stays, so scores already given still match.
  const taken = new Set<string>();
  const previous = new Map((existing?.criteria ?? []).map((c) => [c.label.toLowerCase(), c.key]));
  const criteria = labels.map((label) => {
    const kept = previous.get(label.toLowerCase());
    if (kept && !taken.has(kept)) {
      taken.add(kept);
      return { key: kept, label };
    }
    return { key: criterionKey(label, taken), label };
  });
  return {
    title,
    description: input.description.trim(),
    tracks,
    submissionDeadline: input.submissionDeadline,
    reviewDeadline: input.reviewDeadline,
    eventId: input.eventId || null,
    blindMode: input.blindMode,
    criteria,
  };
}

/** Creates a call (a draft, or opened at once with `open`). */
export async function createCall(actor: Actor, input: CallInput, options: { open?: boolean } = {}) {
  assertEditor(actor);
  return getDb().transaction(async (tx) => {
    const [row] = await tx
      .insert(calls)
      .values({ ...(await callValues(tx, input)), createdBy: actor.id })
      .returning();
    await auditIn(tx, actor, "call.create", row.id, { title: row.title });
    if (!options.open) return row;
    return callMachine.move(tx, row, "open", actor, { set: { openedAt: new Date() } });
  });
}

/** Changes a call's fields (its state is changed by openCall / closeCall). */
export async function updateCall(actor: Actor, callId: string, input: CallInput) {
  assertEditor(actor);
  return getDb().transaction(async (tx) => {
    const call = await callMachine.lock(tx, callId);
    const values = await callValues(tx, input, call);
    const [row] = await tx.update(calls).set(values).where(eq(calls.id, callId)).returning();
    const changed = Object.keys(values).filter(
      (key) =>
        JSON.stringify(values[key as keyof typeof values]) !==
        JSON.stringify(call[key as keyof CallRow]),
    );
    await auditIn(tx, actor, "call.update", callId, { changed });
    return row;
  });
}

/** Opens a call to submissions (from a draft, or again after closing). */
export async function openCall(actor: Actor, callId: string) {
  assertEditor(actor);
  return getDb().transaction(async (tx) => {
    const call = await callMachine.lock(tx, callId);
    return callMachine.move(tx, call, "open", actor, {
      set: { openedAt: new Date(), closedAt: null },
    });
  });
}

/** Closes a call: no new submissions; those already in continue through review. */
export async function closeCall(actor: Actor, callId: string) {
  assertEditor(actor);
  return getDb().transaction(async (tx) => {
    const call = await callMachine.lock(tx, callId);
    return callMachine.move(tx, call, "closed", actor, { set: { closedAt: new Date() } });
  });
}

/** Whether a call takes new submissions at `now`: open, and its deadline not passed. */
export function acceptsSubmissions(
  call: Pick<CallRow, "state" | "submissionDeadline">,
  now: Date = new Date(),
) {
  return call.state === "open" && now.getTime() <= call.submissionDeadline.getTime();
}
