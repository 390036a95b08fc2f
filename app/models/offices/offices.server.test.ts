import { expect, it } from "vitest";
// Aliased: biome reads a `use…` call as a React hook; this is a vitest set-up helper.
import { useTestDatabase as withTestDatabase } from "../../../tests/helpers/db";
import { auditRowsFor, createActor } from "../shared/test-support";
import {
  createOffice,
  deleteOffice,
  getOffice,
  listAdminOffices,
  type OfficeInput,
  updateOffice,
} from "./offices.server";

const database = withTestDatabase();

const office = (fields: Partial<OfficeInput>): OfficeInput => ({
  region: "Africa",
  city: "Nairobi",
  country: "Kenya",
  address: null,
  email: null,
  phone: null,
  latitude: null,
  longitude: null,
  openingHours: null,
  services: [],
  status: "active",
  ...fields,
});

it("creates, updates and deletes an office with audit rows", async () => {
  const { ctx } = await createActor(database.db, "admin");
  const created = await createOffice(
    office({ email: "nairobi@kongamano.org", latitude: -1.2921, longitude: 36.8219 }),
    ctx,
  );
  await updateOffice(created.id, office({ phone: "+254 700 000000", status: "inactive" }), ctx);
  expect(await getOffice(created.id)).toMatchObject({
    phone: "+254 700 000000",
    status: "inactive",
    latitude: null,
  });
  await deleteOffice(created.id, ctx);
  expect(await getOffice(created.id)).toBeNull();
  expect((await auditRowsFor(database.db, "office", created.id)).map((r) => r.action)).toEqual([
    "office.create",
    "office.update",
    "office.delete",
  ]);
});

it("lists newest first, searches city, country or region and filters by status", async () => {
  const { ctx } = await createActor(database.db, "admin");
  await createOffice(office({ region: "Europe", city: "Lisbon", country: "Portugal" }), ctx);
  await createOffice(
    office({ region: "Asia", city: "Pune", country: "India", status: "inactive" }),
    ctx,
  );
  await createOffice(office({ region: "Oceania", city: "Perth", country: "Australia" }), ctx);

  expect((await listAdminOffices({})).map((o) => o.city)).toEqual(["Perth", "Pune", "Lisbon"]);
  expect((await listAdminOffices({ search: "portu" })).map((o) => o.city)).toEqual(["Lisbon"]);
  expect((await listAdminOffices({ search: "asia" })).map((o) => o.city)).toEqual(["Pune"]);
  expect((await listAdminOffices({ search: "P", status: "active" })).map((o) => o.city)).toEqual([
    "Perth",
    "Lisbon",
  ]);
  expect((await listAdminOffices({ status: "inactive" })).map((o) => o.city)).toEqual(["Pune"]);
});
