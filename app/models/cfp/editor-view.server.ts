// Small reads the editor's submission page needs beside getSubmissionForEditor (issue 32): the
// event a call feeds (its zone, for agenda times) and the library paper a submission became.
import { eq } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import { events, papers } from "~/db/schema";

export async function getFedEvent(eventId: string | null) {
  if (!eventId) return null;
  const [row] = await getDb()
    .select({ id: events.id, title: events.title, slug: events.slug, timeZone: events.timeZone })
    .from(events)
    .where(eq(events.id, eventId));
  return row ?? null;
}

export async function getPublishedPaperSlug(paperId: string | null) {
  if (!paperId) return null;
  const [row] = await getDb()
    .select({ slug: papers.slug })
    .from(papers)
    .where(eq(papers.id, paperId));
  return row?.slug ?? null;
}
