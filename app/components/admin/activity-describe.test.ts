import { describe, expect, it } from "vitest";
import { describeActivity, entityLabel } from "./activity-describe";

const entry = (action: string, details: Record<string, unknown> | null = null, entity = null) => ({
  action,
  entity,
  details,
});

describe("describeActivity", () => {
  it("reads role changes and invitations with role names", () => {
    expect(describeActivity(entry("user.role_change", { from: "user", to: "editor" }))).toBe(
      "Role changed from User to Editor",
    );
    expect(describeActivity(entry("invitation.create", { role: "admin" }))).toBe(
      "Invitation sent (Admin)",
    );
  });

  it("names sign-in events", () => {
    expect(describeActivity(entry("auth.sign_in"))).toBe("Signed in");
    expect(
      describeActivity(entry("auth.sign_in_failed", { reason: "INVALID_EMAIL_OR_PASSWORD" })),
    ).toBe("Failed sign-in");
    expect(describeActivity(entry("auth.sign_in_failed", { reason: "rate_limited" }))).toBe(
      "Failed sign-in (too many attempts)",
    );
    expect(describeActivity(entry("auth.two_factor_disabled"))).toBe(
      "Two-factor authentication turned off",
    );
  });

  it("falls back to the words of the action", () => {
    expect(describeActivity(entry("event_category.delete"))).toBe("Event category deleted");
    expect(describeActivity(entry("contact_message.delete"))).toBe("Contact message deleted");
    expect(describeActivity(entry("paper.mark_reviewed"))).toBe("Paper mark reviewed");
  });
});

describe("readable codes in the activity log", () => {
  it("turns every code the app writes into words", () => {
    expect(describeActivity(entry("event.fees_replace"))).toBe("Event fees saved");
    expect(describeActivity(entry("contact_message.delete"))).toBe("Contact message deleted");
    expect(describeActivity(entry("system.seed"))).toBe("Demo content loaded");
    expect(entityLabel("contact_message")).toBe("Contact message");
  });
});
