import type { Page } from "@playwright/test";
import { TOTP } from "otpauth";
import {
  capturedMail,
  expect,
  OWN_ORIGIN,
  randomClientIp,
  signIn,
  test,
  untilFormHydrated,
  waitForMail,
} from "./fixtures";

const ACCESS_DENIED = "Access Denied: You don't have permission to access this area.";
const PASSWORD = "Sunny-Meadow-2026!";

function uniqueEmail(tag: string) {
  return `${tag}.${Date.now()}.${Math.floor(Math.random() * 1e6)}@example.test`;
}

function firstLink(text: string) {
  const match = text.match(/https?:\/\/\S+/);
  if (!match) throw new Error(`no link in: ${text}`);
  return match[0];
}

/** Signs out through the real endpoint: a plain form POST, as a browser without JS does it. */
async function signOut(page: Page) {
  const signedOut = page.waitForResponse(
    (r) => r.url().endsWith("/auth/sign-out") && r.request().method() === "POST",
  );
  await page.evaluate(() => {
    const form = document.createElement("form");
    form.method = "post";
    form.action = "/auth/sign-out";
    document.body.append(form);
    form.submit();
  });
  await signedOut;
  // The toast proves the new home page loaded (and consumed it) before the test goes on.
  await expect(page.getByText("Signed out", { exact: true })).toBeVisible();
  await expect(page).toHaveURL((url) => url.pathname === "/");
}

async function signInWithForm(page: Page, email: string, password: string) {
  await page.goto("/auth");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Sign In" }).click();
}

/** Creates an account through the Sign Up tab and opens the link of its verification mail. */
async function signUpAndVerify(page: Page, email: string, name: string) {
  await page.goto("/auth?tab=signup");
  await untilFormHydrated(page, "sign-up-form");
  await page.getByLabel("Full Name").fill(name);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await expect(page.getByTestId("password-strength")).toContainText("Strong");
  await page.getByLabel("Confirm Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Create Account" }).click();
  await expect(page.getByText("Account created!").first()).toBeVisible();
  await expect(
    page.getByText("Please check your email to verify your account.").first(),
  ).toBeVisible();
  const mail = await waitForMail(email, /Verify/);
  await page.goto(firstLink(mail.text));
  await page.waitForURL((url) => url.pathname === "/");
  await expect(page.getByText("Email verified")).toBeVisible();
}

