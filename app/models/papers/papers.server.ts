import { and, count, desc, eq, like, or, sql } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import { newestFirst } from "~/db/order";
import { papers } from "~/db/schema";
import type { PAPER_STATUSES } from "~/lib/constants";
import { dbErrorCode } from "~/lib/db-errors";
import { dayInZone, slugify } from "~/lib/format";
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

/** Research papers in the back office (spec §2.15 'Papers list', §3 Paper). */
export type PaperStatus = (typeof PAPER_STATUSES)[number];

export type PaperInput = {
  title: string;
  authors: string[];
  abstract: string | null;
  category: string | null;
  tags: string[] | null;
  status: PaperStatus;
  /** yyyy-mm-dd */
  publishedDate: string | null;
  pdfUrl: string | null;
};

const listColumns = {
  id: papers.id,
  title: papers.title,
  slug: papers.slug,
  authors: papers.authors,
  category: papers.category,
  status: papers.status,
  publishedDate: papers.publishedDate,
  pdfUrl: papers.pdfUrl,
  createdAt: papers.createdAt,
};

export type AdminPaperListItem = {
  id: string;
  title: string;
  slug: string;
  authors: string[];
  category: string | null;
  status: PaperStatus;
  publishedDate: string | null;
  pdfUrl: string | null;
  createdAt: Date;
};

/** Newest first; `search` matches title, authors or category; `status` narrows (spec §2.15). */
export async function listAdminPapers({
  search,
  status,
  page = 1,
  pageSize = PAGE_SIZE,
}: {
  search?: string | null;
  status?: PaperStatus | null;
  page?: number;
  pageSize?: number;
}) {
  const pattern = containsPattern(search);
  const where = and(
    status ? eq(papers.status, status) : undefined,
    pattern
      ? ilikeAny(
          pattern,
          papers.title,
          sql`array_to_string(${papers.authors}, ', ')`,
          papers.category,
        )
      : undefined,
  );
  const db = getDb();
  const [counted] = await db.select({ n: count() }).from(papers).where(where);
  const total = counted?.n ?? 0;
  const current = clampPage(page, total, pageSize);
  const rows = await db
    .select(listColumns)
    .from(papers)
    .where(where)
    .orderBy(newestFirst(papers.createdAt), desc(papers.id))
    .limit(pageSize)
    .offset((current - 1) * pageSize);
  return { papers: rows as AdminPaperListItem[], total, page: current, pageSize };
}

export async function getPaper(id: string) {
  if (!isUuid(id)) return null;
  const [row] = await getDb()
    .select({
      ...listColumns,
      abstract: papers.abstract,
      tags: papers.tags,
    })
    .from(papers)
    .where(eq(papers.id, id))
    .limit(1);
  return row ?? null;
}

/** A slug from the title that no other paper uses: `title`, `title-2`, `title-3`, ... */
export async function uniquePaperSlug(title: string) {
  const base = slugify(title);
  const taken = new Set(
    (
      await getDb()
        .select({ slug: papers.slug })
        .from(papers)
        .where(or(eq(papers.slug, base), like(papers.slug, `${base.replace(/[\\%_]/g, "\\$&")}-%`)))
    ).map((r) => r.slug),
  );
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) {
    if (!taken.has(`${base}-${n}`)) return `${base}-${n}`;
  }
}

function values(input: PaperInput) {
  return {
    title: input.title.trim(),
    authors: input.authors,
    abstract: input.abstract,
    category: input.category,
    tags: input.tags?.length ? input.tags : null,
    status: input.status,
    publishedDate:
      input.publishedDate ?? (input.status === "published" ? dayInZone(new Date()) : null),
    pdfUrl: input.pdfUrl,
  };
}

export async function createPaper(input: PaperInput, ctx: PersonActor) {
  let row: { id: string; title: string; slug: string } | undefined;
  // Two papers with the same title saved at once can race for a slug: try again with a fresh one.
  for (let attempt = 0; !row; attempt++) {
    try {
      [row] = await getDb()
        .insert(papers)
        .values({
          ...values(input),
          slug: await uniquePaperSlug(input.title),
          createdBy: ctx.id,
        })
        .returning({ id: papers.id, title: papers.title, slug: papers.slug });
    } catch (error) {
      if (dbErrorCode(error) !== "23505" || attempt >= 2) throw error;
    }
  }
  await afterMutation(ctx, {
    action: "paper.create",
    entity: "paper",
    entityId: row.id,
    details: { title: row.title, status: input.status },
  });
  return row;
}

/** Updates a paper (its slug stays, so shared links keep working); null when it does not exist. */
export async function updatePaper(id: string, input: PaperInput, ctx: PersonActor) {
  const before = await getPaper(id);
  if (!before) return null;
  const [row] = await getDb()
    .update(papers)
    .set(values(input))
    .where(eq(papers.id, id))
    .returning({ id: papers.id, title: papers.title, slug: papers.slug });
  if (!row) return null;
  if (before.pdfUrl !== input.pdfUrl) await releaseUpload(before.pdfUrl, papers, papers.pdfUrl);
  await afterMutation(ctx, {
    action: "paper.update",
    entity: "paper",
    entityId: row.id,
    details: { title: row.title, status: input.status },
  });
  return row;
}

export async function deletePaper(id: string, ctx: PersonActor) {
  if (!isUuid(id)) return null;
  const [row] = await getDb()
    .delete(papers)
    .where(eq(papers.id, id))
    .returning({ id: papers.id, title: papers.title, pdfUrl: papers.pdfUrl });
  if (!row) return null;
  await releaseUpload(row.pdfUrl, papers, papers.pdfUrl);
  await afterMutation(ctx, {
    action: "paper.delete",
    entity: "paper",
    entityId: row.id,
    details: { title: row.title },
  });
  return row;
}

/** The categories papers already use, for the form's suggestions. */
export async function listPaperCategories() {
  const rows = await getDb()
    .selectDistinct({ category: papers.category })
    .from(papers)
    .where(sql`${papers.category} is not null and ${papers.category} <> ''`)
    .orderBy(papers.category)
    .limit(200);
  return rows.map((r) => r.category as string);
}
