import { Cite } from "@citation-js/core";
import "@citation-js/plugin-bibtex";
import "@citation-js/plugin-ris";
import { describe, expect, it } from "vitest";
import {
  type CitablePaper,
  citationKey,
  escapeBibtex,
  formatCitation,
  risAuthor,
  toBibtex,
  toRis,
} from "./citations";
import { ORGANISATION_NAME } from "./constants";

const tricky: CitablePaper = {
  slug: "data-governance-in-practice",
  title: "Data {Governance} & 100% of $cost_x #1 ~ ^ \\ in Practice\nPart 2",
  authors: ["Jane Doe", "Centre for Data and Society", "Amara Okafor-Ndlovu"],
  publishedDate: "2024-03-05",
  abstract: "Why governance matters: 50% & more_\r\nof budgets.",
  tags: ["governance", "data & ai"],
  url: "https://kongamano.test/papers/data-governance-in-practice",
  pdfUrl: "https://kongamano.test/papers/data-governance-in-practice/pdf",
};
const cleanTitle = "Data {Governance} & 100% of $cost_x #1 ~ ^ \\ in Practice Part 2";

type Csl = {
  title: string;
  author: Array<{ family?: string; given?: string; literal?: string }>;
  issued?: { "date-parts": number[][] };
  abstract?: string;
  publisher?: string;
  URL?: string;
  type: string;
  "citation-key"?: string;
};
const names = (csl: Csl) =>
  csl.author.map((a) => a.literal ?? [a.given, a.family].filter(Boolean).join(" "));

describe("formatCitation (spec §9: authors, (year or N/A), title, organisation name)", () => {
  it("joins authors, the publication year, the title and the organisation", () => {
    expect(
      formatCitation({
        authors: ["Jane Doe", "John Smith"],
        publishedDate: "2024-03-05",
        title: "Data Governance",
      }),
    ).toBe(`Jane Doe, John Smith (2024). Data Governance. ${ORGANISATION_NAME}.`);
  });
  it("says N/A without a published date and keeps a title's own punctuation", () => {
    expect(
      formatCitation({ authors: ["Ada Lovelace"], publishedDate: null, title: "Who owns data?" }),
    ).toBe(`Ada Lovelace (N/A). Who owns data? ${ORGANISATION_NAME}.`);
  });
});

describe("BibTeX", () => {
  it("escapes every LaTeX special character in one pass", () => {
    expect(escapeBibtex("a\\b{c}&%$#_~^")).toBe(
      "a\\textbackslash{}b\\{c\\}\\&\\%\\$\\#\\_\\textasciitilde{}\\textasciicircum{}",
    );
  });

  it("parses back with citation-js to the same title, authors, year and fields", () => {
    const bib = toBibtex([tricky]);
    const [entry] = new Cite(bib).data as unknown as Csl[];
    expect(entry.type).toBe("report");
    expect(entry.title).toBe(cleanTitle);
    expect(names(entry)).toEqual([
      "Jane Doe",
      "Centre for Data and Society",
      "Amara Okafor-Ndlovu",
    ]);
    expect(entry.issued?.["date-parts"][0]).toEqual([2024, 3, 5]);
    expect(entry.abstract).toBe("Why governance matters: 50% & more_ of budgets.");
    expect(entry.publisher).toBe(ORGANISATION_NAME);
    expect(entry.URL).toBe(tricky.url);
  });

  it("gives several papers unique keys", () => {
    const bib = toBibtex([tricky, tricky, { ...tricky, publishedDate: null }]);
    const keys = (new Cite(bib).data as unknown as Csl[]).map((e) => e["citation-key"]);
    expect(keys).toEqual(["doe2024data", "doe2024datab", "doedata"]);
    expect(citationKey({ authors: ["Émile Zoë"], publishedDate: null, title: "The Édition" })).toBe(
      "zoeedition",
    );
  });

  it("leaves out the year when there is no published date", () => {
    const bib = toBibtex([{ ...tricky, publishedDate: null }]);
    expect(bib).not.toMatch(/year =/);
    expect((new Cite(bib).data as unknown as Csl[])[0].issued).toBeUndefined();
  });
});

describe("RIS", () => {
  it("writes Family, Given names but keeps organisations whole", () => {
    expect(risAuthor("Jane Doe")).toBe("Doe, Jane");
    expect(risAuthor("Doe, Jane")).toBe("Doe, Jane");
    expect(risAuthor("UNESCO")).toBe("UNESCO");
    expect(risAuthor("Centre for Data and Society")).toBe("Centre for Data and Society");
  });

  it("uses CRLF, one line per value, and ends each record with ER", () => {
    const ris = toRis([tricky, tricky]);
    const lines = ris.split("\r\n");
    expect(lines[0]).toBe("TY  - RPRT");
    expect(ris).not.toMatch(/[^\r]\n/);
    expect(lines.filter((l) => l === "ER  - ")).toHaveLength(2);
    for (const line of lines.filter(Boolean)) expect(line).toMatch(/^[A-Z][A-Z0-9] {2}- /);
  });

  it("parses back with citation-js to the same title, authors, year and fields", () => {
    const [entry] = new Cite(toRis([tricky])).data as unknown as Csl[];
    expect(entry.type).toBe("report");
    expect(entry.title).toBe(cleanTitle);
    expect(names(entry)).toEqual([
      "Jane Doe",
      "Centre for Data and Society",
      "Amara Okafor-Ndlovu",
    ]);
    expect(entry.issued?.["date-parts"][0]).toEqual([2024, 3, 5]);
    expect(entry.publisher).toBe(ORGANISATION_NAME);
    expect(entry.URL).toBe(tricky.url);
  });
});
