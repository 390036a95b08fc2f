import { beforeAll, describe, expect, it } from "vitest";
import { offices } from "~/db/schema";
import { useTestDatabase } from "../../../tests/helpers/db";
import {
  getOfficeDirectory,
  listActiveOfficesWithContacts,
  listPublicOfficeLocations,
} from "./queries.server";

const CONTACT_KEYS = ["address", "phone", "email"];

describe("office queries", () => {
  const database = useTestDatabase();

  beforeAll(async () => {
    await database.db.insert(offices).values([
      {
        region: "Europe",
        city: "London",
        country: "United Kingdom",
        address: "1 Fleet Street, London",
        phone: "+44 20 7946 0000",
        email: "london@kongamano.test",
        latitude: 51.5,
        longitude: -0.12,
      },
      {
        region: "Africa",
        city: "Nairobi",
        country: "Kenya",
        address: "Waiyaki Way, Nairobi",
        phone: "+254 20 765 4321",
        email: "nairobi@kongamano.test",
        latitude: -1.28,
        longitude: 36.82,
        openingHours: "Mon–Fri 08:00–18:00 EAT\nSat 09:00–13:00 EAT",
        services: ["Conferences", "Training"],
      },
      {
        region: "Africa",
        city: "Lagos",
        country: "Nigeria",
        address: "Victoria Island, Lagos",
        phone: "+234 1 000 0000",
        email: "lagos@kongamano.test",
      },
      {
        region: "Asia",
        city: "Closed City",
        country: "Nowhere",
        address: "Secret Road 1",
        phone: "+1 555 0100",
        email: "closed@kongamano.test",
        status: "inactive",
      },
    ]);
  });

  it("gives visitors only id, region, city, country, coordinates, hours and services of active offices", async () => {
    const rows = await listPublicOfficeLocations();
    expect(rows.map((o) => o.city)).toEqual(["Lagos", "Nairobi", "London"]);
    for (const row of rows) {
      expect(Object.keys(row).sort()).toEqual(
        [
          "city",
          "country",
          "id",
          "latitude",
          "longitude",
          "openingHours",
          "region",
          "services",
        ].sort(),
      );
      for (const key of CONTACT_KEYS) expect(row).not.toHaveProperty(key);
    }
    const serialised = JSON.stringify(rows);
    expect(serialised).not.toMatch(/kongamano\.test|Waiyaki|Fleet Street|\+254|Secret Road/);
    expect(rows.find((o) => o.city === "Nairobi")).toMatchObject({
      latitude: -1.28,
      longitude: 36.82,
      openingHours: "Mon–Fri 08:00–18:00 EAT\nSat 09:00–13:00 EAT",
      services: ["Conferences", "Training"],
    });
    expect(rows.find((o) => o.city === "Lagos")).toMatchObject({
      openingHours: null,
      services: null,
    });
  });

  it("honours a limit for the public list", async () => {
    expect(await listPublicOfficeLocations({ limit: 2 })).toHaveLength(2);
  });

  it("gives signed-in users active offices ordered by region, with contact details", async () => {
    const rows = await listActiveOfficesWithContacts();
    expect(rows.map((o) => [o.region, o.city])).toEqual([
      ["Africa", "Lagos"],
      ["Africa", "Nairobi"],
      ["Europe", "London"],
    ]);
    expect(rows.find((o) => o.city === "Nairobi")).toMatchObject({
      address: "Waiyaki Way, Nairobi",
      phone: "+254 20 765 4321",
      email: "nairobi@kongamano.test",
    });
    expect(rows.some((o) => o.city === "Closed City")).toBe(false);
  });

  it("picks the projection by audience", async () => {
    const visitor = await getOfficeDirectory(false);
    expect(visitor.audience).toBe("public");
    expect(JSON.stringify(visitor)).not.toContain("@kongamano.test");
    const member = await getOfficeDirectory(true);
    expect(member.audience).toBe("member");
    expect(JSON.stringify(member)).toContain("london@kongamano.test");
  });
});
