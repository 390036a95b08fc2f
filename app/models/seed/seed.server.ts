import { randomUUID } from "node:crypto";
import { TZDate } from "@date-fns/tz";
import { format } from "date-fns";
import { count, eq, sql } from "drizzle-orm";
import { type Database, getDb } from "~/db/client.server";
import {
  account,
  agendaItems,
  auditLog,
  contactMessages,
  eventCategories,
  eventFees,
  eventSpeakers,
  eventSponsors,
  events,
  memberships,
  membershipTerms,
  offices,
  papers,
  speakers,
  sponsors,
  user,
} from "~/db/schema";
import { getAuth } from "~/lib/auth.server";
import { DEFAULT_COLOR, EVENT_TIME_ZONE } from "~/lib/constants";
import { slugify } from "~/lib/format";
import { logger } from "~/lib/logger.server";
import { currencyExponent } from "~/lib/money";
import { getStorage, publicUrl, randomKey } from "~/lib/storage.server";
import {
  activateTerm,
  applyForMembership,
  MembershipError,
} from "~/models/membership/membership.server";
import { MEMBERSHIP_CURRENCY, PLAN_PRICE_MINOR } from "~/models/membership/plans";
import { recordPayment } from "~/models/orders/orders.server";
import {
  AGENDA_TEMPLATES,
  CATEGORIES,
  CITY_TIME_ZONES,
  CONTACT_MESSAGES,
  EVENTS,
  LATER_DAYS,
  OFFICES,
  PAPERS,
  type SeedEvent,
  SPEAKERS,
  SPONSORS,
} from "./content";
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from "./demo-accounts";
import { bannerSvg, logoSvg, portraitSvg, svgToJpeg } from "./images";
import { buildPaperPdf } from "./pdf";

const SEED_LOCK_KEY = 727_274_2024; // serialises seeding between instances starting together
const DAY = 86_400_000;

export type SeedResult = { content: boolean; accountsCreated: string[] };

/**
 * Seeds the demo content when the database has no events (and, when asked, the three demo
 * accounts when they are missing). Safe to call on every start: it never duplicates anything.
 */
export async function seedIfEmpty(options: {
  demoAccounts: boolean;
  now?: Date;
}): Promise<SeedResult> {
  const db = getDb();
  const started = Date.now();
  const content = await seedContent(db, options.now ?? new Date());
  const accountsCreated = options.demoAccounts ? await seedDemoAccounts(db) : [];
  if (options.demoAccounts) await seedDemoMembership(db);
  if (content || accountsCreated.length) {
    logger.info(
      { content, accountsCreated, ms: Date.now() - started },
      "demo content seeded into the empty database",
    );
  }
  return { content, accountsCreated };
}

/** The calendar day `offsetDays` from today's date in `timeZone`, as [year, month index, day]. */
function localDay(now: Date, offsetDays: number, timeZone = EVENT_TIME_ZONE) {
  const today = new TZDate(now.getTime(), timeZone);
  return [today.getFullYear(), today.getMonth(), today.getDate() + offsetDays] as const;
}

/** Wall-clock time on a local day in `timeZone`, as an instant. */
const at = (
  [y, m, d]: readonly [number, number, number],
  hour: number,
  minute = 0,
  timeZone = EVENT_TIME_ZONE,
) => new Date(new TZDate(y, m, d, hour, minute, timeZone).getTime());

/** Midnight in Nairobi, `offsetDays` from the Nairobi date of `now`, as a UTC instant. */
const nairobiDay = (now: Date, offsetDays: number) => at(localDay(now, offsetDays), 0);

const isoDate = (d: Date) => format(new TZDate(d.getTime(), EVENT_TIME_ZONE), "yyyy-MM-dd");

