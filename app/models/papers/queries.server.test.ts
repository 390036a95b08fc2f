import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { papers } from "~/db/schema";
import type { PaperFilters } from "~/models/papers/filters";
import { useTestDatabase } from "../../../tests/helpers/db";
import {
  countPapers,
  findVisiblePaper,
  likePattern,
  listPapers,
  listPapersForExport,
  listSimilarPapers,
  PAPERS_PAGE_SIZE,
  paperViewer,
  recordPaperDownload,
  recordPaperDownloads,
  SEARCH_COUNT_CAP,
  searchMatches,
} from "./queries.server";

describe("papers model (database)", () => {
  const test = useTestDatabase();
  const visitor = paperViewer(null);
  const member = paperViewer({ role: "user" });
  const editor = paperViewer({ role: "editor" });
  const admin = paperViewer({ role: "admin" });

  const filters = (over: Partial<PaperFilters> = {}): PaperFilters => ({
    search: "",
    status: "all",
    sort: "latest",
    page: 1,
    ...over,
  });

  const day = (n: number) => new Date(Date.UTC(2024, 0, 1 + n));

  type Row = typeof papers.$inferInsert;
  const row = (slug: string, over: Partial<Row>): Row => ({
    slug,
    title: slug,
    authors: ["Someone Else"],
    status: "published",
    ...over,
  });

  beforeAll(async () => {
    await test.db.insert(papers).values([
      row("alpha", {
        title: "Alpha: Records in Government",
        authors: ["Wanjiku Kamau", "Joseph Mwangi"],
        abstract: "Continuity of public records.",
        tags: ["records", "government", "africa"],
        category: "Records Management",
        publishedDate: "2024-02-01",
        createdAt: day(1),
      }),
      row("beta", {
        title: "Beta Study of Data Governance",
        authors: ["Priya Nair"],
        abstract: "Stewardship at 100% of banks.",
        tags: ["data governance", "banking"],
        category: "Data Governance",
        publishedDate: "2024-03-01",
        createdAt: day(3),
      }),
      row("gamma", {
        title: "Gamma Archives",
        authors: ["Lars Olsen"],
        abstract: "Digital preservation of archives; the SECRET_TOKEN is not here.",
        tags: ["records", "africa", "preservation"],
        category: "Records Management",
        createdAt: day(2),
      }),
      row("draft-delta", {
        title: "Delta Draft on Governance",
        authors: ["Draft Author"],
        abstract: "Unpublished governance findings.",
        tags: ["records", "government"],
        status: "draft",
        createdAt: day(5),
      }),
      row("review-epsilon", {
        title: "Epsilon Under Review",
        authors: ["Reviewer Person"],
        tags: ["records"],
        status: "under_review",
        createdAt: day(4),
      }),
    ]);
  });

  describe("visibility is decided in the query", () => {
    it("gives visitors and members only published papers, editors and admins every status", async () => {
      const slugs = async (viewer = visitor, f = filters()) =>
        (await listPapers(f, viewer)).papers.map((p) => p.slug);
      expect(await slugs(visitor)).toEqual(["beta", "gamma", "alpha"]);
      expect(await slugs(member)).toEqual(["beta", "gamma", "alpha"]);
      expect(await slugs(editor)).toEqual([
        "draft-delta",
        "review-epsilon",
        "beta",
        "gamma",
        "alpha",
      ]);
      expect(await slugs(admin)).toHaveLength(5);
      expect(await slugs(visitor, filters({ status: "draft" }))).toEqual([]);
      expect(await slugs(editor, filters({ status: "draft" }))).toEqual(["draft-delta"]);
      expect(await slugs(editor, filters({ status: "published" }))).toEqual([
        "beta",
        "gamma",
        "alpha",
      ]);
    });

    it("finds a single paper only when the viewer may see it, by slug or by id", async () => {
      expect(await findVisiblePaper("draft-delta", visitor)).toBeNull();
      expect(await findVisiblePaper("draft-delta", member)).toBeNull();
      expect((await findVisiblePaper("draft-delta", editor))?.status).toBe("draft");
      const [beta] = await test.db.select().from(papers).where(eq(papers.slug, "beta"));
      expect((await findVisiblePaper(beta.id, visitor))?.slug).toBe("beta");
      expect((await findVisiblePaper(beta.id.toUpperCase(), visitor))?.slug).toBe("beta");
      expect(await findVisiblePaper("no-such-paper", editor)).toBeNull();
    });

    it("never exports or suggests papers the viewer may not see", async () => {
      const exported = await listPapersForExport(filters({ search: "governance" }), visitor, 10);
      expect(exported.map((p) => p.slug)).toEqual(["beta"]);
      const alpha = (await findVisiblePaper("alpha", visitor))!;
      const similar = await listSimilarPapers(alpha, visitor);
      expect(similar.map((p) => p.slug)).not.toContain("draft-delta");
      expect(similar.map((p) => p.slug)).not.toContain("review-epsilon");
    });
  });

  describe("search", () => {
    const search = async (term: string, viewer = visitor) =>
      (await listPapers(filters({ search: term }), viewer)).papers.map((p) => p.slug).sort();

    it("matches title, authors, tags and abstract, case-insensitively", async () => {
      expect(await search("GAMMA")).toEqual(["gamma"]);
      expect(await search("priya")).toEqual(["beta"]);
      expect(await search("preservation")).toEqual(["gamma"]);
      expect(await search("continuity of public")).toEqual(["alpha"]);
      expect(await search("governance")).toEqual(["beta"]);
      expect(await search("governance", editor)).toEqual(["beta", "draft-delta"]);
    });

    it("matches one or two characters at the start of a word", async () => {
      expect(await search("ga")).toEqual(["gamma"]); // 'Gamma', not 'Beta Study of Data Governance'
      expect(await search("pr")).toEqual(["beta", "gamma"]); // Priya, preservation
      expect(await search("%")).toEqual(["beta"]); // not a word: a substring again
    });

    it("treats % and _ in the term literally", async () => {
      expect(likePattern("100%_x\\")).toBe("%100\\%\\_x\\\\%");
      expect(await search("100%")).toEqual(["beta"]);
      expect(await search("%")).toEqual(["beta"]);
      expect(await search("secret_token")).toEqual(["gamma"]);
      expect(await search("secret%token")).toEqual([]);
    });

    it("is answered from the trigram index", async () => {
      const plan = await test.db.transaction(async (tx) => {
        await tx.execute(sql`set local enable_seqscan = off`); // the table is tiny here
        const result = (await tx.execute(
          sql`explain select id from papers where ${searchMatches("governance")}`,
        )) as unknown as { rows: Array<{ "QUERY PLAN": string }> };
        return result.rows.map((r) => r["QUERY PLAN"]).join("\n");
      });
      expect(plan).toContain("papers_search_text_trgm_idx");
    });
  });

  describe("sort, pagination and counts", () => {
    it("sorts newest first ('Latest') or by title", async () => {
      const byTitle = await listPapers(filters({ sort: "title" }), visitor);
      expect(byTitle.papers.map((p) => p.title)).toEqual([
        "Alpha: Records in Government",
        "Beta Study of Data Governance",
        "Gamma Archives",
      ]);
    });

    it("pages the results and reports the total of the whole result set", async () => {
      const many = Array.from({ length: PAPERS_PAGE_SIZE + 3 }, (_, i) =>
        row(`page-${String(i).padStart(2, "0")}`, {
          title: `Pagination Paper ${String(i).padStart(2, "0")}`,
          tags: ["pagination"],
          createdAt: day(100 + i),
        }),
      );
      await test.db.insert(papers).values(many);
      try {
        const first = await listPapers(filters({ search: "pagination paper" }), visitor);
        const second = await listPapers(filters({ search: "pagination paper", page: 2 }), visitor);
        expect(first.total).toBe(PAPERS_PAGE_SIZE + 3);
        expect(first.pageCount).toBe(2);
        expect(first.papers).toHaveLength(PAPERS_PAGE_SIZE);
        expect(first.papers[0].slug).toBe(`page-${PAPERS_PAGE_SIZE + 2}`);
        expect(second.papers.map((p) => p.slug)).toEqual(["page-02", "page-01", "page-00"]);
      } finally {
        await test.db.delete(papers).where(sql`${papers.slug} like 'page-%'`);
      }
    });

    it("counts total, published and in progress (draft) in SQL", async () => {
      expect(await countPapers()).toEqual({ total: 5, published: 3, inProgress: 1 });
    });

    it("sends a card no more of the abstract than it shows and says whether there is a PDF", async () => {
      await test.db
        .insert(papers)
        .values(row("long", { abstract: "x".repeat(5000), pdfUrl: "/uploads/papers/a-b.pdf" }));
      try {
        const [card] = (await listPapers(filters({ search: "long" }), visitor)).papers;
        expect(card.abstract?.length).toBeLessThanOrEqual(320);
        expect(card.hasPdf).toBe(true);
        expect(card).not.toHaveProperty("pdfUrl");
      } finally {
        await test.db.delete(papers).where(eq(papers.slug, "long"));
      }
    });
  });

  describe("large result sets", () => {
    // 2,100 papers without the term come first by title ('Alpha …') and are the oldest; 1,010 with
    // it ('Zeta … zebra') come last by title and are the newest.
    const plain = 2_100;
    const striped = SEARCH_COUNT_CAP + 10;
    beforeAll(async () => {
      const rows = [
        ...Array.from({ length: plain }, (_, i) =>
          row(`bulk-alpha-${i}`, {
            title: `Alpha ${String(i).padStart(4, "0")}`,
            createdAt: day(1000 + i),
          }),
        ),
        ...Array.from({ length: striped }, (_, i) =>
          row(`bulk-zeta-${i}`, {
            title: `Zeta ${String(i).padStart(4, "0")} zebra`,
            createdAt: day(5000 + i),
          }),
        ),
      ];
      for (let i = 0; i < rows.length; i += 500) {
        await test.db.insert(papers).values(rows.slice(i, i + 500));
      }
    });
    afterAll(async () => {
      await test.db.delete(papers).where(sql`${papers.slug} like 'bulk-%'`);
    });

    it("counts matches up to the cap and says so", async () => {
      const list = await listPapers(filters({ search: "zebra" }), visitor);
      expect(list.capped).toBe(true);
      expect(list.total).toBe(SEARCH_COUNT_CAP + 1);
      expect(list.pageCount).toBe(Math.ceil(SEARCH_COUNT_CAP / PAPERS_PAGE_SIZE));
      const few = await listPapers(filters({ search: "zeta 000" }), visitor);
      expect(few).toMatchObject({ total: 10, capped: false, pageCount: 1 });
    });

    it("pages a common term in the right order, wherever it sits in the sort order", async () => {
      const expected = (sort: "title" | "latest") =>
        Array.from({ length: striped }, (_, i) => `bulk-zeta-${i}`).sort((a, b) =>
          sort === "title"
            ? Number(a.split("-")[2]) - Number(b.split("-")[2])
            : Number(b.split("-")[2]) - Number(a.split("-")[2]),
        );
      for (const sort of ["title", "latest"] as const) {
        for (const page of [1, 2, 40]) {
          const list = await listPapers(filters({ search: "zebra", sort, page }), visitor);
          const from = (page - 1) * PAPERS_PAGE_SIZE;
          expect(
            list.papers.map((p) => p.slug),
            `${sort} page ${page}`,
          ).toEqual(expected(sort).slice(from, from + PAPERS_PAGE_SIZE));
        }
      }
    });
  });

  describe("similar papers", () => {
    it("ranks papers by shared tags plus the same category, best matches first", async () => {
      const alpha = (await findVisiblePaper("alpha", editor))!;
      const similar = await listSimilarPapers(alpha, editor);
      // delta shares records+government (2); gamma shares records+africa (2) + category (1) = 3;
      // epsilon shares records (1); beta shares nothing.
      expect(similar.map((p) => [p.slug, p.score])).toEqual([
        ["gamma", 3],
        ["draft-delta", 2],
        ["review-epsilon", 1],
      ]);
      expect(similar[0].sharedTags.sort()).toEqual(["africa", "records"]);
    });

    it("is empty for a paper with no tags and no category", async () => {
      const [lonely] = await test.db
        .insert(papers)
        .values(row("lonely", {}))
        .returning({ id: papers.id });
      try {
        expect(
          await listSimilarPapers({ id: lonely.id, tags: null, category: null }, editor),
        ).toEqual([]);
      } finally {
        await test.db.delete(papers).where(eq(papers.id, lonely.id));
      }
    });
  });

  describe("download counting", () => {
    const countOf = async (slug: string) =>
      (await test.db.select().from(papers).where(eq(papers.slug, slug)))[0];

    it("adds exactly one per download, even when many arrive at once, without touching updated_at", async () => {
      const before = await countOf("gamma");
      await Promise.all(Array.from({ length: 25 }, () => recordPaperDownload(before.id)));
      const after = await countOf("gamma");
      expect(after.downloadCount).toBe(before.downloadCount + 25);
      expect(after.updatedAt).toEqual(before.updatedAt);
    });

    it("counts a bulk download once per paper", async () => {
      const alpha = await countOf("alpha");
      const beta = await countOf("beta");
      await recordPaperDownloads([alpha.id, beta.id]);
      await recordPaperDownloads([]);
      expect((await countOf("alpha")).downloadCount).toBe(alpha.downloadCount + 1);
      expect((await countOf("beta")).downloadCount).toBe(beta.downloadCount + 1);
    });
  });
});
