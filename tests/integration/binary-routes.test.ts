/**
 * Binary responses are never text (issue 29, decision 0086): every file the production server
 * sends — share images, PDFs, the ZIP, calendars, feeds, CSV exports, icons — fetched as a crawler
 * does (no cookie) twice, the page cache's miss and then its hit, and checked against its file
 * type; where a signed-in visitor may fetch it too, the bytes are the same. Private files
 * (invoices, receipts, credit notes, exports) are fetched signed in twice and never stored.
 */
import { createHash } from "node:crypto";
import { get, type IncomingMessage } from "node:http";
import { buffer } from "node:stream/consumers";
import AdmZip from "adm-zip";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from "~/models/seed/demo-accounts";
import { type RunningServer, startServer } from "../helpers/server-process";

type Got = { status: number; headers: IncomingMessage["headers"]; body: Buffer };

/** A GET that keeps the body's bytes exactly as sent (no decoding, no compression asked for). */
async function rawGet(url: string, headers: Record<string, string> = {}): Promise<Got> {
  const response = await new Promise<IncomingMessage>((resolve, reject) => {
    get(url, { headers }, resolve).on("error", reject);
  });
  return {
    status: response.statusCode ?? 0,
    headers: response.headers,
    body: await buffer(response),
  };
}

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** A PNG's signature and its IHDR's width and height (bytes 16–23, big-endian). */
function pngSize(bytes: Buffer) {
  expect(bytes.subarray(0, 8)).toEqual(PNG);
  expect(bytes.subarray(12, 16).toString("latin1")).toBe("IHDR");
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

const kinds = {
  png1200: (b: Buffer) => expect(pngSize(b)).toEqual({ width: 1200, height: 630 }),
  pdf: (b: Buffer) => {
    expect(b.subarray(0, 5).toString("latin1")).toBe("%PDF-");
    expect(b.subarray(-8).toString("latin1")).toContain("%%EOF");
  },
  zip: (b: Buffer) => expect(b.subarray(0, 4)).toEqual(Buffer.from("PK\x03\x04", "latin1")),
  ics: (b: Buffer) => {
    expect(b.subarray(0, 17).toString()).toBe("BEGIN:VCALENDAR\r\n");
    expect(b.toString()).toMatch(/END:VCALENDAR\r\n$/);
  },
  xml: (b: Buffer) => expect(b.subarray(0, 5).toString()).toBe("<?xml"),
  svg: (b: Buffer) => expect(b.toString()).toMatch(/^<svg[\s\S]*<\/svg>\s*$/),
  image: (b: Buffer) => {
    const jpeg = b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff;
    const webp =
      b.subarray(0, 4).toString("latin1") === "RIFF" &&
      b.subarray(8, 12).toString("latin1") === "WEBP";
    expect(jpeg || webp || b.subarray(0, 8).equals(PNG)).toBe(true);
  },
  csv: (b: Buffer) => expect(b.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf])),
  text: (b: Buffer) => expect(b.toString("utf8")).not.toContain("\uFFFD"),
};

const CONTENT_TYPES: Record<keyof typeof kinds, RegExp> = {
  png1200: /^image\/png$/,
  pdf: /^application\/pdf$/,
  zip: /^application\/zip$/,
  ics: /^text\/calendar/,
  xml: /^application\/(rss\+)?xml/,
  svg: /^image\/svg\+xml/,
  image: /^image\/(jpeg|webp|png)$/,
  csv: /^text\/csv/,
  text: /^text\/plain|^application\/x-(bibtex|research-info-systems)/,
};

