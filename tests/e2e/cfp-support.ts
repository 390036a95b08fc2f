import type { Page } from "@playwright/test";
import { expect, untilHydrated } from "./fixtures";

/** A calendar day `days` from today, as the call form's date fields take it. */
const dayFromNow = (days: number) =>
  new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

/**
 * An editor or admin (signed in on `page`) creates a call (submissions for 30 days, reviews for
 * 60) and opens it for submissions.
 */
export async function openCall(page: Page, title: string) {
  await page.goto("/admin/calls/new");
  await page.getByLabel("Title").fill(title);
  await page.getByLabel("Submission deadline").fill(dayFromNow(30));
  await page.getByLabel("Review deadline").fill(dayFromNow(60));
  await page.getByRole("button", { name: "Create Call" }).click();
  await expect(page.getByText("Call created successfully")).toBeVisible();
  await page.getByRole("button", { name: `Open ${title}` }).click();
  await expect(page.getByText("Call opened")).toBeVisible();
}

/** The account signed in on `page` submits a paper to an open call from /papers. */
export async function submitPaper(
  page: Page,
  paper: {
    call: string;
    title: string;
    abstract: string;
    keywords: string;
    author: { name: string; affiliation: string; email: string; orcid?: string };
    manuscript: { name: string; buffer: Buffer };
  },
) {
  await page.goto("/papers");
  await page.getByRole("link", { name: `Submit a paper to ${paper.call}` }).click();
  await untilHydrated(page);
  await page.getByLabel("Title").fill(paper.title);
  await page.getByLabel("Abstract").fill(paper.abstract);
  await page.getByLabel("Keywords").fill(paper.keywords);
  await page.getByLabel("Name").first().fill(paper.author.name);
  await page.getByLabel("Affiliation").first().fill(paper.author.affiliation);
  await page.getByLabel("E-mail").first().fill(paper.author.email);
  if (paper.author.orcid) await page.getByLabel("ORCID iD").first().fill(paper.author.orcid);
  await page
    .getByLabel("Manuscript (PDF)")
    .setInputFiles({ ...paper.manuscript, mimeType: "application/pdf" });
  await page.getByRole("checkbox", { name: /Declaration/ }).check();
  await page.getByRole("button", { name: "Submit Paper" }).click();
  await expect(page.getByText(/submitted/i).first()).toBeVisible();
}
