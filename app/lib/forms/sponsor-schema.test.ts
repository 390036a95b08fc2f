import { expect, it } from "vitest";
import { parseForm } from "~/models/shared/test-support";
import { INVALID_WEBSITE, SponsorFormSchema } from "./sponsor-schema";

const parse = (fields: Record<string, string>) => parseForm(SponsorFormSchema, fields);

it("requires a name: 'Name is required'", () => {
  expect(parse({ name: "", tier: "gold" }).error?.name).toEqual(["Name is required"]);
});

it("requires one of the four tiers", () => {
  for (const tier of ["bronze", "silver", "gold", "platinum"]) {
    expect(parse({ name: "Acme", tier }).status).toBe("success");
  }
  expect(parse({ name: "Acme" }).error?.tier).toEqual(["Tier is required"]);
  expect(parse({ name: "Acme", tier: "diamond" }).error?.tier).toEqual([
    "Tier must be bronze, silver, gold or platinum",
  ]);
});

it("accepts only http and https website addresses", () => {
  expect(parse({ name: "Acme", tier: "gold", websiteUrl: "https://acme.example" }).status).toBe(
    "success",
  );
  for (const websiteUrl of [
    "acme.example",
    "javascript:alert(1)",
    "ftp://acme.example",
    "https://",
  ]) {
    expect(parse({ name: "Acme", tier: "gold", websiteUrl }).error?.websiteUrl).toEqual([
      INVALID_WEBSITE,
    ]);
  }
  const empty = parse({ name: "Acme", tier: "gold", websiteUrl: "" });
  expect(empty.value?.websiteUrl).toBeNull();
});
