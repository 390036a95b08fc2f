import { getMeta } from "unpdf";
import { describe, expect, it } from "vitest";
import {
  addIdentifyingMetadata,
  makeManuscriptPdf,
  makeScannedPdf,
  NEUTRAL_BODY,
  pdfObjectsText,
} from "../../../tests/helpers/manuscript-pdf";
import { pdfText } from "../../../tests/helpers/pdf-text";
import {
  anonymiseManuscript,
  findAuthorMentions,
  MANUSCRIPT_MESSAGES,
  ManuscriptError,
  readManuscript,
  reviewerCopyFileName,
  reviewerCopyResponse,
} from "./manuscript.server";

const AUTHOR = "Wanjirũ Mũthoni Ngũgĩ";
const IDENTITY = /wanjir|ngug|ngũg|mũthoni|muthoni/i;

/** The XMP packet PDF.js found (unpdf gives an empty object when there is none). */
function xmp(meta: Awaited<ReturnType<typeof getMeta>>): string | null {
  const metadata = meta.metadata as { getRaw?: () => string };
  return metadata.getRaw ? metadata.getRaw() : null;
}

async function refusal(promise: Promise<unknown>) {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ManuscriptError);
  return (error as ManuscriptError).message;
}

describe("readManuscript", () => {
  it("reads the text and page count of a text PDF", async () => {
    const manuscript = await readManuscript(await makeManuscriptPdf());
    expect(manuscript.pageCount).toBe(1);
    expect(manuscript.text).toContain("retention schedules");
  });

  it("refuses a scanned PDF without text, with a message that says what to do", async () => {
    expect(await refusal(readManuscript(await makeScannedPdf()))).toBe(MANUSCRIPT_MESSAGES.noText);
    expect(MANUSCRIPT_MESSAGES.noText).toMatch(/scanned.*text-based PDF/);
  });

  it("refuses a file that is not a PDF, a broken PDF and one over 10 MB", async () => {
    expect(await refusal(readManuscript(Buffer.from("PK\u0003\u0004 a docx")))).toBe(
      MANUSCRIPT_MESSAGES.notPdf,
    );
    expect(await refusal(readManuscript(Buffer.from("%PDF-1.7\nnot really")))).toBe(
      MANUSCRIPT_MESSAGES.unreadable,
    );
    const big = Buffer.alloc(10 * 1024 * 1024 + 1, 0x20);
    big.write("%PDF-1.7");
    expect(await refusal(readManuscript(big))).toBe(MANUSCRIPT_MESSAGES.tooLarge);
  });

  it("refuses a PDF that needs a password to open", async () => {
    const pdf = await makeManuscriptPdf({ userPassword: "secret", ownerPassword: "owner" });
    expect(await refusal(readManuscript(pdf))).toBe(MANUSCRIPT_MESSAGES.protected);
  });

  it("accepts a PDF that is only protected against editing", async () => {
    const pdf = await makeManuscriptPdf({ ownerPassword: "owner" });
    expect((await readManuscript(pdf)).text).toContain("retention schedules");
  });
});

describe("findAuthorMentions", () => {
  const authors = [
    { name: AUTHOR, email: "wanjiru@uni.example", orcid: "0000-0002-1825-0097" },
    { name: "Jean-Pierre O'Brien", email: null, orcid: null },
  ];

  it("finds a name whatever its case and diacritics", () => {
    expect(findAuthorMentions("Written by WANJIRU MUTHONI NGUGI in 2026", authors)).toEqual([
      AUTHOR,
    ]);
    expect(findAuthorMentions("by wanjirũ mũthoni ngũgĩ", authors)).toEqual([AUTHOR]);
    expect(findAuthorMentions("by Wanjiru\nNgugi", authors)).toEqual([AUTHOR]);
  });

  it("finds the forms papers use: surname first, initials, hyphens and apostrophes", () => {
    expect(findAuthorMentions("(Ngugi, Wanjiru, 2024)", authors)).toEqual([AUTHOR]);
    expect(findAuthorMentions("as W. Ngugi showed", authors)).toEqual([AUTHOR]);
    expect(findAuthorMentions("Ngũgĩ, W. M. (2023). Registries.", authors)).toEqual([AUTHOR]);
    expect(findAuthorMentions("W. M. Ngugi and others", authors)).toEqual([AUTHOR]);
    expect(findAuthorMentions("JEAN PIERRE O BRIEN", authors)).toEqual(["Jean-Pierre O'Brien"]);
    expect(findAuthorMentions("see O'Brien, J.", authors)).toEqual(["Jean-Pierre O'Brien"]);
  });

  it("finds an author's e-mail address and ORCID iD", () => {
    expect(findAuthorMentions("Contact: Wanjiru@Uni.Example", authors)).toEqual([AUTHOR]);
    expect(findAuthorMentions("ORCID 0000-0002-1825-0097", authors)).toEqual([AUTHOR]);
  });

  it("matches whole words only, and finds nobody in a neutral text", () => {
    expect(findAuthorMentions("Ngugino and Wanjirus are not names here", authors)).toEqual([]);
    expect(findAuthorMentions(NEUTRAL_BODY, authors)).toEqual([]);
    expect(findAuthorMentions("Ngugi alone is a surname", authors)).toEqual([]);
  });

  it("finds it in a PDF's extracted text", async () => {
    const pdf = await makeManuscriptPdf({
      body: `${NEUTRAL_BODY}\n\nAcknowledgements: the first author, Wanjirũ Ngũgĩ, thanks the registries.`,
    });
    const { text } = await readManuscript(pdf);
    expect(findAuthorMentions(text, authors)).toEqual([AUTHOR]);
  });
});