test.describe("accounts", () => {
  test.beforeEach(async ({ page }) => {
    // Each test is its own client, so per-client limits never couple tests together.
    await page.setExtraHTTPHeaders({ "x-forwarded-for": randomClientIp() });
  });

  test("sign up, verify by mail, sign out, sign in again", async ({ page }) => {
    const email = uniqueEmail("newcomer");
    await signUpAndVerify(page, email, "Wanjiku Kamau");
    await page.goto("/profile");
    await expect(page.getByRole("heading", { level: 1, name: "Profile Settings" })).toBeVisible();
    await expect(page.getByLabel("Full Name")).toHaveValue("Wanjiku Kamau");

    await signOut(page);
    await expect(page.getByText("You have been signed out successfully.")).toBeVisible();
    await page.goto("/profile");
    await expect(page).toHaveURL(/\/auth\?redirectTo=%2Fprofile/);

    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
    await page.getByRole("button", { name: "Sign In" }).click();
    await page.waitForURL((url) => url.pathname === "/profile");
    await expect(page.getByText("Welcome back!")).toBeVisible();
    await expect(page.getByText("You have been signed in successfully.")).toBeVisible();

    // A signed-in visitor at /auth goes home.
    await page.goto("/auth");
    await expect(page).toHaveURL((url) => url.pathname === "/");
  });

  test("a password typed before the Sign Up form's code arrives is measured once it does", async ({
    page,
  }) => {
    // The form's code is held back until the fields are filled: the server's HTML takes the
    // typing, as on a slow phone, and the meter must not ignore it when React takes over.
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route(/\/assets\/auth-sign-up-form-[^/]+\.js$/, async (route) => {
      await held;
      await route.continue();
    });
    await page.goto("/auth?tab=signup");
    await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
    await expect(page.getByTestId("password-strength")).toHaveCount(0);
    release();
    await untilFormHydrated(page, "sign-up-form");
    await expect(page.getByTestId("password-strength")).toContainText("Strong");
  });

  test("differing passwords stop the sign-up silently", async ({ page }) => {
    const email = uniqueEmail("mismatch");
    await page.goto("/auth?tab=signup");
    await untilFormHydrated(page, "sign-up-form");
    await page.getByLabel("Full Name").fill("Silent Stop");
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
    await page.getByLabel("Confirm Password").fill(`${PASSWORD}x`);
    let posted = false;
    page.on("request", (r) => {
      if (r.method() === "POST") posted = true;
    });
    // The form's submit event, once every handler has had its turn: was it stopped?
    await page.evaluate(() => {
      document.getElementById("sign-up-form")?.addEventListener("submit", (event) => {
        setTimeout(() =>
          document.body.setAttribute("data-sign-up-stopped", `${event.defaultPrevented}`),
        );
      });
    });
    await page.getByRole("button", { name: "Create Account" }).click();
    await expect(page.locator("body")).toHaveAttribute("data-sign-up-stopped", "true");
    expect(posted).toBe(false);
    await expect(page.getByText("Account created!")).toHaveCount(0);
    await expect(page.getByRole("alert")).toHaveCount(0);
  });

  test("an unverified account gets the wrong-password answer (no enumeration), with a way to ask for a new verification mail", async ({
    page,
  }) => {
    const email = uniqueEmail("unverified");
    await page.goto("/auth?tab=signup");
    await untilFormHydrated(page, "sign-up-form");
    await page.getByLabel("Full Name").fill("Not Yet Verified");
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
    await page.getByLabel("Confirm Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Create Account" }).click();
    await expect(page.getByText("Account created!").first()).toBeVisible();
    await waitForMail(email, /Verify/);
    const before = capturedMail().filter((m) => m.to.includes(email)).length;

    await signInWithForm(page, email, PASSWORD);
    await expect(
      page.getByText("open the link in the verification email first").first(),
    ).toBeVisible();
    await page.getByRole("button", { name: "Resend verification email" }).click();
    await expect(page.getByText("a new link is on its way")).toBeVisible();
    await expect
      .poll(() => capturedMail().filter((m) => m.to.includes(email)).length)
      .toBeGreaterThan(before);
  });

  test("'Forgot password?' mails a one-time link that sets a new password", async ({ page }) => {
    const email = uniqueEmail("forgetful");
    await signUpAndVerify(page, email, "Forgetful Person");
    await signOut(page);
    await page.goto("/auth");
    await page.getByRole("link", { name: "Forgot password?" }).click();
    await page.getByLabel("Email").fill(email);
    await page.getByRole("button", { name: "Send reset link" }).click();
    await expect(page.getByText("Check your email")).toBeVisible();
    const mail = await waitForMail(email, /Reset/);
    await page.goto(firstLink(mail.text));
    await expect(page).toHaveURL(/\/auth\/reset-password\?token=/);
    const newPassword = "Brand-New-Sunrise-77";
    await page.getByLabel("New Password", { exact: true }).fill(newPassword);
    await page.getByLabel("Confirm New Password").fill(newPassword);
    await page.getByRole("button", { name: "Reset Password" }).click();
    await page.waitForURL((url) => url.pathname === "/auth");
    await expect(page.getByText("Password updated")).toBeVisible();
    await signInWithForm(page, email, newPassword);
    await page.waitForURL((url) => url.pathname === "/");
    await expect(page.getByText("Welcome back!")).toBeVisible();
    // The link worked once.
    await signOut(page);
    await page.goto(firstLink(mail.text));
    await expect(page.getByText("This link is invalid or has expired")).toBeVisible();
  });

  test("a wrong password shows 'Sign in failed' and keeps the e-mail", async ({ page }) => {
    await signInWithForm(page, "member@kongamano.org", "not-the-password");
    await expect(page.getByText("Sign in failed").first()).toBeVisible();
    await expect(page.getByLabel("Email")).toHaveValue("member@kongamano.org");
    await expect(page).toHaveURL(/\/auth/);
  });

  test("a client failing for an account gets 429 while the owner still signs in from elsewhere", async ({
    page,
    baseURL,
  }) => {
    const email = uniqueEmail("target");
    await signUpAndVerify(page, email, "Targeted Person");
    await signOut(page);
    const attacker = randomClientIp();
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) {
      const response = await page.request.post("/api/auth/sign-in/email", {
        data: { email, password: `guess-${i}-guess` },
        headers: { "x-forwarded-for": attacker, origin: baseURL ?? "" },
      });
      statuses.push(response.status());
      if (i === 3) {
        expect(await response.json()).toMatchObject({
          message: expect.stringMatching(/^Too many attempts\. Please wait \d+ seconds? and try/),
        });
      }
    }
    expect(statuses).toEqual([401, 401, 401, 429]);
    // The owner, from another address, is not locked out.
    const owner = await page.request.post("/api/auth/sign-in/email", {
      data: { email, password: PASSWORD },
      headers: { "x-forwarded-for": randomClientIp(), origin: baseURL ?? "" },
    });
    expect(owner.status()).toBe(200);
    // The attacker's form says so too.
    await page.context().clearCookies();
    await page.setExtraHTTPHeaders({ "x-forwarded-for": attacker });
    await signInWithForm(page, email, "another-guess");
    await expect(
      page.getByText(/Too many attempts\. Please wait \d+ seconds? and try again\./).first(),
    ).toBeVisible();
  });

  test("as a user: the admin area is refused with the Access Denied toast, admin POSTs get 403", async ({
    page,
  }) => {
    await signIn(page, "user");
    await page.goto("/admin");
    await expect(page).toHaveURL((url) => url.pathname === "/");
    await expect(page.getByText(ACCESS_DENIED)).toBeVisible();
    const post = await page.request.post("/admin/events/new", {
      headers: OWN_ORIGIN,
      form: { title: "Should not exist", location: "Nowhere" },
    });
    expect(post.status()).toBe(403);
    // The profile shows the user's own role.
    await page.goto("/profile");
    await expect(page.getByTestId("profile-role")).toHaveText("User");
  });

  test("as an editor: users, security and offices are refused", async ({ page }) => {
    await signIn(page, "editor");
    for (const path of ["/admin/users", "/admin/security", "/admin/offices"]) {
      await page.goto(path);
      await expect(page).toHaveURL((url) => url.pathname === "/");
      await expect(page.getByText(ACCESS_DENIED).first()).toBeVisible();
    }
  });

  test("anonymous visitors: /profile and /admin go to /auth, other admin screens to /", async ({
    page,
  }) => {
    await page.goto("/profile");
    await expect(page).toHaveURL(/\/auth\?redirectTo=%2Fprofile$/);
    await page.goto("/admin");
    await expect(page).toHaveURL(/\/auth/);
    await page.goto("/admin/events");
    await expect(page).toHaveURL((url) => url.pathname === "/");
  });

  test("session cookies are HttpOnly and SameSite=Lax", async ({ page }) => {
    await signIn(page, "user");
    const cookies = await page.context().cookies();
    const session = cookies.find((c) => c.name.endsWith("kongamano.session_token"));
    expect(session).toBeTruthy();
    expect(session?.httpOnly).toBe(true);
    expect(session?.sameSite).toBe("Lax");
    expect(session?.path).toBe("/");
  });

  test("TOTP enrolment, a replayed code refused, recovery codes, then real account deletion", async ({
    page,
    baseURL,
  }) => {
    const email = uniqueEmail("totp");
    await signUpAndVerify(page, email, "Otieno Two-Factor");

    await page.goto("/profile#two-factor");
    const section = page.locator("#two-factor");
    await section.getByLabel("Current Password").fill(PASSWORD);
    await section.getByRole("button", { name: "Set up two-factor authentication" }).click();
    await expect(section.getByRole("img", { name: /QR code/ })).toBeVisible();
    const secret = ((await section.getByTestId("totp-secret").textContent()) ?? "").replace(
      /\s+/g,
      "",
    );
    const totp = new TOTP({ secret, issuer: "Kongamano", label: email });
    const firstCode = totp.generate();
    await section.getByLabel("Authentication code").fill(firstCode);
    await section.getByRole("button", { name: "Confirm and turn on" }).click();
    const codes = section.getByRole("list", { name: "Recovery codes" }).getByRole("listitem");
    await expect(codes).toHaveCount(10);
    const recovery = ((await codes.first().textContent()) ?? "").trim();
    await page.reload();
    await expect(page.getByRole("list", { name: "Recovery codes" })).toHaveCount(0);

    await signOut(page);
    await signInWithForm(page, email, PASSWORD);
    await page.waitForURL(/\/auth\/two-factor/);
    // The code already used at enrolment is refused.
    await page.getByLabel("Authentication code").fill(firstCode);
    await page.getByRole("button", { name: "Verify" }).click();
    await expect(page.getByText("This code has already been used").first()).toBeVisible();
    // A recovery code works.
    await page.getByRole("link", { name: "Use a recovery code instead" }).click();
    await page.getByLabel("Recovery code").fill(recovery);
    await page.getByRole("button", { name: "Verify" }).click();
    await page.waitForURL((url) => url.pathname === "/");
    await expect(page.getByText("Welcome back!")).toBeVisible();

    // Delete the account: dialog, current password, gone for real.
    await page.goto("/profile");
    await page.getByRole("link", { name: "Delete Account" }).click();
    const dialog = page.getByRole("alertdialog");
    await expect(dialog.getByText("Delete your account?")).toBeVisible();
    await dialog.getByLabel("Current Password").fill(PASSWORD);
    await dialog.getByRole("button", { name: "Delete Account" }).click();
    await page.waitForURL((url) => url.pathname === "/");
    await expect(page.getByText("Your account has been deleted.")).toBeVisible();

    // The account no longer exists: sign-in fails and the address can sign up afresh.
    await signInWithForm(page, email, PASSWORD);
    await expect(page.getByText("Invalid email or password.").first()).toBeVisible();
    const again = await page.request.post("/api/auth/sign-up/email", {
      data: { email, password: PASSWORD, name: "Returning" },
      headers: { "x-forwarded-for": randomClientIp(), origin: baseURL ?? "" },
    });
    expect(again.ok()).toBe(true);
    // A verification mail for a NEW account (an existing one would get the 'tried to' notice).
    await expect
      .poll(() =>
        capturedMail().some(
          (m) => m.to.includes(email) && /Verify/.test(m.subject) && m.text.includes("Returning"),
        ),
      )
      .toBe(true);
  });
});

