// BibTeX titles keep their capitals (issue 18): checked with a real BibTeX run when Debian's
// `bibtex` is installed (apt-get install texlive-binaries texlive-base), else with the kept
// parser (citation-js), which reads the braces the same way BibTeX does.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Cite } from "@citation-js/core";
import "@citation-js/plugin-bibtex";
import { describe, expect, it } from "vitest";
import { bibtexTitle, type CitablePaper, toBibtex } from "./citations";

const paper: CitablePaper = {
  slug: "mobile-money",
  title: "Mobile Money and African SMEs in Kenya: Making Research Data FAIR",
  authors: ["Wanjiru Kamau", "Peter Otieno"],
  publishedDate: "2026-05-04",
};
const STYLES = ["plain", "abbrv", "alpha", "ieeetr", "apalike"];

function bibtexAvailable() {
  try {
    execFileSync("kpsewhich", ["plain.bst"], { stdio: "pipe" });
    execFileSync("bibtex", ["--version"], { stdio: "pipe" });
    return true;
  } catch {
    return false;
  }
}

/** The formatted bibliography (`.bbl`) a real BibTeX run writes for `bib` in `style`. */
function runBibtex(bib: string, style: string) {
  const dir = mkdtempSync(join(tmpdir(), "bibtex-"));
  try {
    writeFileSync(join(dir, "refs.bib"), bib);
    writeFileSync(join(dir, "job.aux"), `\\citation{*}\n\\bibstyle{${style}}\n\\bibdata{refs}\n`);
    execFileSync("bibtex", ["job"], { cwd: dir, stdio: "pipe" });
    return readFileSync(join(dir, "job.bbl"), "utf8").replace(/[{}]/g, "").replace(/\s+/g, " ");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe("BibTeX titles keep their capitals", () => {
  it("braces every word with a capital letter", () => {
    expect(bibtexTitle("African SMEs & the FAIR data of Kenya")).toBe(
      "{African} {SMEs} \\& the {FAIR} data of {Kenya}",
    );
  });

  if (bibtexAvailable()) {
    it("survive a real BibTeX run in every standard style (bibtex installed)", () => {
      for (const style of STYLES) {
        const bbl = runBibtex(toBibtex([paper]), style);
        expect(bbl, style).toContain("African SMEs in Kenya");
        expect(bbl, style).toContain("Research Data FAIR");
      }
      // The control: without the braces, the same run lower-cases them.
      const unprotected = toBibtex([paper]).replace(/title = \{.*\}/, `title = {${paper.title}}`);
      expect(runBibtex(unprotected, "plain")).toContain("african smes in kenya");
    });
  } else {
    it("survive the kept BibTeX parser (bibtex not installed here)", () => {
      const [entry] = new Cite(toBibtex([paper])).data as Array<{ title: string }>;
      expect(entry.title).toBe(paper.title);
      expect(toBibtex([paper])).toContain("{African} {SMEs} in {Kenya:}");
      expect(toBibtex([paper])).toContain("{FAIR}");
    });
  }
});
