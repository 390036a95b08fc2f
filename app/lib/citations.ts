import { ORGANISATION_NAME } from "./constants";

/** What a citation needs to know about a paper (all writers accept the same shape). */
export type CitablePaper = {
  slug: string;
  title: string;
  authors: string[];
  /** 'YYYY-MM-DD' (the `published_date` column) or null. */
  publishedDate: string | null;
  abstract?: string | null;
  tags?: string[] | null;
  category?: string | null;
  /** Absolute URL of the paper page. */
  url?: string;
  /** Absolute URL of the PDF download, when there is one. */
  pdfUrl?: string | null;
};

/** The year of a 'YYYY-MM-DD' date, or null. */
export function publicationYear(publishedDate: string | null | undefined) {
  const match = /^(\d{4})-\d{2}-\d{2}/.exec(publishedDate ?? "");
  return match ? match[1] : null;
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: removing control characters is the point
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]+/g;

/** One line of plain text: whitespace (newlines included) collapsed, control characters gone. */
function oneLine(value: string) {
  return value.replace(CONTROL_CHARACTERS, " ").replace(/\s+/g, " ").trim();
}

/**
 * The citation in the spec's format (§9): authors, (year or N/A), title, organisation name.
 * 'Jane Doe, John Smith (2024). Data Governance in Practice. Kongamano.'
 */
export function formatCitation(paper: Pick<CitablePaper, "authors" | "publishedDate" | "title">) {
  const authors = paper.authors.map(oneLine).filter(Boolean).join(", ");
  const year = publicationYear(paper.publishedDate) ?? "N/A";
  const title = oneLine(paper.title);
  const titleEnd = /[.?!]$/.test(title) ? "" : ".";
  return `${authors} (${year}). ${title}${titleEnd} ${ORGANISATION_NAME}.`;
}

// ---------------------------------------------------------------------------------------------
// BibTeX
// ---------------------------------------------------------------------------------------------

const BIBTEX_SPECIALS: Record<string, string> = {
  "\\": "\\textbackslash{}",
  "{": "\\{",
  "}": "\\}",
  "&": "\\&",
  "%": "\\%",
  $: "\\$",
  "#": "\\#",
  _: "\\_",
  "~": "\\textasciitilde{}",
  "^": "\\textasciicircum{}",
};

/** A field value safe inside `{...}`: LaTeX specials escaped (one pass), braces always balanced. */
export function escapeBibtex(value: string) {
  return oneLine(value).replace(/[\\{}&%$#_~^]/g, (c) => BIBTEX_SPECIALS[c]);
}

/**
 * A BibTeX title whose capitals survive every style: styles that sentence-case titles (plain,
 * alpha, IEEE …) leave braced text alone, so each word with a capital letter is braced
 * ('{African} {SMEs} in {Kenya}').
 */
export function bibtexTitle(title: string) {
  return escapeBibtex(title)
    .split(" ")
    .map((word) => (/\p{Lu}/u.test(word) && !word.includes("{") ? `{${word}}` : word))
    .join(" ");
}

/** A BibTeX author: a name containing the word 'and' is braced so it stays one (corporate) name. */
function bibtexAuthor(name: string) {
  const escaped = escapeBibtex(name);
  return /\band\b/i.test(escaped) ? `{${escaped}}` : escaped;
}

function asciiWord(value: string) {
  return value
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]/g, "");
}

const STOP_WORDS = new Set(["a", "an", "the", "of", "on", "in", "for", "and", "to", "with"]);

/** 'doe2024governance': first author's family name, year, first significant title word. */
export function citationKey(paper: Pick<CitablePaper, "authors" | "publishedDate" | "title">) {
  const firstAuthor = paper.authors[0]?.trim() ?? "";
  const family = firstAuthor.includes(",")
    ? firstAuthor.split(",")[0]
    : (firstAuthor.split(/\s+/).pop() ?? "");
  const word =
    paper.title
      .split(/\s+/)
      .map(asciiWord)
      .find((w) => w && !STOP_WORDS.has(w)) ?? "";
  const key = `${asciiWord(family)}${publicationYear(paper.publishedDate) ?? ""}${word}`;
  return key || "paper";
}