test.describe("accounts without JavaScript", () => {
  test.use({ javaScriptEnabled: false, extraHTTPHeaders: { "x-forwarded-for": randomClientIp() } });

  test("the forms work as plain HTML forms", async ({ page }) => {
    // Wrong password: the server answers with the message and keeps the e-mail.
    await signInWithForm(page, "editor@kongamano.org", "no-script-wrong");
    await expect(page.getByText("Sign in failed").first()).toBeVisible();
    await expect(page.getByLabel("Email")).toHaveValue("editor@kongamano.org");

    // The Sign Up tab is a link; differing passwords are refused silently by the server.
    await page.getByRole("tab", { name: "Sign Up" }).click();
    await expect(page).toHaveURL(/tab=signup/);
    const email = uniqueEmail("noscript");
    await page.getByLabel("Full Name").fill("No Script");
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
    await page.getByLabel("Confirm Password").fill(`${PASSWORD}-other`);
    await page.getByRole("button", { name: "Create Account" }).click();
    await expect(page.getByLabel("Full Name")).toHaveValue("No Script");
    await expect(page.getByText("Account created!")).toHaveCount(0);
    await expect(page.getByRole("alert")).toHaveCount(0);

    // Matching passwords: the account is created and the mail goes out.
    await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
    await page.getByLabel("Confirm Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Create Account" }).click();
    await expect(page.getByText("Please check your email to verify your account.")).toBeVisible();
    await waitForMail(email, /Verify/);
  });
});
