import { asc, eq } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import { offices } from "~/db/schema";

// Office queries for the public site (spec §2.10, §6, §7). Who sees what is decided here, in the
// query: visitors get the public projection only; signed-in users get the contact details too.

/**
 * What a signed-out visitor may see (spec §3: the public version of an office), plus the opening
 * hours and services the spec's card shows to everyone (decision 0060): no contact details.
 */
export type PublicOffice = {
  id: string;
  region: string;
  city: string;
  country: string;
  latitude: number | null;
  longitude: number | null;
  openingHours: string | null;
  services: string[] | null;
};

/** What a signed-in user sees: the public fields plus address, phone and e-mail. */
export type MemberOffice = PublicOffice & {
  address: string | null;
  phone: string | null;
  email: string | null;
};

export type OfficeDirectory =
  | { audience: "public"; offices: PublicOffice[] }
  | { audience: "member"; offices: MemberOffice[] };

const publicColumns = {
  id: offices.id,
  region: offices.region,
  city: offices.city,
  country: offices.country,
  latitude: offices.latitude,
  longitude: offices.longitude,
  openingHours: offices.openingHours,
  services: offices.services,
};

/** Active offices for signed-out visitors: id, region, city, country, coordinates, hours, services. */
export async function listPublicOfficeLocations({ limit }: { limit?: number } = {}) {
  const query = getDb()
    .select(publicColumns)
    .from(offices)
    .where(eq(offices.status, "active"))
    .orderBy(asc(offices.region), asc(offices.city));
  const rows: PublicOffice[] = await (limit ? query.limit(limit) : query);
  return rows;
}

/** Active offices with their contact details, ordered by region (signed-in users only). */
export async function listActiveOfficesWithContacts() {
  const rows: MemberOffice[] = await getDb()
    .select({
      ...publicColumns,
      address: offices.address,
      phone: offices.phone,
      email: offices.email,
    })
    .from(offices)
    .where(eq(offices.status, "active"))
    .orderBy(asc(offices.region), asc(offices.city));
  return rows;
}

/** The office directory a caller may see: contact details only when someone is signed in. */
export async function getOfficeDirectory(signedIn: boolean): Promise<OfficeDirectory> {
  return signedIn
    ? { audience: "member", offices: await listActiveOfficesWithContacts() }
    : { audience: "public", offices: await listPublicOfficeLocations() };
}
