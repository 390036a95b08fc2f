import { and, asc, count, eq, sql } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import { sponsors } from "~/db/schema";
import type { SPONSOR_TIERS } from "~/lib/constants";
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

/** Sponsors in the back office (spec §2.15 'Sponsors list', §3 Sponsor). */
export type SponsorTier = (typeof SPONSOR_TIERS)[number];

export type SponsorInput = {
  name: string;
  tier: SponsorTier;
  websiteUrl: string | null;
  logoUrl: string | null;
};

const columns = {
  id: sponsors.id,
  name: sponsors.name,
  tier: sponsors.tier,
  websiteUrl: sponsors.websiteUrl,
  logoUrl: sponsors.logoUrl,
};

/** Platinum first, then gold, silver, bronze; by name within a tier. */
const tierRank = sql`array_position(array['platinum','gold','silver','bronze']::sponsor_tier[], ${sponsors.tier})`;

/** `search` matches the name; `tier` narrows (spec §2.15). */
export async function listAdminSponsors({
  search,
  tier,
  page = 1,
  pageSize = PAGE_SIZE,
}: {
  search?: string | null;
  tier?: SponsorTier | null;
  page?: number;
  pageSize?: number;
}) {
  const pattern = containsPattern(search);
  const where = and(
    tier ? eq(sponsors.tier, tier) : undefined,
    pattern ? ilikeAny(pattern, sponsors.name) : undefined,
  );
  const db = getDb();
  const [counted] = await db.select({ n: count() }).from(sponsors).where(where);
  const total = counted?.n ?? 0;
  const current = clampPage(page, total, pageSize);
  const rows = await db
    .select(columns)
    .from(sponsors)
    .where(where)
    .orderBy(tierRank, asc(sponsors.name), asc(sponsors.id))
    .limit(pageSize)
    .offset((current - 1) * pageSize);
  return { sponsors: rows, total, page: current, pageSize };
}

export async function getSponsor(id: string) {
  if (!isUuid(id)) return null;
  const [row] = await getDb().select(columns).from(sponsors).where(eq(sponsors.id, id)).limit(1);
  return row ?? null;
}

export async function createSponsor(input: SponsorInput, ctx: PersonActor) {
  const [row] = await getDb()
    .insert(sponsors)
    .values(input)
    .returning({ id: sponsors.id, name: sponsors.name });
  await afterMutation(ctx, {
    action: "sponsor.create",
    entity: "sponsor",
    entityId: row.id,
    details: { name: row.name, tier: input.tier },
  });
  return row;
}

export async function updateSponsor(id: string, input: SponsorInput, ctx: PersonActor) {
  const before = await getSponsor(id);
  if (!before) return null;
  const [row] = await getDb()
    .update(sponsors)
    .set(input)
    .where(eq(sponsors.id, id))
    .returning({ id: sponsors.id, name: sponsors.name });
  if (!row) return null;
  if (before.logoUrl !== input.logoUrl) {
    await releaseUpload(before.logoUrl, sponsors, sponsors.logoUrl);
  }
  await afterMutation(ctx, {
    action: "sponsor.update",
    entity: "sponsor",
    entityId: row.id,
    details: { name: row.name, tier: input.tier },
  });
  return row;
}

/** Deletes a sponsor (their links to events go with them). */
export async function deleteSponsor(id: string, ctx: PersonActor) {
  if (!isUuid(id)) return null;
  const [row] = await getDb()
    .delete(sponsors)
    .where(eq(sponsors.id, id))
    .returning({ id: sponsors.id, name: sponsors.name, logoUrl: sponsors.logoUrl });
  if (!row) return null;
  await releaseUpload(row.logoUrl, sponsors, sponsors.logoUrl);
  await afterMutation(ctx, {
    action: "sponsor.delete",
    entity: "sponsor",
    entityId: row.id,
    details: { name: row.name },
  });
  return row;
}
