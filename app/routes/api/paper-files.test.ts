import { Cite } from "@citation-js/core";
import "@citation-js/plugin-bibtex";
import "@citation-js/plugin-ris";
import AdmZip from "adm-zip";
import { eq, sql } from "drizzle-orm";
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { beforeAll, describe, expect, it } from "vitest";
import { papers } from "~/db/schema";
import { getStorage, publicUrl, randomKey } from "~/lib/storage.server";
import { BULK_DOWNLOAD_LIMIT } from "~/models/papers/queries.server";
import { useTestDatabase } from "../../../tests/helpers/db";
import { routeVisitor } from "../../../tests/helpers/session";
import { loader as bibtexLoader } from "./paper-bibtex";
import { parseRange, loader as pdfLoader } from "./paper-pdf";
import { loader as risLoader } from "./paper-ris";
import { loader as zipLoader } from "./papers-bulk-zip";
import { loader as rssLoader } from "./papers-rss";
import { loader as uploadsLoader } from "./uploads-file";

// Who the next requests come from: a real session cookie of that role, or none.
const session = routeVisitor();

const ORIGIN = "http://localhost:3000"; // BASE_URL of tests/helpers/setup.ts

type AnyLoader = (args: never) => Promise<Response> | Response;
async function call(loader: AnyLoader, path: string, init: RequestInit = {}, params = {}) {
  const request = new Request(`${ORIGIN}${path}`, {
    ...init,
    headers: await session.headers(init.headers),
  });
  try {
    return await (loader as (args: unknown) => Promise<Response>)({ request, params, context: {} });
  } catch (thrown) {
    if (thrown instanceof Response) return thrown;
    throw thrown;
  }
}

function pdfBytes(label: string) {
  return Buffer.from(`%PDF-1.4\n% ${label}\n${"x".repeat(2000)}\n%%EOF\n`, "latin1");
}

