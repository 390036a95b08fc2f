import { describe, expect, it } from "vitest";
import { parseForm } from "~/models/shared/test-support";
import { CategoryFormSchema, EventTypeFormSchema } from "./taxonomy-schema";

describe.each([
  ["category", CategoryFormSchema],
  ["type", EventTypeFormSchema],
] as const)("%s form", (_kind, schema) => {
  it("requires a name: 'Name is required'", () => {
    for (const name of ["", "   "]) {
      const result = parseForm(schema, { name, color: "#0B5FFF" });
      expect(result.status).toBe("error");
      expect(result.error?.name).toEqual(["Name is required"]);
    }
  });

  it("accepts 100 characters and refuses 101", () => {
    expect(parseForm(schema, { name: "a".repeat(100), color: "#0B5FFF" }).status).toBe("success");
    const tooLong = parseForm(schema, { name: "a".repeat(101), color: "#0B5FFF" });
    expect(tooLong.error?.name).toEqual(["Name must be at most 100 characters"]);
  });

  it.each(["", "0B5FFF", "#0B5FF", "#0B5FFFF", "#GGGGGG", "blue"])(
    "refuses the colour %j with 'Invalid color format'",
    (color) => {
      expect(parseForm(schema, { name: "conference", color }).error?.color).toEqual([
        "Invalid color format",
      ]);
    },
  );

  it("trims the name and stores empty optional text as null", () => {
    const result = parseForm(schema, {
      name: "  gala  ",
      color: " #0b5fff ",
      icon: "",
      description: "  ",
    });
    expect(result.value).toMatchObject({
      name: "gala",
      color: "#0b5fff",
      icon: null,
      description: null,
    });
  });
});

it("keeps the industry sector of a category", () => {
  const result = parseForm(CategoryFormSchema, {
    name: "Data Governance",
    color: "#123ABC",
    industrySector: "Banking",
  });
  expect(result.value?.industrySector).toBe("Banking");
});