async function seedContent(db: Database, now: Date): Promise<boolean> {
  // PDFs are written before the transaction (storage is not transactional); an aborted seed
  // leaves at most a few orphan demo files behind.
  const [{ n: existing }] = await db.select({ n: count() }).from(events);
  if (existing > 0) return false;
  // Pictures render on sharp's threads while the PDFs are written.
  const picturesReady = storeDemoPictures();
  const pdfUrls = new Map<string, string>();
  for (const paper of PAPERS.filter((p) => p.pdf)) {
    const key = randomKey("papers", "pdf");
    await getStorage().put(key, buildPaperPdf(paper), "application/pdf");
    pdfUrls.set(paper.title, publicUrl(key));
  }
  const pictures = await picturesReady;

  return db.transaction(async (tx) => {
    await tx.execute(sql`SELECT pg_advisory_xact_lock(${SEED_LOCK_KEY})`);
    const [{ n }] = await tx.select({ n: count() }).from(events);
    if (n > 0) return false; // another instance seeded while we waited

    await tx
      .insert(eventCategories)
      .values(CATEGORIES)
      .onConflictDoNothing({ target: eventCategories.name });

    const speakerRows = await tx
      .insert(speakers)
      .values(
        SPEAKERS.map((s, i) => ({
          ...s,
          imageUrl: pictures.get(s.name) ?? null,
          createdAt: new Date(now.getTime() - (60 - i) * DAY),
        })),
      )
      .returning({ id: speakers.id, name: speakers.name });
    const sponsorRows = await tx
      .insert(sponsors)
      .values(
        SPONSORS.map((s, i) => ({
          ...s,
          logoUrl: pictures.get(s.name) ?? null,
          createdAt: new Date(now.getTime() - (60 - i) * DAY),
        })),
      )
      .returning({ id: sponsors.id, tier: sponsors.tier });

    const eventRows = await tx
      .insert(events)
      .values(
        EVENTS.map((e, i) => {
          const { start, end } = eventWindow(e, now);
          return {
            title: e.title,
            slug: slugify(e.title),
            description: e.description,
            location: e.location,
            startDate: start,
            endDate: end,
            timeZone: eventTimeZone(e),
            theme: e.theme,
            eventType: e.type,
            category: e.category,
            industrySector: e.sector,
            tags: e.tags,
            status: e.status,
            featured: e.featured ?? false,
            capacity: e.capacity ?? null,
            imageUrl: pictures.get(e.title) ?? null,
            createdAt: new Date(
              Math.min(start.getTime() - 90 * DAY, now.getTime()) - i * 3_600_000,
            ),
          };
        }),
      )
      .returning({ id: events.id, title: events.title });
    const eventIdByTitle = new Map(eventRows.map((r) => [r.title, r.id]));

    const fees: (typeof eventFees.$inferInsert)[] = [];
    const agenda: (typeof agendaItems.$inferInsert)[] = [];
    const speakerLinks: (typeof eventSpeakers.$inferInsert)[] = [];
    const sponsorLinks: (typeof eventSponsors.$inferInsert)[] = [];
    EVENTS.forEach((e, i) => {
      const eventId = eventIdByTitle.get(e.title)!;
      const { start } = eventWindow(e, now);
      for (const fee of feesFor(e, start)) fees.push({ eventId, ...fee });
      agenda.push(...agendaFor(e, now).map((item) => ({ eventId, ...item })));
      pickSpeakers(e, i).forEach((index, position) => {
        speakerLinks.push({ eventId, speakerId: speakerRows[index].id, position });
      });
      for (const index of pickSponsors(e, i))
        sponsorLinks.push({ eventId, sponsorId: sponsorRows[index].id });
    });
    await tx.insert(eventFees).values(fees);
    await tx.insert(agendaItems).values(agenda);
    await tx.insert(eventSpeakers).values(speakerLinks);
    await tx.insert(eventSponsors).values(sponsorLinks);

    await tx.insert(papers).values(
      PAPERS.map((p, i) => {
        const created = new Date(nairobiDay(now, -p.age).getTime() + (9 + (i % 8)) * 3_600_000);
        return {
          title: p.title,
          slug: slugify(p.title),
          abstract: p.abstract,
          authors: p.authors,
          category: p.category,
          tags: p.tags,
          status: p.status,
          pdfUrl: pdfUrls.get(p.title) ?? null,
          publishedDate: p.status === "published" ? isoDate(created) : null,
          downloadCount: p.status === "published" ? 40 + ((i * 37) % 400) : 0,
          createdAt: created,
        };
      }),
    );

    await tx.insert(offices).values(
      OFFICES.map((o, i) => ({
        ...o,
        isHeadquarters: o.isHeadquarters ?? false,
        createdAt: new Date(now.getTime() - (400 - i * 20) * DAY),
      })),
    );

    await tx.insert(contactMessages).values(
      CONTACT_MESSAGES.map((m, i) => ({
        ...m,
        createdAt: new Date(now.getTime() - (i + 1) * 2 * DAY),
        readAt: i === 2 ? new Date(now.getTime() - DAY) : null,
      })),
    );

    await tx.insert(auditLog).values({
      action: "system.seed",
      entity: "database",
      details: {
        events: EVENTS.length,
        papers: PAPERS.length,
        offices: OFFICES.length,
        speakers: SPEAKERS.length,
        sponsors: SPONSORS.length,
      },
    });
    return true;
  });
}

