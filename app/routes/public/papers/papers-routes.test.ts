import { beforeAll, describe, expect, it } from "vitest";
import { papers } from "~/db/schema";
import { PRIVATE_CACHE_CONTROL, PUBLIC_CACHE_CONTROL } from "~/lib/site-content";
import { useTestDatabase } from "../../../../tests/helpers/db";
import { routeVisitor } from "../../../../tests/helpers/session";
import { loader as detailLoader, meta as detailMeta, headers as paperPageHeaders } from "./detail";
import { loader as listLoader } from "./index";

// Who the next requests come from: a real session cookie of that role, or none.
const session = routeVisitor();

const ORIGIN = "http://localhost:3000";

type DataResult = { data: Record<string, unknown>; init: ResponseInit | null };

/** Runs a loader; returns its data() result, or the Response / data() it threw. */
async function run(loader: unknown, path: string, params: Record<string, string> = {}) {
  const request = new Request(`${ORIGIN}${path}`, { headers: await session.headers() });
  try {
    const result = await (loader as (args: unknown) => Promise<unknown>)({
      request,
      params,
      context: {},
    });
    return { ok: result as DataResult };
  } catch (thrown) {
    return { thrown: thrown as Response | DataResult };
  }
}

describe("paper pages (database)", () => {
  const test = useTestDatabase();
  let publishedId = "";

  beforeAll(async () => {
    const rows = await test.db
      .insert(papers)
      .values([
        {
          slug: "open-governance",
          title: "Open Governance Paper",
          authors: ["Wanjiku Kamau", "Joseph Mwangi"],
          abstract: "A published abstract about governance.",
          tags: ["governance", "records"],
          category: "Data Governance",
          status: "published",
          publishedDate: "2024-03-05",
          pdfUrl: "/uploads/papers/abc-def.pdf",
          createdAt: new Date("2024-03-05T09:00:00Z"),
        },
        {
          slug: "hidden-governance-draft",
          title: "Hidden Governance Draft Title",
          authors: ["Draft Writer"],
          abstract: "HIDDEN DRAFT ABSTRACT",
          tags: ["governance"],
          category: "Data Governance",
          status: "draft",
          createdAt: new Date("2024-04-05T09:00:00Z"),
        },
      ])
      .returning({ id: papers.id });
    publishedId = rows[0].id;
  });

  describe("/papers", () => {
    it("sends the public no draft title or abstract, only counts", async () => {
      session.as("anonymous");
      const { ok } = await run(listLoader, "/papers?search=governance");
      const json = JSON.stringify(ok?.data);
      expect(json).toContain("Open Governance Paper");
      expect(json).not.toContain("Hidden Governance Draft Title");
      expect(json).not.toContain("HIDDEN DRAFT ABSTRACT");
      expect(ok?.data.counts).toEqual({ total: 2, published: 1, inProgress: 1 });
      expect(new Headers(ok?.init?.headers).get("Cache-Control")).toBe(PUBLIC_CACHE_CONTROL);
      expect(new Headers(ok?.init?.headers).get("Vary")).toBe("Cookie");
    });

    it("shows editors the drafts, privately", async () => {
      session.as("editor");
      const { ok } = await run(listLoader, "/papers?status=draft");
      expect(JSON.stringify(ok?.data)).toContain("Hidden Governance Draft Title");
      expect(new Headers(ok?.init?.headers).get("Cache-Control")).toBe(PRIVATE_CACHE_CONTROL);
      session.as("user");
      const member = await run(listLoader, "/papers?status=draft");
      expect(JSON.stringify(member.ok?.data)).not.toContain("Hidden Governance Draft Title");
      session.as("anonymous");
    });

    it("redirects to the canonical URL (defaults omitted, page within range)", async () => {
      const form = await run(listLoader, "/papers?search=&status=all&sort=title");
      expect((form.thrown as Response).headers.get("Location")).toBe("/papers?sort=title");
      const far = await run(listLoader, "/papers?search=governance&page=9");
      expect((far.thrown as Response).headers.get("Location")).toBe("/papers?search=governance");
      const fine = await run(listLoader, "/papers?search=governance&sort=title&utm_source=x");
      expect(fine.ok).toBeDefined();
    });

    it("never lets a shared cache keep a response that sets a cookie", () => {
      const call = (parent: HeadersInit, loader: HeadersInit) =>
        new Headers(
          paperPageHeaders({
            parentHeaders: new Headers(parent),
            loaderHeaders: new Headers(loader),
            actionHeaders: new Headers(),
          }),
        ).get("Cache-Control");
      expect(call({}, { "Cache-Control": PUBLIC_CACHE_CONTROL })).toBe(PUBLIC_CACHE_CONTROL);
      expect(
        call({ "Set-Cookie": "toast=; Max-Age=0" }, { "Cache-Control": PUBLIC_CACHE_CONTROL }),
      ).toBe(PRIVATE_CACHE_CONTROL);
    });
  });

  describe("/papers/:slug", () => {
    it("answers 404 for an unknown paper and for a draft seen by the public", async () => {
      session.as("anonymous");
      for (const slug of ["no-such-paper", "hidden-governance-draft"]) {
        const { thrown } = await run(detailLoader, `/papers/${slug}`, { slug });
        expect((thrown as DataResult).init?.status).toBe(404);
      }
      session.as("admin");
      const { ok } = await run(detailLoader, "/papers/hidden-governance-draft", {
        slug: "hidden-governance-draft",
      });
      expect(ok?.data.paper).toMatchObject({ status: "draft" });
      session.as("anonymous");
    });

    it("moves /papers/<id> permanently to the slug", async () => {
      const { thrown } = await run(detailLoader, `/papers/${publishedId}`, { slug: publishedId });
      expect((thrown as Response).status).toBe(301);
      expect((thrown as Response).headers.get("Location")).toBe("/papers/open-governance");
    });

    it("gives the public no similar draft and no storage URL", async () => {
      const { ok } = await run(detailLoader, "/papers/open-governance", {
        slug: "open-governance",
      });
      const json = JSON.stringify(ok?.data);
      expect(json).not.toContain("Hidden Governance Draft Title");
      expect(json).not.toContain("/uploads/");
      expect(ok?.data.citation).toBe(
        "Wanjiku Kamau, Joseph Mwangi (2024). Open Governance Paper. Kongamano.",
      );
    });

    it("describes the paper for Google Scholar, schema.org and OpenGraph", async () => {
      const { ok } = await run(detailLoader, "/papers/open-governance", {
        slug: "open-governance",
      });
      const tags = detailMeta({ data: ok?.data, error: undefined } as never) as Array<
        Record<string, unknown>
      >;
      const named = (name: string) => tags.filter((t) => t.name === name).map((t) => t.content);
      expect(named("citation_title")).toEqual(["Open Governance Paper"]);
      expect(named("citation_author")).toEqual(["Wanjiku Kamau", "Joseph Mwangi"]);
      expect(named("citation_publication_date")).toEqual(["2024/03/05"]);
      expect(named("citation_pdf_url")).toEqual([`${ORIGIN}/papers/open-governance/pdf`]);
      expect(tags.find((t) => t.property === "og:type")?.content).toBe("article");
      const ld = tags.find((t) => "script:ld+json" in t)?.["script:ld+json"] as Record<
        string,
        unknown
      >;
      expect(ld["@type"]).toBe("ScholarlyArticle");
      expect(ld.author).toEqual([
        { "@type": "Person", name: "Wanjiku Kamau" },
        { "@type": "Person", name: "Joseph Mwangi" },
      ]);
      expect(ld.datePublished).toBe("2024-03-05");
      expect(JSON.parse(JSON.stringify(ld))).toEqual(ld);
    });
  });
});
