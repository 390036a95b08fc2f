import { expect, it } from "vitest";
import { getStorage } from "~/lib/storage.server";
// Aliased: biome reads a `use…` call as a React hook; this is a vitest set-up helper.
import { useTestDatabase as withTestDatabase } from "../../../tests/helpers/db";
import { auditRowsFor, createActor } from "../shared/test-support";
import {
  createPaper,
  deletePaper,
  getPaper,
  listAdminPapers,
  type PaperInput,
  updatePaper,
} from "./papers.server";

const database = withTestDatabase();

const paper = (fields: Partial<PaperInput> = {}): PaperInput => ({
  title: "Metadata at Scale",
  authors: ["Ada Lovelace"],
  abstract: null,
  category: null,
  tags: null,
  status: "draft",
  publishedDate: null,
  pdfUrl: null,
  ...fields,
});

it("creates papers with unique slugs from the title and audits every change", async () => {
  const { ctx, id: actorId } = await createActor(database.db);
  const first = await createPaper(paper({ title: "Open Data in Africa" }), ctx);
  const second = await createPaper(paper({ title: "Open Data in Africa" }), ctx);
  const third = await createPaper(paper({ title: "Open data in Africa!" }), ctx);
  expect([first.slug, second.slug, third.slug]).toEqual([
    "open-data-in-africa",
    "open-data-in-africa-2",
    "open-data-in-africa-3",
  ]);

  await updatePaper(
    first.id,
    paper({
      title: "Open Data in East Africa",
      tags: ["open data", "policy"],
      status: "under_review",
    }),
    ctx,
  );
  const updated = await getPaper(first.id);
  expect(updated).toMatchObject({
    title: "Open Data in East Africa",
    slug: "open-data-in-africa", // kept, so shared links keep working
    tags: ["open data", "policy"],
    status: "under_review",
  });

  expect(await deletePaper(first.id, ctx)).toMatchObject({ id: first.id });
  expect(await getPaper(first.id)).toBeNull();
  const audit = await auditRowsFor(database.db, "paper", first.id);
  expect(audit.map((r) => r.action)).toEqual(["paper.create", "paper.update", "paper.delete"]);
  expect(audit[0]).toMatchObject({ actorId, details: { title: "Open Data in Africa" } });
});

it("stores an empty tag list as null and dates a paper published without a date", async () => {
  const { ctx } = await createActor(database.db);
  const created = await createPaper(paper({ title: "Dated", tags: [], status: "published" }), ctx);
  const row = await getPaper(created.id);
  expect(row?.tags).toBeNull();
  expect(row?.publishedDate).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  const kept = await createPaper(
    paper({ title: "Kept date", status: "published", publishedDate: "2021-03-04" }),
    ctx,
  );
  expect((await getPaper(kept.id))?.publishedDate).toBe("2021-03-04");
});

it("searches title, authors and category and filters by status, newest first", async () => {
  const { ctx } = await createActor(database.db);
  await createPaper(
    paper({ title: "Zebra Records", authors: ["Wangari Maathai"], status: "published" }),
    ctx,
  );
  await createPaper(
    paper({ title: "Quiet Archives", category: "Zoology Records", status: "draft" }),
    ctx,
  );
  await createPaper(paper({ title: "Loud Archives", status: "under_review" }), ctx);

  const byAuthor = await listAdminPapers({ search: "maathai" });
  expect(byAuthor.papers.map((p) => p.title)).toEqual(["Zebra Records"]);
  const byCategory = await listAdminPapers({ search: "zoology" });
  expect(byCategory.papers.map((p) => p.title)).toEqual(["Quiet Archives"]);
  const archives = await listAdminPapers({ search: "archives" });
  expect(archives.papers.map((p) => p.title)).toEqual(["Loud Archives", "Quiet Archives"]);
  const underReview = await listAdminPapers({ search: "archives", status: "under_review" });
  expect(underReview).toMatchObject({ total: 1, papers: [{ title: "Loud Archives" }] });
});

it("pages through the list", async () => {
  const { ctx } = await createActor(database.db);
  for (let i = 0; i < 5; i++) await createPaper(paper({ title: `Paged ${i}` }), ctx);
  const page2 = await listAdminPapers({ search: "paged", page: 2, pageSize: 2 });
  expect(page2.total).toBe(5);
  expect(page2.papers.map((p) => p.title)).toEqual(["Paged 2", "Paged 1"]);
});

it("removes a stored PDF once no paper points at it", async () => {
  const { ctx } = await createActor(database.db);
  const key = "pdfs/test-file.pdf";
  await getStorage().put(key, Buffer.from("%PDF-1.4\n"), "application/pdf");
  const created = await createPaper(paper({ title: "With PDF", pdfUrl: `/uploads/${key}` }), ctx);
  await updatePaper(
    created.id,
    paper({ title: "With PDF", pdfUrl: "https://example.org/x.pdf" }),
    ctx,
  );
  expect(await getStorage().stat(key)).toBeNull();
});

it("ignores malformed ids", async () => {
  const { ctx } = await createActor(database.db);
  expect(await getPaper("1")).toBeNull();
  expect(await updatePaper("1", paper(), ctx)).toBeNull();
  expect(await deletePaper("1", ctx)).toBeNull();
});
