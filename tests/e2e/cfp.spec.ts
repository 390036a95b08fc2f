import type { Browser, Page } from "@playwright/test";
import { extractText, getDocumentProxy } from "unpdf";
import { baseURL } from "../../playwright.config";
import {
  addIdentifyingMetadata,
  makeManuscriptPdf,
  NEUTRAL_BODY,
  pdfObjectsText,
} from "../helpers/manuscript-pdf";
import { openCall, submitPaper } from "./cfp-support";
import {
  expect,
  expectNoSeriousA11yViolations,
  signIn,
  test,
  untilHydrated,
  verifiedAccount,
} from "./fixtures";

// Issue 32, "how it will be checked", as one journey: an editor opens a double-blind call; an
// author submits; two reviewers declare no conflict and review blind (page and PDF checked for the
// authors), one asks for revisions; the author revises; both accept; the editor accepts and
// publishes; the paper is in /papers with its citation files. The editor works at 1366 px, the
// author and the reviewers on phones (390 px). Cases live in Vitest (tests/integration/cfp-*).

const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };
const AUTHOR_NAME = "Wanjirũ Mũthoni Ngũgĩ";
const AFFILIATION = "Chuo Kikuu cha Kusini";
const AUTHOR_TRACES = /wanjir|ngug|ngũg|mũthoni|muthoni|kusini|0000-0002-1825-0097/i;

async function phone(browser: Browser) {
  const context = await browser.newContext({ ...PHONE, baseURL });
  return context.newPage();
}

async function manuscript(note: string) {
  const pdf = await makeManuscriptPdf({
    body: `${NEUTRAL_BODY}\n\n${note}`,
    info: { Author: AUTHOR_NAME, Title: `Registries, by ${AUTHOR_NAME}`, Subject: AFFILIATION },
  });
  return Buffer.from(await addIdentifyingMetadata(pdf, AUTHOR_NAME));
}

async function pdfTextOf(bytes: Buffer) {
  const pdf = await getDocumentProxy(new Uint8Array(bytes));
  return (await extractText(pdf, { mergePages: true })).text;
}

/** The reviewer downloads the round's PDF: neutral name, no author in metadata or text. */
async function downloadBlind(page: Page, round: number) {
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("link", { name: `Download PDF (round ${round})` }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^submission-[0-9a-f]{8}\.pdf$/);
  const path = await download.path();
  const bytes = Buffer.from(await (await import("node:fs/promises")).readFile(path));
  expect(await pdfObjectsText(bytes)).not.toMatch(AUTHOR_TRACES);
  expect(await pdfTextOf(bytes)).not.toMatch(AUTHOR_TRACES);
  return bytes;
}

/** The reviewer's page (HTML and its .data) names no author. */
async function expectBlindPage(page: Page) {
  expect(await page.content()).not.toMatch(AUTHOR_TRACES);
  const data = await page.request.get(`${new URL(page.url()).pathname}.data`);
  expect(data.status()).toBe(200);
  expect(await data.text()).not.toMatch(AUTHOR_TRACES);
}

async function review(
  page: Page,
  title: string,
  round: number,
  recommendation: "Accept" | "Major revisions",
) {
  await page.goto("/reviews");
  await page.getByRole("link", { name: title }).click();
  await untilHydrated(page);
  if (round === 1) {
    await expectBlindPage(page);
    await page.getByRole("button", { name: "I have no conflict of interest" }).click();
    await expect(page.getByText("The paper is open for your review")).toBeVisible();
  } else {
    await expect(page.getByRole("link", { name: "Download PDF (round 1)" })).toBeVisible();
    await expect(page.getByText("The authors' response letter")).toBeVisible();
  }
  await expectBlindPage(page);
  const bytes = await downloadBlind(page, round);
  expect(await pdfTextOf(bytes)).toContain(round === 1 ? "First version." : "Revised version.");
  for (const label of [
    "Relevance to practitioners",
    "Originality",
    "Method and rigour",
    "Clarity of writing",
  ]) {
    await page.getByLabel(label).selectOption(recommendation === "Accept" ? "5" : "3");
  }
  await page.getByLabel("Recommendation").selectOption({ label: recommendation });
  await page
    .getByLabel("Comments to the authors")
    .fill(
      round === 1 ? "Pilot the checklist in more registries." : "The pilot answers my question.",
    );
  await page.getByLabel("Confidential comments to the editor").fill("Sound work.");
  await page.getByRole("button", { name: "Submit review" }).click();
  await expect(page.getByText("Review submitted. Thank you.")).toBeVisible();
  await expectNoSeriousA11yViolations(page);
}