function bibtexEntry(paper: CitablePaper, key: string) {
  const fields: Array<[string, string]> = [
    ["title", bibtexTitle(paper.title)],
    [
      "author",
      paper.authors
        .map((a) => a.trim())
        .filter(Boolean)
        .map(bibtexAuthor)
        .join(" and "),
    ],
  ];
  const year = publicationYear(paper.publishedDate);
  if (year) fields.push(["year", year]);
  if (paper.publishedDate && year) fields.push(["date", paper.publishedDate.slice(0, 10)]);
  fields.push(["institution", escapeBibtex(ORGANISATION_NAME)]);
  fields.push(["type", "Research Paper"]);
  if (paper.abstract?.trim()) fields.push(["abstract", escapeBibtex(paper.abstract)]);
  const keywords = (paper.tags ?? []).map((t) => t.trim()).filter(Boolean);
  if (keywords.length) fields.push(["keywords", escapeBibtex(keywords.join(", "))]);
  // URLs are ours (slug paths) and percent-encoded; braces are the only danger inside {...}.
  if (paper.url) fields.push(["url", paper.url.replace(/[{}]/g, encodeURIComponent)]);
  const body = fields.map(([name, value]) => `  ${name} = {${value}}`).join(",\n");
  return `@techreport{${key},\n${body}\n}\n`;
}

/** BibTeX for one or more papers; citation keys are made unique with a, b, c… suffixes. */
export function toBibtex(papers: CitablePaper[]) {
  const used = new Map<string, number>();
  return papers
    .map((paper) => {
      const base = citationKey(paper);
      const n = used.get(base) ?? 0;
      used.set(base, n + 1);
      return bibtexEntry(paper, n === 0 ? base : `${base}${suffix(n)}`);
    })
    .join("\n");
}

/** 1 → 'b', 25 → 'z', 26 → 'ba'… (the first entry keeps the bare key). */
function suffix(n: number): string {
  const letters = "abcdefghijklmnopqrstuvwxyz";
  return n < 26 ? letters[n] : suffix(Math.floor(n / 26)) + letters[n % 26];
}

// ---------------------------------------------------------------------------------------------
// RIS (Research Information Systems): one 'TAG  - value' per line, CRLF, no escape mechanism —
// so every value is reduced to one line of text.
// ---------------------------------------------------------------------------------------------

/**
 * RIS wants 'Family, Given': 'Jane Doe' → 'Doe, Jane'. Names already with a comma, single words and
 * what reads as an organisation ('Centre for Data and Society') stay as written.
 */
export function risAuthor(name: string) {
  const clean = oneLine(name);
  if (clean.includes(",") || /\b(and|of|for|the)\b/i.test(clean)) return clean;
  const parts = clean.split(" ");
  if (parts.length < 2) return clean;
  const family = parts.pop();
  return `${family}, ${parts.join(" ")}`;
}

function risEntry(paper: CitablePaper) {
  const lines: Array<[string, string]> = [
    ["TY", "RPRT"],
    ["ID", paper.slug],
    ["TI", paper.title],
  ];
  for (const author of paper.authors) if (author.trim()) lines.push(["AU", risAuthor(author)]);
  const year = publicationYear(paper.publishedDate);
  if (year && paper.publishedDate) {
    lines.push(["PY", year]);
    lines.push(["DA", `${paper.publishedDate.slice(0, 10).replaceAll("-", "/")}/`]);
  }
  if (paper.abstract?.trim()) lines.push(["AB", paper.abstract]);
  for (const tag of paper.tags ?? []) if (tag.trim()) lines.push(["KW", tag]);
  lines.push(["PB", ORGANISATION_NAME]);
  lines.push(["M3", "Research Paper"]);
  if (paper.url) lines.push(["UR", paper.url]);
  if (paper.pdfUrl) lines.push(["L1", paper.pdfUrl]);
  return `${lines
    .map(([tag, value]) => `${tag}  - ${oneLine(value)}`)
    .filter((line) => !line.endsWith("- "))
    .join("\r\n")}\r\nER  - \r\n`;
}

/** RIS records for one or more papers. */
export function toRis(papers: CitablePaper[]) {
  return papers.map(risEntry).join("\r\n");
}
