import type { Page } from "@playwright/test";
import { OFFICES } from "../../app/models/seed/content";
import {
  capturedMail,
  expect,
  OWN_ORIGIN,
  randomClientIp,
  signIn,
  test,
  waitForMail,
} from "./fixtures";

const STAFF = "staff@kongamano.test";

// Branch offices (the head office's details are public by design: footer and contact page).
const activeBranches = OFFICES.filter((o) => o.status === "active" && !o.isHeadquarters);
const inactive = OFFICES.filter((o) => o.status === "inactive");
const london = OFFICES.find((o) => o.city === "London")!;

function contactSecrets(offices: typeof OFFICES) {
  return offices.flatMap((o) => [o.email, o.phone, o.address]);
}

function unique(label: string) {
  return `${label} ${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
}

/** Each test talks to the server as its own client, so per-client rate limits never collide. */
async function asNewClient(page: Page, ip = randomClientIp()) {
  await page.setExtraHTTPHeaders({ "x-forwarded-for": ip });
  return ip;
}

test.describe("offices: contact details only for signed-in users", () => {
  test("visitors' HTML and data responses carry no office address, phone or e-mail", async ({
    page,
  }) => {
    const html = await (await page.request.get("/offices")).text();
    const data = await (await page.request.get("/offices.data")).text();
    for (const body of [html, data]) {
      expect(body).toContain(london.city);
      for (const secret of contactSecrets(activeBranches)) expect(body).not.toContain(secret);
    }
    const response = await page.request.get("/offices");
    expect(response.headers()["cache-control"]).toBe(
      "public, s-maxage=60, stale-while-revalidate=600",
    );

    await page.goto("/offices");
    await expect(page.getByRole("heading", { level: 1, name: "Our Global Offices" })).toBeVisible();
    const card = page.getByTestId("office-card").filter({ hasText: "London" });
    await expect(card.getByText("Sign in to view contact details for this office.")).toBeVisible();
    await expect(card.getByRole("link", { name: "Sign In" })).toHaveAttribute(
      "href",
      "/auth?redirectTo=/offices",
    );
    // Each office's own hours (time zone named) and services, for visitors too (decision 0060).
    await expect(card.getByText("Business Hours")).toBeVisible();
    await expect(card.getByText(london.openingHours, { exact: true })).toBeVisible();
    await expect(card.getByRole("list", { name: "Services" }).getByRole("listitem")).toHaveText(
      london.services,
    );
    const mumbai = OFFICES.find((o) => o.city === "Mumbai")!;
    const mumbaiCard = page.getByTestId("office-card").filter({ hasText: "Mumbai" });
    for (const line of mumbai.openingHours.split("\n")) {
      await expect(mumbaiCard.getByText(line, { exact: true })).toBeVisible();
    }
    await expect(mumbaiCard.getByText(london.openingHours)).toHaveCount(0);
  });

  test("signed-in users get active offices with address, phone and e-mail", async ({ page }) => {
    await signIn(page, "user");
    const html = await (await page.request.get("/offices")).text();
    const data = await (await page.request.get("/offices.data")).text();
    for (const body of [html, data]) {
      expect(body).toContain(london.email);
      expect(body).toContain(london.phone);
      expect(body).toContain(london.address);
      for (const office of inactive) expect(body).not.toContain(office.email);
    }
    expect((await page.request.get("/offices")).headers()["cache-control"]).toBe(
      "private, no-store",
    );

    await page.goto("/offices");
    const card = page.getByTestId("office-card").filter({ hasText: "London" });
    await expect(card.getByRole("link", { name: london.email })).toHaveAttribute(
      "href",
      `mailto:${london.email}`,
    );
    await expect(card.getByRole("link", { name: london.phone })).toHaveAttribute(
      "href",
      /^tel:\+44/,
    );
    await expect(card.getByText(london.address)).toBeVisible();
    await expect(page.getByText("Sign in to view contact details for this office.")).toHaveCount(0);
  });

  test("the region filter and Regional Highlights narrow the list", async ({ page }) => {
    await page.goto("/offices");
    const cards = page.getByTestId("office-card");
    const all = await cards.count();
    expect(all).toBe(OFFICES.filter((o) => o.status === "active").length);
    const stats = page.getByRole("region", { name: "Our network at a glance" });
    await expect(stats.locator("dd")).toHaveText([String(all), "6", "24/7", "25+"]);
    await expect(stats.locator("dt")).toHaveText([
      "Offices",
      "Continents",
      "Global Support",
      "Countries",
    ]);

    const europe = page.getByRole("button", { name: "Europe", exact: true });
    await europe.click();
    await expect(page).toHaveURL(/region=Europe/);
    await expect(europe).toHaveAttribute("aria-pressed", "true");
    await expect(page.getByRole("button", { name: "All Regions" })).toHaveAttribute(
      "aria-pressed",
      "false",
    );
    await expect(page.getByRole("heading", { name: "Offices in Europe" })).toBeVisible();
    const europeanCities = activeBranches.filter((o) => o.region === "Europe").map((o) => o.city);
    await expect(cards).toHaveCount(europeanCities.length);

    await page.getByRole("link", { name: "View Details: Oceania" }).click();
    await expect(page).toHaveURL(/region=Oceania/);
    await expect(page.getByRole("button", { name: "Oceania", exact: true })).toHaveAttribute(
      "aria-pressed",
      "true",
    );
    await expect(cards).toHaveCount(
      OFFICES.filter((o) => o.region === "Oceania" && o.status === "active").length,
    );

    await page.getByRole("button", { name: "All Regions" }).click();
    await expect(cards).toHaveCount(all);
  });

  test("the help card opens the contact form with its topic", async ({ page }) => {
    await page.goto("/offices");
    await page.getByRole("link", { name: "Contact Global Team" }).click();
    await expect(page).toHaveURL(/\/contact\?topic=global-team/);
    await expect(page.getByLabel("Subject", { exact: true })).toHaveValue(
      "Message for the Global Team",
    );
    await page.goto("/offices");
    await expect(page.getByRole("link", { name: "Schedule Consultation" })).toHaveAttribute(
      "href",
      /\/contact\?topic=consultation/,
    );
  });
});

test.describe("contact form", () => {
  async function fillForm(
    page: Page,
    fields: { subject: string; email?: string; message: string },
  ) {
    await page.getByLabel("Name", { exact: true }).fill("Halima Yusuf");
    await page.getByLabel("Email", { exact: true }).fill(fields.email ?? "halima@example.com");
    await page.getByLabel("Subject", { exact: true }).fill(fields.subject);
    await page.getByLabel("Region (optional)").selectOption({ label: "Africa" });
    await page.getByLabel("Message", { exact: true }).fill(fields.message);
  }

  test("a message is delivered to the staff address and the form clears", async ({ page }) => {
    await asNewClient(page);
    const subject = unique("Workshop for our archive team");
    await page.goto("/contact");
    await fillForm(page, { subject, message: "Could you run a records workshop in Kano?" });
    await page.getByRole("button", { name: "Send Message" }).click();

    const toast = page.locator("[data-sonner-toast]").filter({ hasText: "Message sent!" });
    await expect(toast).toBeVisible();
    await expect(toast).toContainText(
      "Thank you for contacting us. We'll get back to you within 24 hours.",
    );
    await expect(page.getByLabel("Message", { exact: true })).toHaveValue("");
    await expect(page.getByLabel("Name", { exact: true })).toHaveValue("");

    const mail = await waitForMail(STAFF, new RegExp(subject));
    expect(mail.subject).toBe(`[Contact] ${subject}`);
    expect(mail.text).toContain("Could you run a records workshop in Kano?");
    expect(mail.text).toContain("halima@example.com");
    expect(mail.text).toContain("Region: Africa");
  });

  test("a submission with the honeypot filled looks sent but is dropped", async ({ page }) => {
    await asNewClient(page);
    const trap = unique("Cheap followers");
    await page.goto("/contact");
    await fillForm(page, { subject: trap, message: "Buy now" });
    await page.locator('input[name="website"]').evaluate((input: HTMLInputElement) => {
      input.value = "https://spam.example";
    });
    await page.getByRole("button", { name: "Send Message" }).click();
    await expect(page.getByText("Message sent!").first()).toBeVisible();

    // A genuine message sent afterwards arrives; the trapped one never does.
    const genuine = unique("Genuine question");
    await page.reload();
    await fillForm(page, { subject: genuine, message: "Is the summit hybrid?" });
    await page.getByRole("button", { name: "Send Message" }).click();
    await waitForMail(STAFF, new RegExp(genuine));
    expect(capturedMail().some((m) => m.subject.includes(trap))).toBe(false);
  });

  test("an invalid e-mail is refused and everything typed stays", async ({ page }) => {
    await asNewClient(page);
    const subject = unique("Typo in my address");
    const message = "Please keep this long message I typed with care.";
    await page.goto("/contact");
    await fillForm(page, { subject, email: "halima-at-example", message });
    await page.getByRole("button", { name: "Send Message" }).click();
    await expect(page.getByText("Please enter a valid email address")).toBeVisible();
    await expect(page.getByLabel("Message", { exact: true })).toHaveValue(message);
    await expect(page.getByLabel("Subject", { exact: true })).toHaveValue(subject);
    await expect(page.getByLabel("Email", { exact: true })).toHaveValue("halima-at-example");

    // The server says the same without JavaScript: 400 and the typed text in the page.
    const response = await page.request.post("/contact", {
      headers: OWN_ORIGIN,
      form: { name: "Halima", email: "halima-at-example", subject, message, region: "none" },
    });
    expect(response.status()).toBe(400);
    const html = await response.text();
    expect(html).toContain("Please enter a valid email address");
    expect(html).toContain(message);
    expect(html).toContain("halima-at-example");
  });

  test("a refused submission (too many from one client) keeps the text and says why", async ({
    page,
  }) => {
    const ip = await asNewClient(page);
    for (let i = 0; i < 5; i++) {
      const response = await page.request.post("/contact", {
        headers: { ...OWN_ORIGIN, "x-forwarded-for": ip },
        form: {
          name: "Burst",
          email: "burst@example.com",
          subject: unique("Burst"),
          message: "Filling the window",
          region: "none",
        },
      });
      expect(response.status()).toBe(200);
    }
    const message = "This sixth message must not be lost.";
    await page.goto("/contact");
    await fillForm(page, { subject: unique("Sixth"), message });
    await page.getByRole("button", { name: "Send Message" }).click();
    await expect(page.getByText(/Please wait \d+ minutes? and try again/)).toBeVisible();
    await expect(page.getByLabel("Message", { exact: true })).toHaveValue(message);
  });

  test("topic links pre-fill the subject and quick actions open the form", async ({ page }) => {
    await page.goto("/contact?topic=registration&event=Nairobi%20Data%20Summit");
    await expect(page.getByLabel("Subject", { exact: true })).toHaveValue(
      "Event Registration: Nairobi Data Summit",
    );
    await page.getByRole("link", { name: "Ask About Membership" }).click();
    await expect(page).toHaveURL(/topic=membership/);
    await expect(page.getByLabel("Subject", { exact: true })).toHaveValue("Membership Inquiry");
    await page.goto("/contact?topic=something-new");
    await expect(page.getByLabel("Subject", { exact: true })).toHaveValue("Something New");

    const main = page.getByRole("main");
    await expect(main.getByText("8:00 AM - 6:00 PM EAT", { exact: false })).toBeVisible();
    await expect(main.getByText("within 24 hours").first()).toBeVisible();
    await expect(main.getByRole("link", { name: "partnerships@kongamano.org" })).toHaveAttribute(
      "href",
      "mailto:partnerships@kongamano.org",
    );
    const regionOptions = await page
      .getByLabel("Region (optional)")
      .locator("option")
      .allTextContents();
    expect(regionOptions).toEqual([
      "Select a region",
      "Global Headquarters",
      "Africa",
      "Asia Pacific",
      "Europe",
      "Americas",
      "Oceania",
    ]);
  });

  test("the offices grid shows addresses to signed-in users only", async ({ page }) => {
    const anonymous = await (await page.request.get("/contact")).text();
    for (const secret of contactSecrets(activeBranches)) expect(anonymous).not.toContain(secret);
    await signIn(page, "user");
    await page.goto("/contact");
    await expect(page.getByText(london.address)).toBeVisible();
  });
});

test.describe("membership", () => {
  test("plans link to sign-up with the plan and the FAQ keeps one answer open", async ({
    page,
  }) => {
    await page.goto("/membership");
    for (const [plan, price] of [
      ["individual", "$99"],
      ["professional", "$299"],
      ["corporate", "$999"],
    ]) {
      const link = page.getByRole("link", { name: new RegExp(`Start Membership: ${plan}`, "i") });
      await expect(link).toHaveAttribute("href", `/membership/apply/${plan}`);
      await expect(page.getByText(price, { exact: true })).toBeVisible();
    }
    await expect(page.getByText("Most Popular")).toBeVisible();
    await expect(page.getByText("Up to 10 team members").first()).toBeVisible();

    // Native <details> (issue 17 §6): each question is the item's <summary>.
    const question = (text: string) => page.locator("summary").filter({ hasText: text });
    const cancel = question("Can I cancel my membership at any time?");
    const students = question("Do you offer discounts for students?");
    const cancelAnswer = page.getByText(/keep full access to your member benefits/);
    const studentAnswer = page.getByText(/Students receive a 50% discount/);
    await expect(cancelAnswer).toBeHidden();
    await cancel.click();
    await expect(cancelAnswer).toBeVisible();
    await expect(page.locator("details", { has: cancel })).toHaveAttribute("open", "");
    await students.click();
    await expect(studentAnswer).toBeVisible();
    await expect(cancelAnswer).toBeHidden();
    await students.click();
    await expect(studentAnswer).toBeHidden();

    await page.getByRole("link", { name: "Schedule Demo" }).click();
    await expect(page).toHaveURL(/\/contact\?topic=demo/);
    await expect(page.getByLabel("Subject", { exact: true })).toHaveValue(
      "Schedule a Membership Demo",
    );
  });
});

test.describe("advertising", () => {
  test("tabs switch by mouse and keyboard; buttons open the form with their topic", async ({
    page,
  }) => {
    await page.goto("/advertising");
    // Members and events are live counts (decision 0095), the others the spec's figures.
    for (const stat of ["50,000+", "25"]) {
      await expect(page.getByText(stat, { exact: true }).first()).toBeVisible();
    }
    const sponsorship = page.getByRole("tab", { name: "Event Sponsorship" });
    const digital = page.getByRole("tab", { name: "Digital Advertising" });
    await expect(sponsorship).toHaveAttribute("aria-selected", "true");
    await expect(page.getByText("$25,000")).toBeVisible();
    await expect(page.getByText("From $500/month")).toBeHidden();

    await digital.click();
    await expect(digital).toHaveAttribute("aria-selected", "true");
    await expect(page.getByText("From $500/month")).toBeVisible();
    await expect(page.getByText("728x90, 300x250, 160x600")).toBeVisible();
    await expect(page.getByText("$25,000")).toBeHidden();

    await digital.focus();
    await page.keyboard.press("ArrowLeft");
    await expect(sponsorship).toHaveAttribute("aria-selected", "true");
    await expect(sponsorship).toBeFocused();
    await expect(page.getByText("$25,000")).toBeVisible();
    await page.keyboard.press("ArrowRight");
    await expect(digital).toHaveAttribute("aria-selected", "true");

    await expect(page.getByRole("link", { name: "Request Media Kit" })).toHaveAttribute(
      "href",
      /\/contact\?topic=media-kit/,
    );
    await expect(
      page.getByRole("main").getByRole("link", { name: "advertising@kongamano.org" }),
    ).toHaveAttribute("href", "mailto:advertising@kongamano.org");
    await page.getByRole("link", { name: "Learn More about Website Banner" }).click();
    await expect(page.getByLabel("Subject", { exact: true })).toHaveValue("Website Banner Inquiry");
    await page.goto("/advertising");
    await page.getByRole("link", { name: "Get Started with Platinum sponsorship" }).click();
    await expect(page.getByLabel("Subject", { exact: true })).toHaveValue(
      "Platinum Sponsorship Inquiry",
    );
  });
});

test.describe("about, privacy and terms", () => {
  for (const [path, heading] of [
    ["/about", "About Kongamano"],
    ["/privacy", "Privacy Policy"],
    ["/terms", "Terms of Service"],
    ["/membership", "Membership that grows with you"],
    ["/advertising", "Advertising & Sponsorship"],
    ["/contact", "Contact Us"],
  ] as const) {
    test(`${path} has its heading, description and share tags`, async ({ page }) => {
      await page.goto(path);
      await expect(page.getByRole("heading", { level: 1, name: heading })).toBeVisible();
      await expect(page.locator('meta[name="description"]')).toHaveAttribute("content", /.{50,}/);
      await expect(page.locator('meta[property="og:url"]')).toHaveAttribute(
        "content",
        new RegExp(`${path}$`),
      );
      await expect(page.locator('meta[property="og:title"]')).toHaveAttribute("content", /\w/);
    });
  }

  test("about links to membership and contact", async ({ page }) => {
    await page.goto("/about");
    await expect(page.getByText("Founded in Nairobi", { exact: false }).first()).toBeVisible();
    await page.getByRole("link", { name: "Become a Member" }).click();
    await expect(page).toHaveURL("/membership");
    await page.goto("/about");
    await page.getByRole("main").getByRole("link", { name: "Contact Us" }).click();
    await expect(page).toHaveURL("/contact");
  });
});