test("a paper goes from a call through double-blind review and a revision into the library", async ({
  page,
  browser,
}) => {
  test.setTimeout(240_000);
  const suffix = Date.now().toString(36);
  const callTitle = `Records Practice ${suffix}`;
  const paperTitle = `Retention schedules in county registries ${suffix}`;

  // The editor opens a call (desktop).
  await page.setViewportSize({ width: 1366, height: 900 });
  await signIn(page, "editor");
  await openCall(page, callTitle);

  // The author submits on a phone.
  const author = await phone(browser);
  const authorAccount = await verifiedAccount(author.request, "Author");
  await submitPaper(author, {
    call: callTitle,
    title: paperTitle,
    abstract: NEUTRAL_BODY,
    keywords: "records, retention, registries",
    author: {
      name: AUTHOR_NAME,
      affiliation: AFFILIATION,
      email: authorAccount.email,
      orcid: "0000-0002-1825-0097",
    },
    manuscript: { name: "my-paper-by-wanjiru.pdf", buffer: await manuscript("First version.") },
  });

  // Two reviewers with accounts; the editor asks both (typing their addresses).
  const reviewers = [await phone(browser), await phone(browser)];
  const reviewerAccounts = [
    await verifiedAccount(reviewers[0].request, "Reviewer One"),
    await verifiedAccount(reviewers[1].request, "Reviewer Two"),
  ];
  await page.goto("/admin/calls");
  await page.getByRole("link", { name: `1 submissions to ${callTitle}` }).click();
  await page.getByRole("link", { name: paperTitle }).click();
  for (const account of reviewerAccounts) {
    await page.getByLabel("Reviewer's e-mail").fill(account.email);
    await page.getByRole("button", { name: "Ask reviewer" }).click();
    await expect(page.getByText("Reviewer asked.")).toBeVisible();
  }

  // Round 1: one asks for major revisions, the other accepts.
  await review(reviewers[0], paperTitle, 1, "Major revisions");
  await review(reviewers[1], paperTitle, 1, "Accept");

  // The editor requests revisions; the letter carries the reviewers' comments.
  await page.reload();
  await page.getByLabel("Decision").selectOption({ label: "Revisions requested" });
  await page.getByRole("button", { name: "Send decision" }).click();
  await expect(page.getByText("Decision sent to the author.")).toBeVisible();

  // The author revises with a response letter.
  await author.goto("/profile/submissions");
  await author.getByRole("link", { name: paperTitle }).click();
  await untilHydrated(author);
  await expect(author.getByText("Pilot the checklist in more registries.")).toBeVisible();
  await author.getByLabel(/Revised manuscript|Manuscript/).setInputFiles({
    name: "revised.pdf",
    mimeType: "application/pdf",
    buffer: await manuscript("Revised version."),
  });
  await author
    .getByLabel(/Response letter/)
    .fill("We piloted the checklist in two more registries.");
  await author.getByRole("button", { name: /Submit (the )?revis/i }).click();
  await expect(author.getByText(/revised version/i).first()).toBeVisible();

  // Round 2: both accept, seeing both versions and the response letter.
  await review(reviewers[0], paperTitle, 2, "Accept");
  await review(reviewers[1], paperTitle, 2, "Accept");

  // The editor accepts and publishes.
  await page.reload();
  await page.getByLabel("Decision").selectOption({ label: "Accept" });
  await page.getByRole("button", { name: "Send decision" }).click();
  await expect(page.getByText("Decision sent to the author.")).toBeVisible();
  await page.getByRole("button", { name: "Publish to the library" }).click();
  await expect(page.getByText("Published in the paper library.")).toBeVisible();
  await page.getByRole("link", { name: /^\/papers\// }).click();
  await expect(page.getByRole("heading", { level: 1, name: paperTitle })).toBeVisible();
  await expect(page.getByText(AUTHOR_NAME).first()).toBeVisible();

  // In the library, with its citation files.
  await page.goto(`/papers?search=${encodeURIComponent(paperTitle)}`);
  await expect(page.getByRole("link", { name: paperTitle }).first()).toBeVisible();
  const slug = new URL(
    await page
      .getByRole("link", { name: paperTitle })
      .first()
      .evaluate((a) => (a as HTMLAnchorElement).href),
  ).pathname.split("/")[2];
  const bib = await page.request.get(`/papers/${slug}/citation.bib`);
  expect(bib.status()).toBe(200);
  expect(await bib.text()).toContain(`schedules in county registries ${suffix}`);
  const ris = await page.request.get(`/papers/${slug}/citation.ris`);
  expect(ris.status()).toBe(200);
  expect(await ris.text()).toContain(`TI  - ${paperTitle}`);

  for (const p of [author, ...reviewers]) await p.context().close();
});
