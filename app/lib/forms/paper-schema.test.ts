import { describe, expect, it } from "vitest";
import { parseForm } from "~/models/shared/test-support";
import { isAcceptablePdfUrl, PaperFormSchema, parseAuthors, parseTags } from "./paper-schema";

const parse = (fields: Record<string, string | string[] | File>) =>
  parseForm(PaperFormSchema, fields);

describe("paper form", () => {
  it("requires a title: 'Title is required'", () => {
    expect(parse({ title: "", authors: "A" }).error?.title).toEqual(["Title is required"]);
    expect(parse({ title: "  ", authors: "A" }).error?.title).toEqual(["Title is required"]);
  });

  it("requires at least one author: 'At least one author is required'", () => {
    for (const authors of ["", " ", ",", " , ,, "]) {
      expect(parse({ title: "T", authors }).error?.authors).toEqual([
        "At least one author is required",
      ]);
    }
  });

  it("splits authors on commas, trims them and drops empty entries", () => {
    expect(parseAuthors(" Ada Lovelace, ,Alan Turing ,, ")).toEqual([
      "Ada Lovelace",
      "Alan Turing",
    ]);
    const result = parse({ title: "On Data", authors: "Grace Hopper,  Katherine Johnson ," });
    expect(result.status).toBe("success");
    expect(result.value!.authors).toEqual(["Grace Hopper", "Katherine Johnson"]);
  });

  it("defaults to draft and offers the admin statuses", () => {
    const result = parse({ title: "T", authors: "A" });
    expect(result.value?.status).toBe("draft");
    for (const status of ["draft", "under_review", "published"]) {
      expect(parse({ title: "T", authors: "A", status }).status).toBe("success");
    }
    expect(parse({ title: "T", authors: "A", status: "lost" }).error?.status).toBeTruthy();
  });

  it("reads tags from repeated fields or comma text, trimmed and without duplicates", () => {
    expect(parseTags(["ai", " data ", "ai", ""])).toEqual(["ai", "data"]);
    expect(parseTags("ai, data,,ai")).toEqual(["ai", "data"]);
    expect(parseTags(undefined)).toEqual([]);
    // The tags input also submits its (usually empty) text box under the same name.
    const result = parse({ title: "T", authors: "A", tags: ["governance", "AI", ""] });
    expect(result.value?.tags).toEqual(["governance", "AI"]);
  });

  it("accepts an http(s) link or one of our stored PDFs, nothing else", () => {
    expect(isAcceptablePdfUrl("https://example.org/paper.pdf")).toBe(true);
    expect(isAcceptablePdfUrl("/uploads/pdfs/abc-DEF_1.pdf")).toBe(true);
    expect(isAcceptablePdfUrl("javascript:alert(1)")).toBe(false);
    expect(isAcceptablePdfUrl("/uploads/../secret.pdf")).toBe(false);
    expect(parse({ title: "T", authors: "A", pdfUrl: "ftp://x/y.pdf" }).error?.pdfUrl).toEqual([
      "Please enter a valid URL starting with http:// or https://",
    ]);
  });

  it("refuses a PDF over 20 MB before it is uploaded", () => {
    const big = new File([new Uint8Array(20 * 1024 * 1024 + 1)], "big.pdf", {
      type: "application/pdf",
    });
    expect(parse({ title: "T", authors: "A", pdfFile: big }).error?.pdfFile).toEqual([
      "Please upload a PDF smaller than 20MB",
    ]);
  });

  it("treats an empty published date as none and refuses an invalid one", () => {
    const result = parse({ title: "T", authors: "A", publishedDate: "" });
    expect(result.value?.publishedDate).toBeNull();
    expect(
      parse({ title: "T", authors: "A", publishedDate: "2024-13-45" }).error?.publishedDate,
    ).toEqual(["Please enter a valid date"]);
  });
});
