import { describe, expect, it } from "vitest";
import { getStorage } from "~/lib/storage.server";
// Aliased: biome reads a `use…` call as a React hook; this is a vitest set-up helper.
import { useTestDatabase as withTestDatabase } from "../../../tests/helpers/db";
import { auditRowsFor, createActor } from "../shared/test-support";
import {
  createSpeaker,
  deleteSpeaker,
  getSpeaker,
  listAdminSpeakers,
  updateSpeaker,
} from "./speakers.server";
import {
  createSponsor,
  deleteSponsor,
  getSponsor,
  listAdminSponsors,
  updateSponsor,
} from "./sponsors.server";

// Speakers and sponsors share one database for speed.
const database = withTestDatabase();

describe("speakers", () => {
  it("creates, updates and deletes a speaker with audit rows", async () => {
    const { ctx } = await createActor(database.db);
    const speaker = await createSpeaker(
      {
        name: "Njeri Kariuki",
        title: "CDO",
        organization: "Safari Data",
        bio: null,
        imageUrl: null,
      },
      ctx,
    );
    await updateSpeaker(
      speaker.id,
      {
        name: "Njeri Kariuki",
        title: "Chief Data Officer",
        organization: "Safari Data",
        bio: "Bio",
        imageUrl: null,
      },
      ctx,
    );
    expect(await getSpeaker(speaker.id)).toMatchObject({ title: "Chief Data Officer", bio: "Bio" });
    await deleteSpeaker(speaker.id, ctx);
    expect(await getSpeaker(speaker.id)).toBeNull();
    expect((await auditRowsFor(database.db, "speaker", speaker.id)).map((r) => r.action)).toEqual([
      "speaker.create",
      "speaker.update",
      "speaker.delete",
    ]);
  });

  it("searches by name, organisation or title", async () => {
    const { ctx } = await createActor(database.db);
    const base = { bio: null, imageUrl: null };
    await createSpeaker(
      { ...base, name: "Otieno Ochieng", title: "Archivist", organization: "KNA" },
      ctx,
    );
    await createSpeaker(
      { ...base, name: "Aisha Bello", title: "Professor", organization: "Lagos Uni" },
      ctx,
    );
    expect((await listAdminSpeakers({ search: "ochieng" })).speakers.map((s) => s.name)).toEqual([
      "Otieno Ochieng",
    ]);
    expect((await listAdminSpeakers({ search: "lagos" })).speakers.map((s) => s.name)).toEqual([
      "Aisha Bello",
    ]);
    expect((await listAdminSpeakers({ search: "ARCHIV" })).speakers.map((s) => s.name)).toEqual([
      "Otieno Ochieng",
    ]);
  });

  it("removes the stored photo when the speaker is deleted", async () => {
    const { ctx } = await createActor(database.db);
    const key = "images/speaker-photo.webp";
    await getStorage().put(key, Buffer.from("RIFF"), "image/webp");
    const speaker = await createSpeaker(
      { name: "Photo", title: null, organization: null, bio: null, imageUrl: `/uploads/${key}` },
      ctx,
    );
    await deleteSpeaker(speaker.id, ctx);
    expect(await getStorage().stat(key)).toBeNull();
  });
});

describe("sponsors", () => {
  it("creates, updates and deletes a sponsor with audit rows", async () => {
    const { ctx } = await createActor(database.db);
    const sponsor = await createSponsor(
      { name: "Acacia Bank", tier: "gold", websiteUrl: "https://acacia.example", logoUrl: null },
      ctx,
    );
    await updateSponsor(
      sponsor.id,
      { name: "Acacia Bank", tier: "platinum", websiteUrl: null, logoUrl: null },
      ctx,
    );
    expect(await getSponsor(sponsor.id)).toMatchObject({ tier: "platinum", websiteUrl: null });
    await deleteSponsor(sponsor.id, ctx);
    expect(await getSponsor(sponsor.id)).toBeNull();
    expect((await auditRowsFor(database.db, "sponsor", sponsor.id)).map((r) => r.action)).toEqual([
      "sponsor.create",
      "sponsor.update",
      "sponsor.delete",
    ]);
  });

  it("filters by tier and searches by name, platinum first", async () => {
    const { ctx } = await createActor(database.db);
    const base = { websiteUrl: null, logoUrl: null };
    await createSponsor({ ...base, name: "Tier Bronze Co", tier: "bronze" }, ctx);
    await createSponsor({ ...base, name: "Tier Gold Co", tier: "gold" }, ctx);
    await createSponsor({ ...base, name: "Tier Platinum Co", tier: "platinum" }, ctx);
    expect((await listAdminSponsors({ search: "tier " })).sponsors.map((s) => s.name)).toEqual([
      "Tier Platinum Co",
      "Tier Gold Co",
      "Tier Bronze Co",
    ]);
    expect(
      (await listAdminSponsors({ search: "tier", tier: "gold" })).sponsors.map((s) => s.name),
    ).toEqual(["Tier Gold Co"]);
  });
});
