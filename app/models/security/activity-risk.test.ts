import { describe, expect, it } from "vitest";
import { REPEATED_FAILURE_THRESHOLD, riskLevel, SECURITY_EVENT_PATTERN } from "./activity-risk";

// The pattern runs in PostgreSQL (`~*`); these constructs mean the same in JavaScript.
const isSecurityEvent = (action: string) => new RegExp(SECURITY_EVENT_PATTERN, "i").test(action);

describe("riskLevel", () => {
  it("rates forged card and PayPal webhooks high, like forged M-Pesa callbacks (issue 31)", () => {
    expect(riskLevel({ action: "paystack.webhook_forged" })).toBe("high");
    expect(riskLevel({ action: "paypal.webhook_forged" })).toBe("high");
    expect(riskLevel({ action: "mpesa.callback_forged" })).toBe("high");
    expect(isSecurityEvent("paystack.webhook_forged")).toBe(true);
    expect(isSecurityEvent("paypal.webhook_forged")).toBe(true);
  });

  it("rates a normal sign-in low", () => {
    expect(riskLevel({ action: "auth.sign_in" })).toBe("low");
    expect(riskLevel({ action: "auth.sign_out" })).toBe("low");
  });

  it("rates a single failed sign-in medium", () => {
    expect(
      riskLevel({ action: "auth.sign_in_failed", failuresForEmail: 1, failuresForIp: 1 }),
    ).toBe("medium");
  });

  it("rates repeated failures for one e-mail or one address high", () => {
    const n = REPEATED_FAILURE_THRESHOLD;
    expect(riskLevel({ action: "auth.sign_in_failed", failuresForEmail: n })).toBe("high");
    expect(riskLevel({ action: "auth.sign_in_failed", failuresForIp: n })).toBe("high");
    expect(riskLevel({ action: "auth.sign_in_failed", failuresForEmail: n - 1 })).toBe("medium");
  });

  it("rates a promotion to admin high and other role changes medium", () => {
    expect(riskLevel({ action: "user.role_change", details: { from: "user", to: "admin" } })).toBe(
      "high",
    );
    expect(riskLevel({ action: "user.role_change", details: { from: "admin", to: "user" } })).toBe(
      "medium",
    );
  });

  it("rates turning two-factor off high and on low", () => {
    expect(riskLevel({ action: "auth.two_factor_disabled" })).toBe("high");
    expect(riskLevel({ action: "auth.two_factor_enabled" })).toBe("low");
  });

  it("rates an admin invitation high and other invitations low", () => {
    expect(riskLevel({ action: "invitation.create", details: { role: "admin" } })).toBe("high");
    expect(riskLevel({ action: "invitation.create", details: { role: "editor" } })).toBe("low");
    expect(riskLevel({ action: "invitation.accepted" })).toBe("low");
  });

  it("rates password resets and deletions medium, routine edits low", () => {
    expect(riskLevel({ action: "auth.password_reset" })).toBe("medium");
    expect(riskLevel({ action: "account.delete" })).toBe("medium");
    expect(riskLevel({ action: "event.delete" })).toBe("medium");
    expect(riskLevel({ action: "event.update" })).toBe("low");
  });
});

describe("SECURITY_EVENT_PATTERN", () => {
  it.each([
    "auth.sign_in_failed",
    "user.role_change",
    "invitation.create",
    "invitation.revoke",
    "invitation.accepted",
    "auth.two_factor_enabled",
    "auth.two_factor_disabled",
    "auth.password_reset",
    "auth.password_change",
    "account.delete",
    "user.delete",
  ])("counts %s", (action) => {
    expect(isSecurityEvent(action)).toBe(true);
  });

  it.each(["auth.sign_in", "auth.sign_out", "event.create", "event.delete", "paper.update"])(
    "does not count %s",
    (action) => {
      expect(isSecurityEvent(action)).toBe(false);
    },
  );
});
