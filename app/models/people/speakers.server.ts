import { asc, count, eq } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import { speakers } from "~/db/schema";
import type { PersonActor } from "~/lib/lifecycle.server";
import {
  afterMutation,
  clampPage,
  containsPattern,
  ilikeAny,
  isUuid,
  PAGE_SIZE,
  releaseUpload,
} from "../shared/entity-support.server";

/** Speakers in the back office (spec §2.15 'Speakers list', §3 Speaker). */
export type SpeakerInput = {
  name: string;
  title: string | null;
  organization: string | null;
  bio: string | null;
  imageUrl: string | null;
};

const columns = {
  id: speakers.id,
  name: speakers.name,
  title: speakers.title,
  organization: speakers.organization,
  bio: speakers.bio,
  imageUrl: speakers.imageUrl,
};

/** By name; `search` matches name, organisation or title (spec §2.15). */
export async function listAdminSpeakers({
  search,
  page = 1,
  pageSize = PAGE_SIZE,
}: {
  search?: string | null;
  page?: number;
  pageSize?: number;
}) {
  const pattern = containsPattern(search);
  const where = pattern
    ? ilikeAny(pattern, speakers.name, speakers.organization, speakers.title)
    : undefined;
  const db = getDb();
  const [counted] = await db.select({ n: count() }).from(speakers).where(where);
  const total = counted?.n ?? 0;
  const current = clampPage(page, total, pageSize);
  const rows = await db
    .select(columns)
    .from(speakers)
    .where(where)
    .orderBy(asc(speakers.name), asc(speakers.id))
    .limit(pageSize)
    .offset((current - 1) * pageSize);
  return { speakers: rows, total, page: current, pageSize };
}

export async function getSpeaker(id: string) {
  if (!isUuid(id)) return null;
  const [row] = await getDb().select(columns).from(speakers).where(eq(speakers.id, id)).limit(1);
  return row ?? null;
}

export async function createSpeaker(input: SpeakerInput, ctx: PersonActor) {
  const [row] = await getDb()
    .insert(speakers)
    .values(input)
    .returning({ id: speakers.id, name: speakers.name });
  await afterMutation(ctx, {
    action: "speaker.create",
    entity: "speaker",
    entityId: row.id,
    details: { name: row.name },
  });
  return row;
}

export async function updateSpeaker(id: string, input: SpeakerInput, ctx: PersonActor) {
  const before = await getSpeaker(id);
  if (!before) return null;
  const [row] = await getDb()
    .update(speakers)
    .set(input)
    .where(eq(speakers.id, id))
    .returning({ id: speakers.id, name: speakers.name });
  if (!row) return null;
  if (before.imageUrl !== input.imageUrl) {
    await releaseUpload(before.imageUrl, speakers, speakers.imageUrl);
  }
  await afterMutation(ctx, {
    action: "speaker.update",
    entity: "speaker",
    entityId: row.id,
    details: { name: row.name },
  });
  return row;
}

/** Deletes a speaker (their links to events go with them). */
export async function deleteSpeaker(id: string, ctx: PersonActor) {
  if (!isUuid(id)) return null;
  const [row] = await getDb()
    .delete(speakers)
    .where(eq(speakers.id, id))
    .returning({ id: speakers.id, name: speakers.name, imageUrl: speakers.imageUrl });
  if (!row) return null;
  await releaseUpload(row.imageUrl, speakers, speakers.imageUrl);
  await afterMutation(ctx, {
    action: "speaker.delete",
    entity: "speaker",
    entityId: row.id,
    details: { name: row.name },
  });
  return row;
}
