import { DrizzleQueryError } from "drizzle-orm/errors";
import { describe, expect, it } from "vitest";
import { dbErrorCode, eventSaveErrorMessage, eventSaveErrorStatus } from "./db-errors";

function pgError(code: string, message = "driver message") {
  return Object.assign(new Error(message), { code });
}

describe("eventSaveErrorMessage (spec §8)", () => {
  it.each([
    ["23505", "An event with this title already exists. Please choose a different title."],
    ["23503", "Invalid category or event type selected. Please refresh and try again."],
    ["42P01", "Database table not found. Please contact support."],
  ])("maps SQLSTATE %s", (code, expected) => {
    expect(eventSaveErrorMessage(pgError(code))).toBe(expected);
  });

  it("finds the code on the driver error drizzle wraps in `cause`", () => {
    const wrapped = new DrizzleQueryError(
      'insert into "events" ...',
      [],
      pgError("23505", 'duplicate key value violates unique constraint "events_title_unique"'),
    );
    expect(wrapped.message).toContain("Failed query");
    expect(dbErrorCode(wrapped)).toBe("23505");
    expect(eventSaveErrorMessage(wrapped)).toBe(
      "An event with this title already exists. Please choose a different title.",
    );
    expect(eventSaveErrorStatus(wrapped)).toBe(409);
  });

  it("maps messages mentioning permission or network", () => {
    expect(eventSaveErrorMessage(new Error("permission denied for table events"))).toBe(
      "You do not have permission to perform this action.",
    );
    expect(eventSaveErrorMessage(new Error("Network request failed"))).toBe(
      "Network error. Please check your connection and try again.",
    );
  });

  it("falls back to the message itself, or the generic text", () => {
    expect(eventSaveErrorMessage(new Error("Something specific broke"))).toBe(
      "Something specific broke",
    );
    expect(eventSaveErrorMessage(new DrizzleQueryError("select 1", [], new Error("boom")))).toBe(
      "boom",
    );
    expect(eventSaveErrorMessage(new Error(""))).toBe(
      "An unexpected error occurred. Please try again.",
    );
    expect(eventSaveErrorMessage(undefined)).toBe(
      "An unexpected error occurred. Please try again.",
    );
    expect(eventSaveErrorStatus(new Error("x"))).toBe(500);
  });
});
