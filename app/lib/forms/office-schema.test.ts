import { expect, it } from "vitest";
import { parseForm } from "~/models/shared/test-support";
import {
  LATITUDE_INVALID,
  LONGITUDE_INVALID,
  OfficeFormSchema,
  parseDecimal,
} from "./office-schema";

const parse = (fields: Record<string, string>) => parseForm(OfficeFormSchema, fields);

const valid = { region: "Africa", city: "Nairobi", country: "Kenya" };

it("requires region, city and country with the spec's messages", () => {
  const result = parse({ region: "", city: " ", country: "" });
  expect(result.error).toMatchObject({
    region: ["Region is required"],
    city: ["City is required"],
    country: ["Country is required"],
  });
});

it("checks the e-mail only when one is given: 'Invalid email address'", () => {
  expect(parse({ ...valid, email: "not-an-email" }).error?.email).toEqual([
    "Invalid email address",
  ]);
  expect(parse({ ...valid, email: "a@b" }).error?.email).toEqual(["Invalid email address"]);
  const ok = parse({ ...valid, email: " nairobi@kongamano.org " });
  expect(ok.value?.email).toBe("nairobi@kongamano.org");
  const none = parse({ ...valid, email: "" });
  expect(none.value?.email).toBeNull();
});

it("parses latitude and longitude as decimals", () => {
  const result = parse({ ...valid, latitude: "-1.2921", longitude: "36,8219" });
  expect(result.status).toBe("success");
  expect(result.value!.latitude).toBeCloseTo(-1.2921);
  expect(result.value!.longitude).toBeCloseTo(36.8219);
  const empty = parse({ ...valid, latitude: "", longitude: "" });
  expect(empty.status === "success" && [empty.value!.latitude, empty.value!.longitude]).toEqual([
    null,
    null,
  ]);
});

it("refuses coordinates that are not decimals or off the globe, with a clear message", () => {
  for (const latitude of ["north", "1.2.3", "91", "-90.5", "1e3"]) {
    expect(parse({ ...valid, latitude }).error?.latitude).toEqual([LATITUDE_INVALID]);
  }
  for (const longitude of ["east", "180.01", "-181"]) {
    expect(parse({ ...valid, longitude }).error?.longitude).toEqual([LONGITUDE_INVALID]);
  }
  expect(parseDecimal(" 12 ")).toBe(12);
  expect(parseDecimal(".5")).toBe(0.5);
});

it("defaults the status to active and accepts inactive", () => {
  const result = parse(valid);
  expect(result.value?.status).toBe("active");
  const inactive = parse({ ...valid, status: "inactive" });
  expect(inactive.value?.status).toBe("inactive");
  expect(parse({ ...valid, status: "closed" }).error?.status).toEqual([
    "Status must be active or inactive",
  ]);
});
