import type { Page } from "@playwright/test";
import { expect, signIn, test } from "./fixtures";

// Its tests only read the demo content: they spread over both workers (decision 0088).
test.describe.configure({ mode: "parallel" });

const desktop = { width: 1280, height: 900 };

test.describe("app shell on wide screens", () => {
  test.use({ viewport: desktop });

  test("unknown paths show the 404 screen with a way home", async ({ page }) => {
    const response = await page.goto("/no-such-page");
    expect(response?.status()).toBe(404);
    await expect(page.getByText("Oops! Page not found")).toBeVisible();
    await page.getByRole("link", { name: "Return to Home" }).click();
    await expect(page).toHaveURL("/");
  });

  test("top navigation has the spec's items and links", async ({ page }) => {
    await page.goto("/");
    const nav = page.getByRole("navigation", { name: "Main" });
    const expected: [string, string][] = [
      ["Home", "/"],
      ["Events", "/events"],
      ["Research Papers", "/papers"],
      ["About", "/about"],
      ["Global Offices", "/offices"],
      ["Contact", "/contact"],
    ];
    for (const [name, href] of expected) {
      await expect(nav.getByRole("link", { name, exact: true })).toHaveAttribute("href", href);
    }
    const banner = page.getByRole("banner");
    await expect(banner.getByRole("link", { name: "Join Network" })).toHaveAttribute(
      "href",
      "/membership",
    );
    await expect(banner.getByRole("link", { name: "Sign In" })).toHaveAttribute("href", "/auth");
    await expect(banner.getByRole("button", { name: "Account" })).toHaveCount(0);

    await nav.getByRole("link", { name: "Research Papers" }).click();
    await expect(page).toHaveURL("/papers");
    await expect(nav.getByRole("link", { name: "Research Papers" })).toHaveAttribute(
      "aria-current",
      "page",
    );
  });

  test("hovering Events opens the mega menu with live types and categories", async ({ page }) => {
    await page.goto("/");
    const menu = page.getByTestId("mega-menu");
    await expect(menu).toHaveCount(0);
    await hoverEvents(page);
    await expect(menu).toBeVisible();

    const quick: [string, string][] = [
      ["All Events", "/events"],
      ["Upcoming", "/events?filter=upcoming"],
      ["Featured", "/events?filter=featured"],
      ["Virtual Events", "/events?format=virtual"],
    ];
    for (const [name, href] of quick) {
      await expect(menu.getByRole("link", { name, exact: true })).toHaveAttribute("href", href);
    }

    // Event types: the first six of the eight, capitalised, each with a count badge.
    const types = menu.getByRole("region", { name: "Event Types" }).getByRole("listitem");
    await expect(types).toHaveCount(6);
    const conference = menu.getByRole("link", { name: /^Conference\s*,\s*\d+ events?$/ });
    await expect(conference).toHaveAttribute("href", "/events?type=conference");
    const conferenceName = (await conference.textContent()) ?? "";
    expect(Number(/(\d+) events?$/.exec(conferenceName)?.[1])).toBeGreaterThan(0);
    await expect(menu.getByRole("link", { name: "View all types" })).toBeVisible();

    // Categories: six with colour dots and counts; names URL-encoded in the link.
    const categories = menu.getByRole("region", { name: "Categories" });
    await expect(categories.getByRole("listitem")).toHaveCount(6);
    await expect(
      categories.getByRole("link", { name: /^Cybersecurity & Privacy\s*,\s*\d+ events?$/ }),
    ).toHaveAttribute("href", "/events?category=Cybersecurity%20%26%20Privacy");
    await expect(menu.getByRole("link", { name: "View all categories" })).toBeVisible();
    await expect(menu.getByRole("link", { name: "View All Events" })).toHaveAttribute(
      "href",
      "/events",
    );

    // Leaving closes it.
    await page.mouse.move(640, 800);
    await expect(menu).toHaveCount(0);
  });

  test("the mega menu opens from the keyboard and closes with Escape", async ({ page }) => {
    await page.goto("/");
    const toggle = page.getByRole("button", { name: "Events menu" });
    await expect(toggle).toHaveAttribute("aria-expanded", "false");
    await toggle.focus();
    await page.keyboard.press("Enter");
    const menu = page.getByTestId("mega-menu");
    await expect(menu).toBeVisible();
    await expect(toggle).toHaveAttribute("aria-expanded", "true");
    await page.keyboard.press("Tab");
    await expect(menu.getByRole("link", { name: "All Events", exact: true })).toBeFocused();
    await page.keyboard.press("Escape");
    await expect(menu).toHaveCount(0);
    await expect(toggle).toBeFocused();
  });

  test("mega menu search goes to the events page with the trimmed term", async ({ page }) => {
    await page.goto("/");
    await hoverEvents(page);
    const search = page.getByRole("searchbox", { name: "Search events" });

    // Empty (or blank) input does nothing.
    await search.fill("   ");
    await search.press("Enter");
    // A navigation starts within the key press (the router goes "loading" before it fetches):
    // none began, rather than none finished within some wait.
    expect(
      await page.evaluate(() => {
        const router = (
          window as unknown as {
            __reactRouterDataRouter: { state: { navigation: { state: string } } };
          }
        ).__reactRouterDataRouter;
        return router.state.navigation.state;
      }),
    ).toBe("idle");
    await expect(page).toHaveURL("/");

    await search.fill("  data governance  ");
    await search.press("Enter");
    await expect(page).toHaveURL("/events?search=data%20governance");
    // The route change closed the menu.
    await expect(page.getByTestId("mega-menu")).toHaveCount(0);
  });

  test("a mega menu link navigates and closes the menu", async ({ page }) => {
    await page.goto("/");
    await hoverEvents(page);
    await page.getByTestId("mega-menu").getByRole("link", { name: "Featured" }).click();
    await expect(page).toHaveURL("/events?filter=featured");
    await expect(page.getByTestId("mega-menu")).toHaveCount(0);
  });

  for (const [role, visible, hidden] of [
    ["user", ["Profile Settings"], ["Admin Dashboard", "Security Center"]],
    ["editor", ["Profile Settings", "Admin Dashboard"], ["Security Center"]],
    ["admin", ["Profile Settings", "Admin Dashboard", "Security Center"], []],
  ] as const) {
    test(`the account dropdown lists the items of the ${role} role`, async ({ page }) => {
      await signIn(page, role);
      await page.goto("/");
      const banner = page.getByRole("banner");
      await expect(banner.getByRole("link", { name: "Sign In" })).toHaveCount(0);
      const menu = page.getByRole("menu");
      // The dropdown loads on demand after hydration: retry until the click opens it.
      await page.waitForLoadState("networkidle");
      await expect(async () => {
        if ((await menu.count()) === 0)
          await banner.getByRole("button", { name: "Account" }).click();
        await expect(menu).toBeVisible({ timeout: 2_000 });
      }).toPass({ timeout: 20_000 });
      const hrefs: Record<string, string> = {
        "Profile Settings": "/profile",
        "Admin Dashboard": "/admin",
        "Security Center": "/admin/security",
      };
      for (const name of visible) {
        await expect(menu.getByRole("menuitem", { name })).toHaveAttribute("href", hrefs[name]);
      }
      for (const name of hidden) {
        await expect(menu.getByRole("menuitem", { name })).toHaveCount(0);
      }
      await expect(menu.getByRole("menuitem", { name: "Sign Out" })).toBeVisible();
      await page.keyboard.press("Escape");
      await expect(menu).toHaveCount(0);
    });
  }

  test("a toast sent by the server with a redirect is shown", async ({ page }) => {
    await signIn(page, "user");
    await page.goto("/admin");
    await expect(page).toHaveURL("/");
    await expect(
      page.getByText("Access Denied: You don't have permission to access this area."),
    ).toBeVisible();
  });

  test("the footer carries quick links, event types, head office and legal links", async ({
    page,
  }) => {
    await page.goto("/");
    const footer = page.getByRole("contentinfo");
    const events = footer.getByRole("navigation", { name: "Events" });
    for (const [name, type] of [
      ["Conferences", "conference"],
      ["Exhibitions", "exhibition"],
      ["Galas", "gala"],
      ["Vendor Events", "vendor"],
    ]) {
      await expect(events.getByRole("link", { name })).toHaveAttribute(
        "href",
        `/events?type=${type}`,
      );
    }
    await expect(footer.getByRole("navigation", { name: "Quick Links" })).toBeVisible();
    await expect(footer.locator("address")).toContainText("Nairobi, Kenya");
    await expect(footer.getByRole("link", { name: /^\+254/ })).toHaveAttribute(
      "href",
      /^tel:\+254/,
    );
    await expect(footer.getByRole("link", { name: /@kongamano\.org$/ })).toHaveAttribute(
      "href",
      /^mailto:/,
    );
    await expect(footer.getByRole("link", { name: "Privacy Policy" })).toHaveAttribute(
      "href",
      "/privacy",
    );
    await expect(footer.getByRole("link", { name: "Terms of Service" })).toHaveAttribute(
      "href",
      "/terms",
    );
    await expect(footer.getByText(/Designed and built by/)).toBeVisible();
  });

  test("a route change scrolls to the top", async ({ page }) => {
    await page.goto("/");
    await page.evaluate(() =>
      window.scrollTo({ top: document.body.scrollHeight, behavior: "instant" }),
    );
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(200);
    await page
      .getByRole("contentinfo")
      .getByRole("navigation", { name: "Quick Links" })
      .getByRole("link", { name: "Membership" })
      .click();
    await expect(page).toHaveURL("/membership");
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
  });

  test("the chat assistant replies after about a second and refuses empty input", async ({
    page,
  }) => {
    await page.goto("/");
    await page.getByRole("button", { name: "Open chat assistant" }).click();
    const panel = page.getByRole("region", { name: "Kongamano Assistant" });
    await expect(panel).toBeVisible();
    const box = await panel.boundingBox();
    expect(box?.width).toBeCloseTo(384, -1); // 24rem
    await expect(panel.getByText(/Hello! I'm the Kongamano assistant/)).toBeVisible();

    const input = panel.getByRole("textbox", { name: "Type your message" });
    const send = panel.getByRole("button", { name: "Send" });
    await expect(send).toBeDisabled();
    await input.fill("    ");
    await expect(send).toBeDisabled();
    await input.press("Enter");
    await expect(panel.locator("[data-from=user]")).toHaveCount(0);

    await input.fill("Which events are coming up?");
    await expect(send).toBeEnabled();
    const sentAt = Date.now();
    await send.click();
    await expect(panel.locator("[data-from=user]")).toHaveText(/Which events are coming up\?/);
    await expect(input).toHaveValue("");
    const reply = panel.locator("[data-from=bot]").nth(1);
    await expect(reply).toHaveCount(0);
    await expect(reply).toContainText("Events page", { timeout: 3_000 });
    expect(Date.now() - sentAt).toBeGreaterThanOrEqual(900);
    await expect(reply.getByRole("link", { name: "Browse events" })).toHaveAttribute(
      "href",
      "/events",
    );

    await input.fill("hello");
    await input.press("Enter");
    await expect(panel.locator("[data-from=bot]").nth(2)).toContainText("I can help you with:");

    await panel.getByRole("button", { name: "Close chat" }).click();
    await expect(panel).toBeHidden();
  });
});

test.describe("app shell on a phone", () => {
  test.use({ viewport: { width: 375, height: 740 } });

  test("the navigation is a 300px panel sliding in from the right", async ({ page }) => {
    await page.goto("/");
    await expect(page.getByRole("navigation", { name: "Main" })).toBeHidden();
    await page.getByRole("button", { name: "Open menu" }).click();
    const panel = page.getByRole("dialog", { name: "Menu" });
    await expect(panel).toBeVisible();
    const box = await panel.boundingBox();
    expect(box?.width).toBe(300);
    expect((box?.x ?? 0) + (box?.width ?? 0)).toBe(375);

    const nav = panel.getByRole("navigation", { name: "Mobile" });
    for (const name of [
      "Home",
      "Events",
      "Research Papers",
      "About",
      "Global Offices",
      "Contact",
    ]) {
      await expect(nav.getByRole("link", { name, exact: true })).toBeVisible();
    }
    await expect(panel.getByRole("link", { name: "Join Network" })).toHaveAttribute(
      "href",
      "/membership",
    );
    await expect(panel.getByRole("link", { name: "Sign In" })).toHaveAttribute("href", "/auth");

    await nav.getByRole("link", { name: "Research Papers" }).click();
    await expect(page).toHaveURL("/papers");
    await expect(panel).toHaveCount(0);
  });

  test("the mobile panel lists an admin's account items", async ({ page }) => {
    await signIn(page, "admin");
    await page.goto("/");
    await page.getByRole("button", { name: "Open menu" }).click();
    const panel = page.getByRole("dialog", { name: "Menu" });
    for (const name of ["Profile Settings", "Admin Dashboard", "Security Center"]) {
      await expect(panel.getByRole("link", { name })).toBeVisible();
    }
    await expect(panel.getByRole("button", { name: "Sign Out" })).toBeVisible();
    await expect(panel.getByRole("link", { name: "Sign In" })).toHaveCount(0);
    await page.keyboard.press("Escape");
    await expect(panel).toHaveCount(0);
  });
});

async function hoverEvents(page: Page) {
  await page
    .getByRole("navigation", { name: "Main" })
    .getByRole("link", { name: "Events" })
    .hover();
}

/** The main menu's Events link is followed by the client router, without a new document. */
async function expectClientNavigationToEvents(page: Page) {
  await page.evaluate(() => {
    (window as unknown as { stillHere: boolean }).stillHere = true;
  });
  await page
    .getByRole("navigation", { name: "Main" })
    .getByRole("link", { name: "Events" })
    .click();
  await expect(page).toHaveURL("/events");
  expect(await page.evaluate(() => (window as unknown as { stillHere?: boolean }).stillHere)).toBe(
    true,
  );
}

test.describe("script loading", () => {
  test("scripts load after the first paint, and the page then hydrates without errors", async ({
    page,
  }) => {
    const errors: string[] = [];
    page.on("console", (message) => {
      if (message.type() === "error") errors.push(message.text());
    });
    page.on("pageerror", (error) => errors.push(error.message));
    await page.goto("/papers");
    // The inline module React Router writes has run: the route modules are registered.
    await page.waitForFunction(() => "__reactRouterRouteModules" in window);
    const timing = await page.evaluate(() => ({
      paint: performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? -1,
      scripts: performance
        .getEntriesByType("resource")
        .filter((entry) => /\/assets\/[^/]+\.js$/.test(entry.name))
        .map((entry) => entry.startTime),
    }));
    expect(timing.paint).toBeGreaterThan(0);
    expect(timing.scripts.length).toBeGreaterThan(5);
    expect(Math.min(...timing.scripts)).toBeGreaterThanOrEqual(timing.paint);

    // Hydrated: a link is followed by the client router, without loading a new document.
    await expectClientNavigationToEvents(page);
    expect(errors).toEqual([]);
  });
});

test.describe("page cache in the browser", () => {
  test("a page from the cache runs its scripts under its hash-based policy, without violations", async ({
    page,
  }) => {
    // The entry is made beside the first response: ask until the server answers from it.
    await expect
      .poll(async () => (await page.request.get("/about")).headers()["x-cache"])
      .toBe("HIT");
    const errors: string[] = [];
    page.on("console", (message) => {
      if (message.type() === "error") errors.push(message.text());
    });
    page.on("pageerror", (error) => errors.push(error.message));
    const response = await page.goto("/about");
    const headers = response?.headers() ?? {};
    expect(headers["x-cache"]).toBe("HIT");
    expect(headers["content-encoding"]).toBe("br");
    const csp = headers["content-security-policy"] ?? "";
    expect(csp).toMatch(/script-src ('sha256-[A-Za-z0-9+/=]+' )+'strict-dynamic'/);
    expect(csp).not.toContain("nonce-");
    expect(await page.locator("[nonce]").count()).toBe(0);

    // Hydrated (the fixture's goto waited for it): a link is followed by the client router.
    await expectClientNavigationToEvents(page);
    expect(errors).toEqual([]);
  });
});