describe("binary responses from the production server", () => {
  let server: RunningServer;
  let member = "";
  let admin = "";
  let eventSlug = "";
  let paperSlug = "";

  async function signIn(email: string) {
    const response = await fetch(`${server.url}/api/auth/sign-in/email`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Origin: server.url },
      body: JSON.stringify({ email, password: DEMO_PASSWORD }),
    });
    expect(response.status).toBe(200);
    return response.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .join("; ");
  }

  const page = async (path: string, cookie = "") =>
    (await rawGet(`${server.url}${path}`, cookie ? { cookie } : {})).body.toString();

  beforeAll(async () => {
    server = await startServer({ REQUIRE_ADMIN_MFA: "false", REQUIRE_EDITOR_MFA: "false" });
    const email = (role: string) => DEMO_ACCOUNTS.find((a) => a.role === role)?.email ?? "";
    [member, admin] = await Promise.all([signIn(email("user")), signIn(email("admin"))]);
    eventSlug = (await page("/events")).match(/href="\/events\/([a-z0-9-]+)"/)?.[1] ?? "";
    // A paper with a PDF (its page links the download).
    const papers = [...(await page("/papers")).matchAll(/href="\/papers\/([a-z0-9-]+)"/g)];
    for (const [, slug] of papers) {
      if ((await page(`/papers/${slug}`)).includes(`/papers/${slug}/pdf`)) {
        paperSlug = slug;
        break;
      }
    }
    expect([eventSlug, paperSlug].every(Boolean)).toBe(true);
  }, 90_000);

  afterAll(async () => {
    await server?.stop();
  });

  /** The og:image a page names (the versioned URL crawlers fetch), as a path. */
  async function shareImageOf(path: string) {
    const url = (await page(path)).match(/<meta property="og:image" content="([^"]+)"/)?.[1];
    expect(url, path).toBeTruthy();
    return new URL((url ?? "").replaceAll("&amp;", "&")).pathname + new URL(url ?? "").search;
  }

  /**
   * Fetches `path` twice without a cookie: the second answer is the cache's when the first may
   * be cached (public), else rendered again and not stored. Both are the file's bytes.
   */
  async function twiceAnonymously(path: string, kind: keyof typeof kinds) {
    const miss = await rawGet(`${server.url}${path}`);
    expect({ path, status: miss.status }).toEqual({ path, status: 200 });
    expect(String(miss.headers["content-type"]), path).toMatch(CONTENT_TYPES[kind]);
    kinds[kind](miss.body);
    expect(Number(miss.headers["content-length"] ?? miss.body.length), path).toBe(miss.body.length);
    const cacheable = /\bpublic\b/.test(String(miss.headers["cache-control"]));
    const pageCached = miss.headers["x-cache"] !== undefined;
    let hit = await rawGet(`${server.url}${path}`);
    if (pageCached && cacheable) {
      // The entry is compressed beside the first answer: on a busy machine it lands a moment later.
      await expect
        .poll(
          async () => {
            hit = await rawGet(`${server.url}${path}`);
            return hit.headers["x-cache"];
          },
          { timeout: 15_000 },
        )
        .toBe("HIT");
    } else {
      expect(hit.headers["x-cache"], path).not.toBe("HIT");
    }
    expect(hit.status, path).toBe(200);
    kinds[kind](hit.body);
    expect(hit.headers["content-type"], path).toBe(miss.headers["content-type"]);
    return { miss, hit, cached: pageCached && cacheable };
  }

  it("sends share images as 1200×630 PNG bytes, from the render and from the cache, the same as to a member", async () => {
    const images = [
      await shareImageOf(`/events/${eventSlug}`),
      await shareImageOf(`/papers/${paperSlug}`),
      await shareImageOf("/about"),
    ];
    expect(images[0]).toMatch(/^\/events\/[a-z0-9-]+\/og\.png\?v=[0-9a-f]{12}$/);
    expect(images[1]).toMatch(/^\/papers\/[a-z0-9-]+\/og\.png\?v=[0-9a-f]{12}$/);
    expect(images[2]).toBe("/og-image.png");
    for (const path of images) {
      const { miss, hit } = await twiceAnonymously(path, "png1200");
      expect(hit.body.equals(miss.body), path).toBe(true);
      const signedIn = await rawGet(`${server.url}${path}`, { cookie: member });
      expect(signedIn.headers["x-cache"], path).toBeUndefined();
      expect(signedIn.body.equals(miss.body), path).toBe(true);
    }
    // The card URLs are the page cache's; the site's image is a file from the build.
    expect((await rawGet(`${server.url}${images[0]}`)).headers["x-cache"]).toBe("HIT");
  });

  it("sends calendars, feeds, the sitemap and citations as text that decodes without loss, the same as to a member", async () => {
    const files: Array<[string, keyof typeof kinds]> = [
      [`/events/${eventSlug}/calendar.ics`, "ics"],
      ["/events.ics", "ics"],
      ["/events/rss.xml", "xml"],
      ["/papers/rss.xml", "xml"],
      ["/sitemap.xml", "xml"],
      [`/papers/${paperSlug}/citation.bib`, "text"],
      [`/papers/${paperSlug}/citation.ris`, "text"],
    ];
    // A calendar made again carries the time it was made (DTSTAMP); the cache's copy is the same.
    const made = (bytes: Buffer) => bytes.toString().replace(/^DTSTAMP:\d{8}T\d{6}Z\r\n/gm, "");
    for (const [path, kind] of files) {
      const { miss, hit } = await twiceAnonymously(path, kind);
      kinds.text(miss.body);
      expect(hit.body.equals(miss.body), path).toBe(true);
      const signedIn = await rawGet(`${server.url}${path}`, { cookie: member });
      expect(signedIn.headers["x-cache"], path).toBeUndefined();
      expect(made(signedIn.body), path).toBe(made(miss.body));
    }
  });

  it("sends a paper's PDF and the bulk ZIP to anyone, never from the cache, the same bytes as to a member", async () => {
    const pdf = await twiceAnonymously(`/papers/${paperSlug}/pdf`, "pdf");
    expect(pdf.cached).toBe(false);
    expect(pdf.hit.body.equals(pdf.miss.body)).toBe(true);
    const memberPdf = await rawGet(`${server.url}/papers/${paperSlug}/pdf`, { cookie: member });
    expect(memberPdf.body.equals(pdf.miss.body)).toBe(true);

    const path = "/papers/bulk-download.zip";
    const zip = await twiceAnonymously(path, "zip");
    expect(zip.cached).toBe(false);
    // Each file inside by its digest; README.txt names the time it was packed, so only its name.
    const entries = (bytes: Buffer) =>
      new AdmZip(bytes)
        .getEntries()
        .map((e) =>
          e.entryName === "README.txt"
            ? [e.entryName]
            : [e.entryName, createHash("sha256").update(e.getData()).digest("hex").slice(0, 16)],
        );
    const names = entries(zip.miss.body).map(([name]) => name);
    expect(names).toContain("citations.bib");
    expect(names).toContain("README.txt");
    expect(names.filter((name) => name.endsWith(".pdf")).length).toBeGreaterThan(1);
    expect(entries(zip.hit.body)).toEqual(entries(zip.miss.body));
    const memberZip = await rawGet(`${server.url}${path}`, { cookie: member });
    expect(entries(memberZip.body)).toEqual(entries(zip.miss.body));
  });

  it("sends the favicon and uploaded pictures as their files", async () => {
    const { miss, hit } = await twiceAnonymously("/favicon.svg", "svg");
    expect(hit.body.equals(miss.body)).toBe(true);
    // An event's banner (the demo's are JPEG; uploads are stored as WEBP).
    const banner = (await page("/events")).match(/src="(\/uploads\/[^"]+)"/)?.[1] ?? "";
    expect(banner).toBeTruthy();
    const first = await twiceAnonymously(banner.replaceAll("&amp;", "&"), "image");
    expect(first.hit.body.equals(first.miss.body)).toBe(true);
    const signedIn = await rawGet(`${server.url}${banner.replaceAll("&amp;", "&")}`, {
      cookie: member,
    });
    expect(signedIn.body.equals(first.miss.body)).toBe(true);
  });

  it("sends an order's invoice, receipt and credit note only to its buyer and staff, as PDF, never stored", async () => {
    // The demo member's membership order: applied for, paid by bank transfer and activated by
    // the seed, so it has its invoice and receipt; a refund below adds the credit note.
    const profile = await page("/profile", member);
    const orderId = profile.match(/\/orders\/([0-9a-f-]{36})/)?.[1] ?? "";
    expect(orderId).toBeTruthy();
    const orderPath = `/orders/${orderId}`;

    const post = async (fields: Record<string, string>) => {
      const form = new FormData();
      for (const [name, value] of Object.entries(fields)) form.append(name, value);
      const response = await fetch(`${server.url}/admin/payments`, {
        method: "POST",
        redirect: "manual",
        headers: { cookie: admin, Origin: server.url },
        body: form,
      });
      expect(response.status, JSON.stringify(fields)).toBeLessThan(400);
    };
    await post({
      intent: "refund",
      orderId,
      method: "bank_transfer",
      reference: "BT-2026-0002",
      amount: "10",
    });
    const html = await page(orderPath, member);
    const paths = [
      `${orderPath}/invoice.pdf`,
      html.match(/\/orders\/[0-9a-f-]+\/receipts\/[0-9a-f-]+\/receipt\.pdf/)?.[0] ?? "receipt",
      html.match(/\/orders\/[0-9a-f-]+\/credit-notes\/[0-9a-f-]+\/credit-note\.pdf/)?.[0] ??
        "credit-note",
    ];
    for (const path of paths) {
      for (const cookie of [member, admin, member]) {
        const got = await rawGet(`${server.url}${path}`, { cookie });
        expect({ path, status: got.status }).toEqual({ path, status: 200 });
        expect(got.headers["content-type"]).toBe("application/pdf");
        expect(got.headers["cache-control"]).toMatch(/private|no-store/);
        expect(got.headers["x-cache"]).toBeUndefined();
        kinds.pdf(got.body);
      }
      // Without the buyer's or staff's session there is no file, and nothing was kept for one.
      const anonymous = await rawGet(`${server.url}${path}`);
      expect(anonymous.status, path).not.toBe(200);
      expect(anonymous.headers["x-cache"], path).not.toBe("HIT");
      expect(anonymous.body.subarray(0, 5).toString("latin1"), path).not.toBe("%PDF-");
    }
  });

  it("sends the admin's CSV exports with a BOM, never stored, and none to a visitor", async () => {
    const eventId =
      (await page("/admin/events", admin)).match(/\/admin\/events\/([0-9a-f-]{36})\/edit/)?.[1] ??
      "";
    expect(eventId).toBeTruthy();
    for (const path of [
      "/admin/members.csv",
      "/admin/security/activity.csv",
      `/admin/events/${eventId}/registrations.csv`,
    ]) {
      const [first, second] = [
        await rawGet(`${server.url}${path}`, { cookie: admin }),
        await rawGet(`${server.url}${path}`, { cookie: admin }),
      ];
      for (const got of [first, second]) {
        expect({ path, status: got.status }).toEqual({ path, status: 200 });
        expect(String(got.headers["content-type"]), path).toMatch(CONTENT_TYPES.csv);
        expect(got.headers["x-cache"], path).toBeUndefined();
        kinds.csv(got.body);
        kinds.text(got.body);
      }
      const anonymous = await rawGet(`${server.url}${path}`);
      expect(anonymous.status, path).not.toBe(200);
      expect(anonymous.body.subarray(0, 3), path).not.toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    }
  });
});