/**
 * Banners for the events, portraits for the speakers and logos for the sponsors, drawn here and
 * put in storage; returns each one's URL by title or name.
 */
async function storeDemoPictures() {
  const categoryColors = new Map(CATEGORIES.map((c) => [c.name, c.color]));
  const jobs = [
    ...EVENTS.map((e) => ({
      name: e.title,
      folder: "events",
      svg: bannerSvg({
        title: e.title,
        color: categoryColors.get(e.category ?? "") ?? DEFAULT_COLOR,
        city: e.location.split(",")[0].trim(),
      }),
    })),
    ...SPEAKERS.map((s) => ({ name: s.name, folder: "speakers", svg: portraitSvg(s.name) })),
    ...SPONSORS.map((s) => ({ name: s.name, folder: "sponsors", svg: logoSvg(s.name) })),
  ];
  const urls = await Promise.all(
    jobs.map(async (job) => {
      const key = randomKey(job.folder, "jpg");
      await getStorage().put(key, await svgToJpeg(job.svg), "image/jpeg");
      return [job.name, publicUrl(key)] as const;
    }),
  );
  return new Map(urls);
}

/** The event's zone: its city's, Nairobi for online events and unknown places. */
function eventTimeZone(e: SeedEvent) {
  const city = e.location.split(",")[0].trim();
  return CITY_TIME_ZONES[city] ?? EVENT_TIME_ZONE;
}

/** Start and end instants: first agenda item on the first day to the last one on the last day. */
function eventWindow(e: SeedEvent, now: Date) {
  const zone = eventTimeZone(e);
  const first = agendaDay(e, 0);
  const last = agendaDay(e, e.days - 1);
  const [h0, m0] = first[0];
  const [h1, m1, duration] = last[last.length - 1];
  return {
    start: at(localDay(now, e.offset, zone), h0, m0, zone),
    end: at(localDay(now, e.offset + e.days - 1, zone), h1, m1 + duration, zone),
  };
}

/** Day `d` of a multi-day event follows that day's own programme (day 1 the template's). */
function agendaDay(e: SeedEvent, d: number) {
  const days = [AGENDA_TEMPLATES[e.type], ...(LATER_DAYS[e.type] ?? [])];
  return days[Math.min(d, days.length - 1)];
}

function agendaFor(e: SeedEvent, now: Date) {
  const zone = eventTimeZone(e);
  const fill = (text: string) =>
    text.replace("{theme}", e.theme).replace("{category}", e.category ?? "Information Management");
  const items: Omit<typeof agendaItems.$inferInsert, "eventId">[] = [];
  for (let d = 0; d < e.days; d++) {
    const day = localDay(now, e.offset + d, zone);
    for (const [hour, minute, duration, title, description] of agendaDay(e, d)) {
      items.push({
        startTime: at(day, hour, minute, zone),
        endTime: at(day, hour, minute + duration, zone),
        title: fill(title),
        description: fill(description),
        position: items.length,
      });
    }
  }
  return items;
}

type FeeSpec = {
  feeType: (typeof eventFees.$inferInsert)["feeType"];
  usd: number;
  description: string;
  maxQuantity?: number;
  /** People one ticket admits (a group ticket, decision 0093). */
  admits?: number;
  /** Days before the start the fee stays available. */
  closesBefore?: number;
};

