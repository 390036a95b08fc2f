import { describe, expect, it } from "vitest";
import { hasRole, normaliseRole } from "./roles";

describe("roles (spec §6)", () => {
  it("ranks admin > editor > user for a single role", () => {
    expect(hasRole("admin", "editor")).toBe(true);
    expect(hasRole("editor", "editor")).toBe(true);
    expect(hasRole("editor", "admin")).toBe(false);
    expect(hasRole("user", "editor")).toBe(false);
    expect(hasRole("user", "user")).toBe(true);
  });

  it("passes a list when the user has any of its roles (no rank)", () => {
    expect(hasRole("editor", ["user", "editor"])).toBe(true);
    expect(hasRole("admin", ["editor"])).toBe(false);
  });

  it("treats a missing or unknown role as user", () => {
    for (const value of [undefined, null, "", "superuser", 3, {}]) {
      expect(normaliseRole(value)).toBe("user");
      expect(hasRole(value, "editor")).toBe(false);
      expect(hasRole(value, "user")).toBe(true);
    }
  });
});