describe("paper files (database)", () => {
  const test = useTestDatabase();
  const pdf = pdfBytes("governance");
  let governanceId = "";

  beforeAll(async () => {
    const key = randomKey("papers", "pdf");
    await getStorage().put(key, pdf, "application/pdf");
    const draftKey = randomKey("papers", "pdf");
    await getStorage().put(draftKey, pdfBytes("draft"), "application/pdf");
    const rows = await test.db
      .insert(papers)
      .values([
        {
          slug: "data-governance-at-scale",
          title: "Data Governance at Scale & <Speed>",
          authors: ["Wanjiku Kamau", "Joseph Mwangi"],
          abstract: "How 42 banks govern data; 100% of them <care>.",
          tags: ["data governance", "banking"],
          category: "Data Governance",
          status: "published",
          publishedDate: "2024-03-05",
          pdfUrl: publicUrl(key),
          createdAt: new Date("2024-03-05T09:00:00Z"),
        },
        {
          slug: "governance-elsewhere",
          title: "Governance Hosted Elsewhere",
          authors: ["Ada External"],
          status: "published",
          publishedDate: "2024-02-01",
          pdfUrl: "https://repository.example.org/governance.pdf",
          createdAt: new Date("2024-02-01T09:00:00Z"),
        },
        {
          slug: "governance-without-pdf",
          title: "Governance Without a PDF",
          authors: ["No File"],
          status: "published",
          createdAt: new Date("2024-01-01T09:00:00Z"),
        },
        {
          slug: "secret-governance-draft",
          title: "Secret Governance Draft",
          authors: ["Draft Writer"],
          abstract: "Not for the public.",
          status: "draft",
          pdfUrl: publicUrl(draftKey),
          createdAt: new Date("2024-04-01T09:00:00Z"),
        },
      ])
      .returning({ id: papers.id, slug: papers.slug });
    governanceId = rows[0].id;
  });

  const downloads = async (slug: string) =>
    (await test.db.select().from(papers).where(eq(papers.slug, slug)))[0].downloadCount;

  describe("stored PDFs at /uploads", () => {
    const keyOf = async (slug: string) =>
      (await test.db.select().from(papers).where(eq(papers.slug, slug)))[0].pdfUrl!.replace(
        /^\/uploads\//,
        "",
      );
    const get = async (slug: string) => {
      const key = await keyOf(slug);
      return call(uploadsLoader, `/uploads/${key}`, {}, { "*": key });
    };

    it("serves a published paper's PDF to anyone, cacheable", async () => {
      session.as("anonymous");
      const response = await get("data-governance-at-scale");
      expect(response.status).toBe(200);
      expect(Buffer.from(await response.arrayBuffer()).equals(pdf)).toBe(true);
      expect(response.headers.get("Cache-Control")).toBe("public, max-age=31536000, immutable");
    });

    it("keeps a draft's PDF to editors and admins, even from someone who has the key", async () => {
      for (const who of ["anonymous", "user"] as const) {
        session.as(who);
        expect((await get("secret-governance-draft")).status).toBe(404);
      }
      for (const role of ["editor", "admin"] as const) {
        session.as(role);
        const response = await get("secret-governance-draft");
        expect(response.status).toBe(200);
        expect(response.headers.get("Cache-Control")).toBe("private, no-store");
      }
      session.as("anonymous");
    });
  });

  describe("PDF route", () => {
    const get = (slug: string, init: RequestInit = {}) =>
      call(pdfLoader, `/papers/${slug}/pdf`, init, { slug });

    it("parses single byte ranges and refuses impossible ones", () => {
      expect(parseRange(null, 100)).toBeNull();
      expect(parseRange("bytes=0-9", 100)).toEqual({ start: 0, end: 9 });
      expect(parseRange("bytes=90-", 100)).toEqual({ start: 90, end: 99 });
      expect(parseRange("bytes=-10", 100)).toEqual({ start: 90, end: 99 });
      expect(parseRange("bytes=50-500", 100)).toEqual({ start: 50, end: 99 });
      expect(parseRange("bytes=0-1,5-6", 100)).toBeNull();
      expect(parseRange("bytes=100-", 100)).toBe("unsatisfiable");
      expect(parseRange("bytes=9-3", 100)).toBe("unsatisfiable");
    });

    it("streams the PDF as an attachment and counts the download once", async () => {
      session.as("anonymous");
      const before = await downloads("data-governance-at-scale");
      const response = await get("data-governance-at-scale");
      expect(response.status).toBe(200);
      expect(response.headers.get("Content-Type")).toBe("application/pdf");
      expect(response.headers.get("Content-Disposition")).toBe(
        'attachment; filename="data-governance-at-scale.pdf"',
      );
      expect(response.headers.get("X-Content-Type-Options")).toBe("nosniff");
      expect(response.headers.get("Accept-Ranges")).toBe("bytes");
      expect(response.headers.get("Content-Length")).toBe(String(pdf.length));
      expect(Buffer.from(await response.arrayBuffer())).toEqual(pdf);
      expect(await downloads("data-governance-at-scale")).toBe(before + 1);
    });

    it("answers ranges with 206 and counts only the range starting at byte 0", async () => {
      const before = await downloads("data-governance-at-scale");
      const first = await get("data-governance-at-scale", { headers: { Range: "bytes=0-99" } });
      expect(first.status).toBe(206);
      expect(first.headers.get("Content-Range")).toBe(`bytes 0-99/${pdf.length}`);
      expect(first.headers.get("Content-Length")).toBe("100");
      expect(Buffer.from(await first.arrayBuffer())).toEqual(pdf.subarray(0, 100));

      const rest = await get("data-governance-at-scale", { headers: { Range: "bytes=100-" } });
      expect(rest.status).toBe(206);
      expect(rest.headers.get("Content-Range")).toBe(`bytes 100-${pdf.length - 1}/${pdf.length}`);
      expect(Buffer.from(await rest.arrayBuffer())).toEqual(pdf.subarray(100));

      const tail = await get("data-governance-at-scale", { headers: { Range: "bytes=-10" } });
      expect(Buffer.from(await tail.arrayBuffer())).toEqual(pdf.subarray(pdf.length - 10));

      const beyond = await get("data-governance-at-scale", {
        headers: { Range: `bytes=${pdf.length}-` },
      });
      expect(beyond.status).toBe(416);
      expect(beyond.headers.get("Content-Range")).toBe(`bytes */${pdf.length}`);

      await get("data-governance-at-scale", { method: "HEAD" });
      expect(await downloads("data-governance-at-scale")).toBe(before + 1);
    });

    it("redirects to an external PDF and still counts it", async () => {
      const before = await downloads("governance-elsewhere");
      const response = await get("governance-elsewhere");
      expect(response.status).toBe(302);
      expect(response.headers.get("Location")).toBe(
        "https://repository.example.org/governance.pdf",
      );
      expect(await downloads("governance-elsewhere")).toBe(before + 1);
    });

    it("serves a draft's PDF to editors only, and 404 without a PDF", async () => {
      session.as("anonymous");
      expect((await get("secret-governance-draft")).status).toBe(404);
      session.as("user");
      expect((await get("secret-governance-draft")).status).toBe(404);
      session.as("editor");
      expect((await get("secret-governance-draft")).status).toBe(200);
      expect((await get("governance-without-pdf")).status).toBe(404);
      expect((await get("no-such-paper")).status).toBe(404);
      session.as("anonymous");
    });

    it("also answers at the paper's id", async () => {
      const response = await call(
        pdfLoader,
        `/papers/${governanceId}/pdf`,
        {},
        { slug: governanceId },
      );
      expect(response.status).toBe(200);
    });
  });

  describe("BibTeX and RIS downloads", () => {
    it("BibTeX parses back with citation-js", async () => {
      const response = await call(bibtexLoader, "/x", {}, { slug: "data-governance-at-scale" });
      expect(response.headers.get("Content-Type")).toBe("application/x-bibtex; charset=utf-8");
      expect(response.headers.get("Content-Disposition")).toBe(
        'attachment; filename="data-governance-at-scale.bib"',
      );
      const [entry] = new Cite(await response.text()).data;
      expect(entry.title).toBe("Data Governance at Scale & <Speed>");
      expect(entry.author).toEqual([
        { given: "Wanjiku", family: "Kamau" },
        { given: "Joseph", family: "Mwangi" },
      ]);
      expect(entry.issued).toEqual({ "date-parts": [[2024, 3, 5]] });
      expect(entry.URL).toBe(`${ORIGIN}/papers/data-governance-at-scale`);
    });

    it("RIS parses back with citation-js", async () => {
      const response = await call(risLoader, "/x", {}, { slug: "data-governance-at-scale" });
      expect(response.headers.get("Content-Type")).toBe(
        "application/x-research-info-systems; charset=utf-8",
      );
      const text = await response.text();
      expect(text).toContain(`L1  - ${ORIGIN}/papers/data-governance-at-scale/pdf\r\n`);
      const [entry] = new Cite(text).data;
      expect(entry.title).toBe("Data Governance at Scale & <Speed>");
      expect(entry.author).toEqual([
        { family: "Kamau", given: "Wanjiku" },
        { family: "Mwangi", given: "Joseph" },
      ]);
      expect(entry.issued).toEqual({ "date-parts": [[2024, 3, 5]] });
    });

    it("refuses drafts to the public", async () => {
      session.as("anonymous");
      const params = { slug: "secret-governance-draft" };
      expect((await call(bibtexLoader, "/x", {}, params)).status).toBe(404);
      expect((await call(risLoader, "/x", {}, params)).status).toBe(404);
    });
  });

  describe("RSS feed", () => {
    it("is valid RSS 2.0 of the newest published papers only", async () => {
      const response = await rssLoader();
      expect(response.headers.get("Content-Type")).toBe("application/rss+xml; charset=utf-8");
      const xml = await response.text();
      expect(XMLValidator.validate(xml)).toBe(true);
      const feed = new XMLParser({ ignoreAttributes: false }).parse(xml);
      expect(feed.rss["@_version"]).toBe("2.0");
      const items = [feed.rss.channel.item].flat();
      expect(items.map((i: { title: string }) => i.title)).toEqual([
        "Data Governance at Scale & <Speed>",
        "Governance Hosted Elsewhere",
        "Governance Without a PDF",
      ]);
      expect(items[0].link).toBe(`${ORIGIN}/papers/data-governance-at-scale`);
      expect(items[0].pubDate).toBe("Tue, 05 Mar 2024 00:00:00 GMT");
      expect(items[0]["dc:creator"]).toEqual(["Wanjiku Kamau", "Joseph Mwangi"]);
      expect(xml).not.toContain("Secret Governance Draft");
    });
  });

  describe("bulk ZIP", () => {
    const zip = (query: string) => call(zipLoader, `/papers/bulk-download.zip${query}`);

    it("streams the result set's PDFs, citations.bib and a README naming external PDFs", async () => {
      session.as("anonymous");
      const before = await downloads("data-governance-at-scale");
      const externalBefore = await downloads("governance-elsewhere");
      const response = await zip("?search=governance&sort=title");
      expect(response.status).toBe(200);
      expect(response.headers.get("Content-Type")).toBe("application/zip");
      expect(response.headers.get("Content-Disposition")).toMatch(
        /^attachment; filename="kongamano-papers-\d{4}-\d{2}-\d{2}\.zip"$/,
      );
      const archive = new AdmZip(Buffer.from(await response.arrayBuffer()));
      const names = archive.getEntries().map((e) => e.entryName);
      expect(names.sort()).toEqual(["README.txt", "citations.bib", "data-governance-at-scale.pdf"]);
      expect(archive.readFile("data-governance-at-scale.pdf")).toEqual(pdf);

      const bib = archive.readAsText("citations.bib");
      const entries = new Cite(bib).data;
      expect(entries.map((e) => e.title)).toEqual([
        "Data Governance at Scale & <Speed>",
        "Governance Hosted Elsewhere",
        "Governance Without a PDF",
      ]);
      const readme = archive.readAsText("README.txt");
      expect(readme).toContain("https://repository.example.org/governance.pdf");
      expect(readme).toContain(`${ORIGIN}/papers/governance-without-pdf`);
      expect(readme).not.toContain("Secret Governance Draft");

      // The PDF in the archive counts as a download; the external one was not downloaded.
      expect(await downloads("data-governance-at-scale")).toBe(before + 1);
      expect(await downloads("governance-elsewhere")).toBe(externalBefore);
    });

    it("includes drafts for editors", async () => {
      session.as("editor");
      const response = await zip("?search=secret");
      const archive = new AdmZip(Buffer.from(await response.arrayBuffer()));
      expect(archive.getEntries().map((e) => e.entryName)).toContain("secret-governance-draft.pdf");
      session.as("anonymous");
    });

    it("sends the visitor back with a message when nothing matches", async () => {
      const response = await zip("?search=secret");
      expect(response.status).toBe(302);
      expect(response.headers.get("Location")).toBe("/papers?search=secret");
      expect(response.headers.get("Set-Cookie")).toMatch(/kongamano_toast=/);
    });

    it(`refuses more than ${BULK_DOWNLOAD_LIMIT} papers with a message instead of a ZIP`, async () => {
      await test.db.insert(papers).values(
        Array.from({ length: BULK_DOWNLOAD_LIMIT + 1 }, (_, i) => ({
          slug: `bulk-${i}`,
          title: `Bulk Paper ${i}`,
          authors: ["Bulk Author"],
          status: "published" as const,
        })),
      );
      try {
        const response = await zip("?search=bulk+paper&sort=title");
        expect(response.status).toBe(302);
        expect(response.headers.get("Location")).toBe("/papers?search=bulk+paper&sort=title");
        expect(response.headers.get("Content-Type")).not.toBe("application/zip");
        expect(response.headers.get("Set-Cookie")).toMatch(/kongamano_toast=/);
      } finally {
        await test.db.delete(papers).where(sql`${papers.slug} like 'bulk-%'`);
      }
    });
  });
});
