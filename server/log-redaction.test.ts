import { describe, expect, it } from "vitest";
import { redactUrl } from "./log-redaction";

describe("redactUrl", () => {
  it("hides the tokens of reset, verification and invitation links", () => {
    expect(
      redactUrl("/api/auth/reset-password/AbC123xyz?callbackURL=%2Fauth%2Freset-password"),
    ).toBe("/api/auth/reset-password/[redacted]?callbackURL=%2Fauth%2Freset-password");
    expect(redactUrl("/api/auth/verify-email?token=eyJhbGc.eyJ.sig&callbackURL=%2F")).toBe(
      "/api/auth/verify-email?token=[redacted]&callbackURL=%2F",
    );
    expect(redactUrl("/auth/reset-password?token=AbC123xyz")).toBe(
      "/auth/reset-password?token=[redacted]",
    );
    expect(redactUrl("/invite/0f1e2d3c4b5a")).toBe("/invite/[redacted]");
  });

  it("leaves other URLs as they are", () => {
    expect(redactUrl("/events?q=data&page=2")).toBe("/events?q=data&page=2");
    expect(redactUrl("/papers/open-data-in-kenya")).toBe("/papers/open-data-in-kenya");
    expect(redactUrl(undefined)).toBeUndefined();
  });
});