const FEES_BY_TYPE: Record<SeedEvent["type"], FeeSpec[]> = {
  conference: [
    {
      feeType: "early_bird",
      usd: 450,
      description: "Full conference pass at the early rate",
      closesBefore: 21,
    },
    {
      feeType: "conference_only",
      usd: 650,
      description: "Access to all sessions, lunches and refreshments",
    },
    {
      feeType: "full_board",
      usd: 1150,
      description: "Conference pass with hotel accommodation and all meals",
      maxQuantity: 150,
    },
    {
      feeType: "student",
      usd: 150,
      description: "Valid student ID required",
      maxQuantity: 60,
      closesBefore: 3,
    },
    { feeType: "member", usd: 520, description: "For Kongamano members in good standing" },
    {
      feeType: "group",
      usd: 2600,
      description: "Five delegates from one organisation",
      maxQuantity: 20,
      admits: 5,
    },
  ],
  exhibition: [
    { feeType: "conference_only", usd: 50, description: "Exhibition day pass" },
    { feeType: "member", usd: 0, description: "Free entry for members" },
    {
      feeType: "group",
      usd: 200,
      description: "Up to six visitors from one organisation",
      maxQuantity: 40,
      admits: 6,
    },
  ],
  gala: [
    { feeType: "conference_only", usd: 180, description: "Dinner ticket" },
    { feeType: "member", usd: 150, description: "Member dinner ticket" },
    { feeType: "group", usd: 1600, description: "Table of ten", maxQuantity: 30, admits: 10 },
  ],
  workshop: [
    {
      feeType: "early_bird",
      usd: 220,
      description: "Workshop seat at the early rate",
      closesBefore: 14,
    },
    {
      feeType: "conference_only",
      usd: 300,
      description: "Workshop seat, materials and lunch",
      maxQuantity: 40,
    },
    { feeType: "student", usd: 90, description: "Limited student places", maxQuantity: 10 },
    { feeType: "member", usd: 250, description: "For Kongamano members" },
  ],
  seminar: [
    { feeType: "conference_only", usd: 40, description: "Seminar admission" },
    { feeType: "student", usd: 0, description: "Free for students", maxQuantity: 30 },
    { feeType: "member", usd: 0, description: "Free for members" },
  ],
  networking: [
    {
      feeType: "conference_only",
      usd: 0,
      description: "Free; refreshments included",
      maxQuantity: 120,
    },
    { feeType: "member", usd: 0, description: "Free for members" },
  ],
  webinar: [
    {
      feeType: "conference_only",
      usd: 0,
      description: "Free registration; the link arrives by e-mail",
    },
    { feeType: "member", usd: 0, description: "Members also receive the recording and slides" },
  ],
  vendor: [
    {
      feeType: "conference_only",
      usd: 0,
      description: "Free for practitioners; vendors by invitation",
      maxQuantity: 200,
    },
    { feeType: "member", usd: 0, description: "Priority seating for members" },
  ],
};

function currencyFor(location: string): {
  currency: "USD" | "EUR" | "GBP" | "KES";
  rate: number;
  step: number;
} {
  if (/Kenya$/.test(location)) return { currency: "KES", rate: 130, step: 500 };
  if (/United Kingdom$/.test(location)) return { currency: "GBP", rate: 0.79, step: 5 };
  if (/(Germany|France|Netherlands)$/.test(location))
    return { currency: "EUR", rate: 0.92, step: 5 };
  return { currency: "USD", rate: 1, step: 5 };
}

function feesFor(e: SeedEvent, start: Date) {
  const { currency, rate, step } = currencyFor(e.location);
  return FEES_BY_TYPE[e.type].map((f) => ({
    feeType: f.feeType,
    // Whole units of the currency (a multiple of its step), in minor units.
    amountMinor: Math.round((f.usd * rate) / step) * step * 10 ** currencyExponent(currency),
    currency,
    description: f.description,
    maxQuantity: f.maxQuantity ?? null,
    admits: f.admits ?? 1,
    availableUntil: f.closesBefore
      ? isoDate(new Date(start.getTime() - f.closesBefore * DAY))
      : null,
  }));
}

/** Speakers who work on the event's category come first (indexes into SPEAKERS). */
const SPEAKERS_BY_CATEGORY: Record<string, number[]> = {
  "Data Governance": [0, 11, 8],
  "Digital Transformation": [15, 11, 8],
  "Records Management": [1, 3, 10, 7],
  "Artificial Intelligence": [2, 4, 8],
  "Cybersecurity & Privacy": [5, 13, 7],
  "Knowledge Management": [4, 12, 11],
  "Open Data & Research": [6, 14, 12],
  "Health Information": [9, 13],
};