describe("anonymiseManuscript", () => {
  async function identifyingManuscript() {
    const pdf = await makeManuscriptPdf({
      info: {
        Title: `Registries in Kenya, by ${AUTHOR}`,
        Author: AUTHOR,
        Subject: `${AUTHOR}'s thesis chapter`,
        Keywords: "registries, Ngũgĩ",
        Creator: `Word for ${AUTHOR}`,
        Producer: "LegacyPrinter 7.1",
      },
    });
    return addIdentifyingMetadata(pdf, AUTHOR);
  }

  it("the test manuscript does carry the author in its info, XMP, comments and earlier revision", async () => {
    const pdf = await identifyingManuscript();
    expect(await pdfObjectsText(pdf)).toMatch(IDENTITY);
    const meta = await getMeta(new Uint8Array(pdf));
    expect(xmp(meta)).toMatch(IDENTITY);
    // The newest revision's info says "Anonymous", but the first revision's is still in the file.
    expect(meta.info.Author).toBe("Anonymous");
    expect(Buffer.from(pdf).toString("latin1")).toContain("LegacyPrinter");
  });

  it("removes document info, XMP, application data, comment authors and old revisions", async () => {
    const original = await identifyingManuscript();
    const copy = await anonymiseManuscript(original);

    expect(await pdfObjectsText(copy)).not.toMatch(IDENTITY);
    expect(Buffer.from(copy).toString("latin1")).not.toMatch(/LegacyPrinter|Anonymous|Revised/);
    const meta = await getMeta(new Uint8Array(copy));
    expect(xmp(meta)).toBeNull();
    for (const key of ["Title", "Author", "Subject", "Keywords", "Creator", "Producer"]) {
      expect(meta.info[key], key).toBeUndefined();
    }
    // Nothing else changes: the pages read as before, the comment is still there.
    expect(await pdfText(copy)).toBe(await pdfText(original));
    expect(await pdfObjectsText(copy)).toContain("Check this paragraph");
  });

  it("opens and strips a PDF protected only against editing", async () => {
    const pdf = await makeManuscriptPdf({ ownerPassword: "owner", info: { Author: AUTHOR } });
    const copy = await anonymiseManuscript(pdf);
    expect((await getMeta(new Uint8Array(copy))).info.Author).toBeUndefined();
    expect(await pdfText(copy)).toContain("retention schedules");
  });

  it("refuses what it cannot read", async () => {
    expect(await refusal(anonymiseManuscript(Buffer.from("%PDF-1.7 nothing")))).toBe(
      MANUSCRIPT_MESSAGES.unreadable,
    );
  });
});

describe("the reviewer copy's download", () => {
  it("has a neutral name from the submission id", () => {
    expect(reviewerCopyFileName("3f1c9a7e-55b2-4c1d-9e8f-0a1b2c3d4e5f")).toBe(
      "submission-3f1c9a7e.pdf",
    );
    expect(reviewerCopyFileName('x"; evil')).toBe("submission-xevil.pdf");
  });

  it("is an attachment that is never cached or sniffed", async () => {
    const response = reviewerCopyResponse(new Uint8Array([37, 80, 68, 70]), "abcdef1234567");
    expect(response.headers.get("Content-Disposition")).toBe(
      'attachment; filename="submission-abcdef12.pdf"',
    );
    expect(response.headers.get("Content-Type")).toBe("application/pdf");
    expect(response.headers.get("Cache-Control")).toBe("private, no-store");
    expect(response.headers.get("X-Content-Type-Options")).toBe("nosniff");
    expect((await response.arrayBuffer()).byteLength).toBe(4);
  });
});
