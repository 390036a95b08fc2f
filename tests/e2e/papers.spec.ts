import AdmZip from "adm-zip";
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { slugify } from "../../app/lib/format";
import { PAPERS } from "../../app/models/seed/content";
import { expect, signIn, test } from "./fixtures";

// Demo content (app/models/seed/content.ts) decides what each page must and must not show.
const published = PAPERS.filter((p) => p.status === "published");
const unpublishedTitles = PAPERS.filter((p) => p.status !== "published").map((p) => p.title);
const searchText = (p: (typeof PAPERS)[number]) =>
  [p.title, ...p.authors, ...p.tags, p.abstract].join(" ").toLowerCase();
/** The trimmed text of a locator (Playwright, not the DOM property). */
const text = async (locator: import("@playwright/test").Locator) =>
  ((await locator.textContent()) ?? "").trim();
const paperUrl = /\/papers\/[a-z0-9-]+$/;
const byTitle = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

const cards = (page: import("@playwright/test").Page) => page.getByTestId("paper-card");
const cardTitles = (page: import("@playwright/test").Page) =>
  cards(page).getByRole("heading").allInnerTexts();

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("search and sort by title show the right cards", async ({ page }) => {
    await page.goto("/papers?search=governance&sort=title");
    const expected = published
      .filter((p) => searchText(p).includes("governance"))
      .map((p) => p.title)
      .sort(byTitle);
    expect(expected.length).toBeGreaterThan(0);
    await expect(page.getByText(`${expected.length} papers found`)).toBeVisible();
    expect(await cardTitles(page)).toEqual(expected);
    await expect(page.getByLabel("Sort by")).toHaveValue("title");
    await expect(page.getByLabel("Search papers")).toHaveValue("governance");
  });

  test("the GET form works and lands on the canonical URL", async ({ page }) => {
    await page.goto("/papers");
    await page.getByLabel("Search papers").fill("records");
    await page.getByLabel("Sort by").selectOption("title");
    await page.getByRole("button", { name: "Search", exact: true }).click();
    await expect(page).toHaveURL("/papers?search=records&sort=title");
    const titles = await cardTitles(page);
    expect(titles.length).toBeGreaterThan(0);
    expect(titles).toEqual([...titles].sort(byTitle));
  });
});

test("anonymous HTML and data responses carry no unpublished title or abstract", async ({
  request,
}) => {
  const hidden = PAPERS.filter((p) => p.status !== "published");
  for (const path of [
    "/papers",
    "/papers.data",
    "/papers?status=draft",
    "/papers.data?status=draft",
    "/papers?page=2",
    "/papers.data?page=2",
    "/papers?search=governance",
    "/papers/rss.xml",
  ]) {
    const response = await request.get(path);
    expect(response.status(), path).toBe(200);
    const body = await response.text();
    for (const paper of hidden) {
      expect(body, `${path} leaks "${paper.title}"`).not.toContain(paper.title);
      expect(body, `${path} leaks an abstract`).not.toContain(paper.abstract);
    }
    if (!path.endsWith(".xml")) {
      expect(response.headers()["cache-control"]).toBe(
        "public, s-maxage=60, stale-while-revalidate=600",
      );
    }
  }
});

test("editors also see drafts, clearly badged, privately", async ({ page }) => {
  await signIn(page, "editor");
  const response = await page.goto("/papers?status=draft");
  expect(response?.headers()["cache-control"]).toBe("private, no-store");
  const drafts = PAPERS.filter((p) => p.status === "draft");
  await expect(page.getByText(`${drafts.length} papers found`)).toBeVisible();
  for (const card of await cards(page).all()) {
    await expect(card.getByText("Draft", { exact: true })).toBeVisible();
  }
  expect((await cardTitles(page)).sort(byTitle)).toEqual(drafts.map((p) => p.title).sort(byTitle));
});

test("filters update the URL in place, and the empty state clears them", async ({ page }) => {
  await page.goto("/papers");
  const historyLength = await page.evaluate(() => history.length);
  await page.getByLabel("Search papers").fill("records");
  await expect(page).toHaveURL("/papers?search=records");
  await page.getByLabel("Sort by").selectOption("title");
  await expect(page).toHaveURL("/papers?search=records&sort=title");
  expect(await page.evaluate(() => history.length)).toBe(historyLength);

  await page.getByLabel("Search papers").fill("no paper is called this");
  await expect(page.getByRole("heading", { name: "No papers found" })).toBeVisible();
  await page.getByRole("link", { name: "Clear Filters" }).click();
  await expect(page).toHaveURL("/papers");
  await expect(page.getByLabel("Search papers")).toHaveValue("");
  await expect(cards(page).first()).toBeVisible();
});