const SPEAKER_COUNT: Record<SeedEvent["type"], number> = {
  conference: 5,
  exhibition: 2,
  gala: 2,
  workshop: 2,
  seminar: 3,
  networking: 2,
  webinar: 2,
  vendor: 2,
};

function pickSpeakers(e: SeedEvent, i: number) {
  const chosen = new Set(SPEAKERS_BY_CATEGORY[e.category ?? ""] ?? []);
  const wanted = SPEAKER_COUNT[e.type];
  const picked = [...chosen].slice(0, wanted);
  for (let k = 0; picked.length < wanted; k++) {
    const index = (i * 5 + k * 3) % SPEAKERS.length;
    if (!picked.includes(index)) picked.push(index);
  }
  return picked;
}

function pickSponsors(e: SeedEvent, i: number) {
  const byTier = (tier: string) =>
    SPONSORS.map((s, index) => ({ s, index }))
      .filter(({ s }) => s.tier === tier)
      .map(({ index }) => index);
  const choose = (tier: string) => {
    const list = byTier(tier);
    return list[i % list.length];
  };
  if (e.type === "conference")
    return [choose("platinum"), choose("gold"), choose("silver"), choose("bronze")];
  if (e.type === "exhibition" || e.type === "gala")
    return [choose("gold"), choose("silver"), choose("bronze")];
  return [choose(i % 2 ? "silver" : "bronze"), choose(i % 2 ? "gold" : "silver")];
}

/** The three demo accounts, able to sign in through better-auth (credential accounts). */
async function seedDemoAccounts(db: Database): Promise<string[]> {
  const created: string[] = [];
  const context = await getAuth().$context;
  for (const demo of DEMO_ACCOUNTS) {
    const [found] = await db.select({ id: user.id }).from(user).where(eq(user.email, demo.email));
    if (found) continue;
    const hash = await context.password.hash(DEMO_PASSWORD);
    const id = randomUUID();
    const inserted = await db.transaction(async (tx) => {
      const rows = await tx
        .insert(user)
        .values({ id, name: demo.name, email: demo.email, emailVerified: true, role: demo.role })
        .onConflictDoNothing({ target: user.email })
        .returning({ id: user.id });
      if (!rows.length) return false; // created concurrently by another instance
      await tx.insert(account).values({
        id: randomUUID(),
        accountId: id,
        providerId: "credential",
        userId: id,
        password: hash,
      });
      return true;
    });
    if (inserted) created.push(demo.email);
  }
  return created;
}

/**
 * The demo member (member@kongamano.org) is an active Professional member (issue 30 item 8), made
 * the way a real one is: applied, invoiced, paid by bank transfer and activated through the
 * lifecycle kit, so every page that reads memberships shows the same. Only when the account has
 * never had a membership (a restart changes nothing; a demo that cancelled stays cancelled).
 */
async function seedDemoMembership(db: Database) {
  const demo = DEMO_ACCOUNTS.find((a) => a.email === "member@kongamano.org");
  if (!demo) return;
  const [person] = await db
    .select({ id: user.id, name: user.name, email: user.email })
    .from(user)
    .where(eq(user.email, demo.email));
  if (!person) return;
  const [existing] = await db
    .select({ id: memberships.id })
    .from(memberships)
    .where(eq(memberships.userId, person.id))
    .limit(1);
  if (existing) return;
  const applied = await applyForMembership(person, {
    plan: "professional",
    memberName: person.name,
  }).catch((error) => {
    // Another instance made it meanwhile (the account's membership row is locked while applying).
    if (error instanceof MembershipError && error.status === 409) return null;
    throw error;
  });
  if (!applied?.invoiceNumber) return;
  await recordPayment(
    {
      method: "bank_transfer",
      reference: "DEMO-SEED-MEMBER",
      amountMinor: PLAN_PRICE_MINOR.professional,
      currency: MEMBERSHIP_CURRENCY,
      paidAt: new Date(),
      invoiceNumber: applied.invoiceNumber,
    },
    { system: "demo-seed" },
  );
  const [term] = await db
    .select({ id: membershipTerms.id })
    .from(membershipTerms)
    .where(eq(membershipTerms.membershipId, applied.membership.id));
  // Active now, not when the worker gets to the paid order's unlock job (which then does nothing).
  if (term) await activateTerm(term.id);
}
