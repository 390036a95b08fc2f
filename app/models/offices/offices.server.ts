import { and, desc, eq } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import { offices } from "~/db/schema";
import type { OFFICE_STATUSES } from "~/lib/constants";
import type { PersonActor } from "~/lib/lifecycle.server";
import { afterMutation, containsPattern, ilikeAny, isUuid } from "../shared/entity-support.server";

/** Offices in the back office, admin only (spec §2.15 'Offices list', §3 Office, §6). */
export type OfficeStatus = (typeof OFFICE_STATUSES)[number];

export type OfficeInput = {
  region: string;
  city: string;
  country: string;
  address: string | null;
  email: string | null;
  phone: string | null;
  latitude: number | null;
  longitude: number | null;
  /** One span a line, time zone named ("Mon–Fri 08:00–18:00 EAT"); null: not given. */
  openingHours: string | null;
  services: string[];
  status: OfficeStatus;
};

const columns = {
  id: offices.id,
  region: offices.region,
  city: offices.city,
  country: offices.country,
  address: offices.address,
  email: offices.email,
  phone: offices.phone,
  latitude: offices.latitude,
  longitude: offices.longitude,
  openingHours: offices.openingHours,
  services: offices.services,
  status: offices.status,
  createdAt: offices.createdAt,
};

/** All offices, newest first (spec §7); `search` matches city, country or region. */
export async function listAdminOffices({
  search,
  status,
}: {
  search?: string | null;
  status?: OfficeStatus | null;
}) {
  const pattern = containsPattern(search);
  return getDb()
    .select(columns)
    .from(offices)
    .where(
      and(
        status ? eq(offices.status, status) : undefined,
        pattern ? ilikeAny(pattern, offices.city, offices.country, offices.region) : undefined,
      ),
    )
    .orderBy(desc(offices.createdAt), desc(offices.id));
}

export async function getOffice(id: string) {
  if (!isUuid(id)) return null;
  const [row] = await getDb().select(columns).from(offices).where(eq(offices.id, id)).limit(1);
  return row ?? null;
}

const label = (row: { city: string; country: string }) => `${row.city}, ${row.country}`;

export async function createOffice(input: OfficeInput, ctx: PersonActor) {
  const [row] = await getDb()
    .insert(offices)
    .values(input)
    .returning({ id: offices.id, city: offices.city, country: offices.country });
  await afterMutation(ctx, {
    action: "office.create",
    entity: "office",
    entityId: row.id,
    details: { office: label(row), status: input.status },
  });
  return row;
}

export async function updateOffice(id: string, input: OfficeInput, ctx: PersonActor) {
  if (!isUuid(id)) return null;
  const [row] = await getDb()
    .update(offices)
    .set(input)
    .where(eq(offices.id, id))
    .returning({ id: offices.id, city: offices.city, country: offices.country });
  if (!row) return null;
  await afterMutation(ctx, {
    action: "office.update",
    entity: "office",
    entityId: row.id,
    details: { office: label(row), status: input.status },
  });
  return row;
}

export async function deleteOffice(id: string, ctx: PersonActor) {
  if (!isUuid(id)) return null;
  const [row] = await getDb()
    .delete(offices)
    .where(eq(offices.id, id))
    .returning({ id: offices.id, city: offices.city, country: offices.country });
  if (!row) return null;
  await afterMutation(ctx, {
    action: "office.delete",
    entity: "office",
    entityId: row.id,
    details: { office: label(row) },
  });
  return row;
}

/** The regions offices already use, for the form's suggestions. */
export async function listOfficeRegions() {
  const rows = await getDb()
    .selectDistinct({ region: offices.region })
    .from(offices)
    .orderBy(offices.region);
  return rows.map((r) => r.region);
}