test("pagination is addressable and cards show their parts", async ({ page }) => {
  await page.goto("/papers");
  // The call-for-papers journey may publish a paper meanwhile: every seeded one, perhaps more.
  const found = page.getByText(/^\d+ papers found$/);
  await expect(found).toBeVisible();
  const total = Number.parseInt((await found.textContent()) ?? "", 10);
  expect(total).toBeGreaterThanOrEqual(published.length);
  const first = cards(page).first();
  await expect(first.getByText("Published", { exact: true })).toBeVisible();
  await expect(first.getByText(/^\d[\d,]* downloads?$/)).toBeVisible();
  await expect(first.getByRole("link", { name: /View Details/ })).toBeVisible();
  if (total > 12) {
    await page.getByRole("link", { name: "Next" }).click();
    await expect(page).toHaveURL("/papers?page=2");
    await expect(page.getByText(/^Page 2 of \d+$/)).toBeVisible();
    expect(await cards(page).count()).toBe(Math.min(12, total - 12));
  }
});

test("submit block and guidelines", async ({ page }) => {
  await page.goto("/papers");
  // 'Submit Paper' leads to an open call (or the list of them), or says that none is open.
  const submit = page.getByText(/^Submit Paper/);
  if ((await submit.evaluate((node) => node.tagName)) === "A") {
    await expect(submit).toHaveAttribute(
      "href",
      /^(\/papers\/calls\/[0-9a-f-]+\/submit|#open-calls)$/,
    );
  } else {
    // A note in the button's place, not a control that does nothing.
    await expect(submit).toHaveText("Submit Paper: no call is open now");
    await expect(page.getByRole("button", { name: /^Submit Paper/ })).toHaveCount(0);
  }
  await page.getByRole("link", { name: "Review Guidelines" }).click();
  await expect(page).toHaveURL(/#guidelines$/);
  await expect(page.getByRole("heading", { name: "Submission Guidelines" })).toBeInViewport();
});

test("Bulk Download streams a ZIP of the PDFs and citations.bib", async ({ page }) => {
  await page.goto("/papers?search=governance");
  const downloadPromise = page.waitForEvent("download");
  await page.getByRole("link", { name: /Bulk Download/ }).click();
  const download = await downloadPromise;
  expect(download.suggestedFilename()).toMatch(/^kongamano-papers-\d{4}-\d{2}-\d{2}\.zip$/);
  const zip = new AdmZip(await download.path());
  const names = zip.getEntries().map((e) => e.entryName);
  expect(names).toContain("citations.bib");
  expect(names.filter((n) => n.endsWith(".pdf")).length).toBeGreaterThan(0);
  for (const name of names.filter((n) => n.endsWith(".pdf"))) {
    expect(zip.readFile(name)?.subarray(0, 5).toString("latin1")).toBe("%PDF-");
  }
  expect(zip.readAsText("citations.bib")).toMatch(/^@techreport\{/);
});

test.describe("paper page", () => {
  test.use({ permissions: ["clipboard-read", "clipboard-write"] });

  test("actions: Download PDF, Share and Cite with their toasts", async ({ page }) => {
    await page.goto("/papers");
    // The first paper with a PDF, found through the UI.
    const card = cards(page)
      .filter({ has: page.getByRole("link", { name: /^PDF/ }) })
      .first();
    const title = await text(card.getByRole("heading"));
    await card.getByRole("link", { name: title, exact: true }).click();
    await page.waitForURL(paperUrl);
    // The URL changes a moment before the paper page replaces the list: wait for the page.
    await expect(page.getByRole("heading", { level: 1 })).not.toHaveText("Research Papers Library");
    await expect(page.getByRole("heading", { level: 1, name: title })).toBeVisible();
    await expect(page.getByText("Published", { exact: true }).first()).toBeVisible();
    for (const section of ["Abstract", "Tags", "Citation", "Similar Papers"]) {
      await expect(page.getByRole("heading", { level: 2, name: section })).toBeVisible();
    }
    for (const side of ["Paper Information", "Authors", "Need Help?", "Actions"]) {
      await expect(page.getByRole("heading", { level: 2, name: side })).toBeVisible();
    }

    const downloadPromise = page.waitForEvent("download");
    await page.getByRole("link", { name: "Download PDF" }).click();
    const download = await downloadPromise;
    const slug = new URL(page.url()).pathname.split("/").pop();
    expect(download.suggestedFilename()).toBe(`${slug}.pdf`);
    await expect(page.getByText("Download started")).toBeVisible();

    await page.getByRole("button", { name: "Share" }).click();
    await expect(page.getByText("Link copied!")).toBeVisible();
    await expect(page.getByText("Paper link has been copied to your clipboard.")).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(page.url());

    await page.getByRole("button", { name: "Cite", exact: true }).click();
    await expect(page.getByText("Citation copied!")).toBeVisible();
    const citation = await page.evaluate(() => navigator.clipboard.readText());
    expect(citation).toMatch(/ \((\d{4}|N\/A)\)\. /);
    expect(citation).toContain(title);
    expect(citation.endsWith(" Kongamano.")).toBe(true);
    await expect(page.locator("#citation")).toContainText(citation);

    const bib = await page.request.get(
      (await page.getByRole("link", { name: "BibTeX" }).getAttribute("href"))!,
    );
    expect(bib.headers()["content-disposition"]).toBe(`attachment; filename="${slug}.bib"`);
    const ris = await page.request.get(
      (await page.getByRole("link", { name: "RIS" }).getAttribute("href"))!,
    );
    expect(await ris.text()).toMatch(/^TY {2}- RPRT\r\n/);
  });

  test("side cards link to support, similar papers, the author's papers and issue reports", async ({
    page,
  }) => {
    await page.goto("/papers?sort=title");
    await cards(page)
      .first()
      .getByRole("link", { name: /View Details/ })
      .click();
    await page.waitForURL(paperUrl);
    // The URL changes a moment before the paper page replaces the list: wait for the page.
    await expect(page.getByRole("heading", { level: 1 })).not.toHaveText("Research Papers Library");
    const title = await text(page.getByRole("heading", { level: 1 }));
    await expect(page.getByRole("link", { name: "Contact Support" })).toHaveAttribute(
      "href",
      "/contact?topic=support",
    );
    await expect(page.getByRole("link", { name: "Report Issue" })).toHaveAttribute(
      "href",
      `/contact?${new URLSearchParams({ topic: "report-issue", paper: title })}`,
    );
    await page.getByRole("link", { name: "View Similar Papers" }).click();
    await expect(page).toHaveURL(/#similar-papers$/);
    const firstAuthor = (await text(page.locator("aside").getByRole("listitem").first())).trim();
    await page.getByRole("link", { name: "Follow Author" }).click();
    await expect(page).toHaveURL(`/papers?${new URLSearchParams({ search: firstAuthor })}`);
    await expect(cards(page).getByRole("heading", { name: title })).toBeVisible();
  });

  test("a download counts once", async ({ page }) => {
    await signIn(page, "editor"); // signed-in pages are never cached, so the count is current
    await page.goto("/papers?status=published");
    const card = cards(page)
      .filter({ has: page.getByRole("link", { name: /^PDF/ }) })
      .first();
    await card.getByRole("link", { name: /View Details/ }).click();
    await page.waitForURL(paperUrl);
    // The URL changes a moment before the paper page replaces the list: wait for the page.
    await expect(page.getByRole("heading", { level: 1 })).not.toHaveText("Research Papers Library");
    const downloads = page.locator("dt", { hasText: "Downloads" }).locator("xpath=../dd");
    const before = Number((await text(downloads)).replace(/,/g, ""));
    const pdf = await page.request.get(`${new URL(page.url()).pathname}/pdf`);
    expect(pdf.headers()["content-type"]).toBe("application/pdf");
    expect(pdf.headers()["x-content-type-options"]).toMatch(/^nosniff\b/);
    const ranged = await page.request.get(`${new URL(page.url()).pathname}/pdf`, {
      headers: { Range: "bytes=10-19" },
    });
    expect(ranged.status()).toBe(206);
    expect((await ranged.body()).length).toBe(10);
    await page.reload();
    await expect(downloads).toHaveText(String(before + 1));
  });

  test("Google Scholar tags and ScholarlyArticle JSON-LD are present and valid", async ({
    page,
    request,
  }) => {
    await page.goto("/papers");
    const card = cards(page)
      .filter({ has: page.getByRole("link", { name: /^PDF/ }) })
      .first();
    await card.getByRole("link", { name: /View Details/ }).click();
    await page.waitForURL(paperUrl);
    // The URL changes a moment before the paper page replaces the list: wait for the page.
    await expect(page.getByRole("heading", { level: 1 })).not.toHaveText("Research Papers Library");
    const title = await text(page.getByRole("heading", { level: 1 }));
    const meta = (name: string) =>
      page
        .locator(`meta[name="${name}"]`)
        .evaluateAll((els) => els.map((e) => e.getAttribute("content")));
    expect(await meta("citation_title")).toEqual([title]);
    const authors = await page.locator("aside").getByRole("listitem").allInnerTexts();
    expect(await meta("citation_author")).toEqual(authors.map((a) => a.trim()));
    expect((await meta("citation_publication_date"))[0]).toMatch(/^\d{4}\/\d{2}\/\d{2}$/);
    const [pdfUrl] = await meta("citation_pdf_url");
    expect(pdfUrl).toMatch(/^https?:\/\/[^/]+\/papers\/[a-z0-9-]+\/pdf$/);
    expect((await request.head(pdfUrl!)).headers()["content-type"]).toBe("application/pdf");
    await expect(page.locator('meta[property="og:title"]')).toHaveAttribute("content", title);

    const ld = JSON.parse(
      (await page.locator('script[type="application/ld+json"]').first().textContent()) ?? "",
    );
    expect(ld["@context"]).toBe("https://schema.org");
    expect(ld["@type"]).toBe("ScholarlyArticle");
    expect(ld.name).toBe(title);
    expect(ld.author.map((a: { name: string }) => a.name)).toEqual(authors.map((a) => a.trim()));
  });

  test("unknown and unpublished papers are 'Paper Not Found' (404)", async ({ page }) => {
    const draft = PAPERS.find((p) => p.status === "draft")!;
    for (const path of ["/papers/no-such-paper", `/papers/${slugify(draft.title)}`]) {
      const response = await page.goto(path);
      expect(response?.status()).toBe(404);
      await expect(page.getByRole("heading", { level: 1, name: "Paper Not Found" })).toBeVisible();
      await expect(
        page.getByText("The research paper you're looking for doesn't exist or has been removed."),
      ).toBeVisible();
    }
    await page.getByRole("link", { name: "Browse All Papers" }).click();
    await expect(page).toHaveURL("/papers");
  });

  test("a paper's id redirects permanently to its slug", async ({ request }) => {
    // The listing's data also carries other ids (an open call's, for one): the papers' ids are
    // those that redirect, and there must be some.
    const data = await (await request.get("/papers.data")).text();
    const ids = [
      ...new Set(data.match(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g)),
    ];
    let redirected = 0;
    for (const id of ids.slice(0, 20)) {
      const response = await request.get(`/papers/${id}`, { maxRedirects: 0 });
      if (response.status() !== 301) continue;
      expect(response.headers().location).toMatch(/^\/papers\/[a-z0-9-]+$/);
      redirected++;
    }
    expect(redirected).toBeGreaterThan(0);
  });
});

test("the RSS feed is valid RSS 2.0 of published papers", async ({ request }) => {
  const response = await request.get("/papers/rss.xml");
  expect(response.headers()["content-type"]).toBe("application/rss+xml; charset=utf-8");
  const xml = await response.text();
  expect(XMLValidator.validate(xml)).toBe(true);
  const feed = new XMLParser().parse(xml);
  const items = [feed.rss.channel.item].flat();
  // The call-for-papers journey may publish a paper meanwhile: the feed follows the library, and
  // every item leads to a published paper's page (unpublished ones are 404).
  const listing = await (await request.get("/papers")).text();
  const total = Number.parseInt(listing.match(/(\d+) papers found/)?.[1] ?? "", 10);
  expect(total).toBeGreaterThanOrEqual(published.length);
  expect(items.length).toBe(Math.min(20, total));
  for (const item of items) {
    expect(item.link).toMatch(/\/papers\/[a-z0-9-]+$/);
    const page = await request.get(new URL(item.link).pathname);
    expect(page.status(), item.link).toBe(200);
  }
  for (const title of unpublishedTitles) expect(xml).not.toContain(title);
});
