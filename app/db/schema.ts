import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  check,
  date,
  doublePrecision,
  index,
  integer,
  jsonb,
  numeric,
  pgEnum,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
  varchar,
} from "drizzle-orm/pg-core";

// ---------------------------------------------------------------------------------------------
// Enumerations (spec §3, §4, §9) — enforced by the database, mirrored in app/lib/constants.ts.
// ---------------------------------------------------------------------------------------------
export const userRole = pgEnum("user_role", ["user", "editor", "admin"]);
export const eventStatus = pgEnum("event_status", ["draft", "published", "archived"]);
export const paperStatus = pgEnum("paper_status", [
  "draft",
  "submitted",
  "under_review",
  "accepted",
  "rejected",
  "published",
]);
export const officeStatus = pgEnum("office_status", ["active", "inactive"]);
export const sponsorTier = pgEnum("sponsor_tier", ["bronze", "silver", "gold", "platinum"]);
export const feeType = pgEnum("fee_type", [
  "conference_only",
  "full_board",
  "student",
  "early_bird",
  "member",
  "group",
]);
export const currency = pgEnum("currency", ["USD", "EUR", "GBP", "KES"]);
export const contactRegion = pgEnum("contact_region", [
  "global",
  "africa",
  "asia",
  "europe",
  "americas",
  "oceania",
]);

const createdAt = () => timestamp("created_at", { withTimezone: true }).notNull().defaultNow();
const updatedAt = () =>
  timestamp("updated_at", { withTimezone: true })
    .notNull()
    .defaultNow()
    .$onUpdate(() => new Date());

// ---------------------------------------------------------------------------------------------
// Accounts (better-auth tables). The spec's "profile" (full_name, email, role) lives on the user.
// ---------------------------------------------------------------------------------------------
export const user = pgTable(
  "user",
  {
    id: text("id").primaryKey(),
    name: text("full_name").notNull(),
    email: text("email").notNull().unique(),
    emailVerified: boolean("email_verified").notNull().default(false),
    image: text("image"),
    role: userRole("role").notNull().default("user"),
    banned: boolean("banned").default(false),
    banReason: text("ban_reason"),
    banExpires: timestamp("ban_expires", { withTimezone: true }),
    twoFactorEnabled: boolean("two_factor_enabled").default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("user_created_at_idx").on(t.createdAt.desc()), index("user_role_idx").on(t.role)],
);

export const session = pgTable(
  "session",
  {
    id: text("id").primaryKey(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    token: text("token").notNull().unique(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    ipAddress: text("ip_address"),
    userAgent: text("user_agent"),
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    impersonatedBy: text("impersonated_by"),
  },
  (t) => [index("session_user_id_idx").on(t.userId)],
);

export const account = pgTable(
  "account",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id").notNull(),
    providerId: text("provider_id").notNull(),
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    accessToken: text("access_token"),
    refreshToken: text("refresh_token"),
    idToken: text("id_token"),
    accessTokenExpiresAt: timestamp("access_token_expires_at", { withTimezone: true }),
    refreshTokenExpiresAt: timestamp("refresh_token_expires_at", { withTimezone: true }),
    scope: text("scope"),
    password: text("password"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("account_user_id_idx").on(t.userId)],
);

export const verification = pgTable(
  "verification",
  {
    id: text("id").primaryKey(),
    identifier: text("identifier").notNull(),
    value: text("value").notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("verification_identifier_idx").on(t.identifier)],
);

export const twoFactor = pgTable(
  "two_factor",
  {
    id: text("id").primaryKey(),
    secret: text("secret").notNull(),
    backupCodes: text("backup_codes").notNull(),
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    verified: boolean("verified").default(true),
    // better-auth's account-level lockout after repeated failed second-factor checks.
    failedVerificationCount: integer("failed_verification_count").default(0),
    lockedUntil: timestamp("locked_until", { withTimezone: true }),
  },
  (t) => [index("two_factor_user_id_idx").on(t.userId)],
);

/** Rate-limit counters (better-auth's database storage, and our own limiter for public forms). */
export const rateLimit = pgTable("rate_limit", {
  id: text("id").primaryKey(),
  key: text("key").notNull().unique(),
  count: integer("count").notNull(),
  lastRequest: bigint("last_request", { mode: "number" }).notNull(),
});

// ---------------------------------------------------------------------------------------------
// Events
// ---------------------------------------------------------------------------------------------
export const eventTypes = pgTable(
  "event_types",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    name: varchar("name", { length: 100 }).notNull().unique(),
    description: text("description"),
    color: varchar("color", { length: 7 }).notNull().default("#0B5FFF"),
    icon: text("icon"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [check("event_types_color_hex", sql`${t.color} ~ '^#[0-9A-Fa-f]{6}$'`)],
);

export const eventCategories = pgTable(
  "event_categories",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    name: varchar("name", { length: 100 }).notNull().unique(),
    description: text("description"),
    color: varchar("color", { length: 7 }).notNull().default("#0B5FFF"),
    icon: text("icon"),
    industrySector: text("industry_sector"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [check("event_categories_color_hex", sql`${t.color} ~ '^#[0-9A-Fa-f]{6}$'`)],
);

export const events = pgTable(
  "events",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    title: text("title").notNull().unique(),
    slug: text("slug").notNull().unique(),
    description: text("description"),
    location: text("location").notNull(),
    startDate: timestamp("start_date", { withTimezone: true }).notNull(),
    endDate: timestamp("end_date", { withTimezone: true }).notNull(),
    theme: text("theme"),
    // Types and categories are referenced by name (spec §3); renames cascade, deletes of a
    // type/category still in use are refused (23503, spec §8's 'Invalid category or event type').
    eventType: varchar("event_type", { length: 100 })
      .default("conference")
      .references(() => eventTypes.name, { onUpdate: "cascade", onDelete: "restrict" }),
    category: varchar("category", { length: 100 }).references(() => eventCategories.name, {
      onUpdate: "cascade",
      onDelete: "restrict",
    }),
    industrySector: text("industry_sector"),
    tags: text("tags").array(),
    status: eventStatus("status").notNull().default("draft"),
    featured: boolean("featured").notNull().default(false),
    imageUrl: text("image_url"),
    /** Lower-cased searchable text (spec §5), kept by PostgreSQL; trigram and full-text indexed. */
    searchText: text("search_text").generatedAlwaysAs(
      sql`event_search_text(title, location, description, theme, category)`,
    ),
    /** iCalendar SEQUENCE: bumped on every update so subscribed calendars pick up changes. */
    sequence: integer("sequence").notNull().default(0),
    createdBy: text("created_by").references(() => user.id, { onDelete: "set null" }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    check("events_dates_ordered", sql`${t.startDate} <= ${t.endDate}`),
    index("events_status_start_idx").on(t.status, t.startDate),
    index("events_status_title_idx").on(t.status, t.title),
    index("events_status_location_idx").on(t.status, t.location),
    index("events_featured_idx").on(t.status, t.featured, t.startDate),
    index("events_event_type_idx").on(t.eventType),
    index("events_category_idx").on(t.category),
    index("events_created_at_idx").on(t.createdAt.desc()),
    // Search indexes (trigram + full text) over event_search_text(...) are created in a custom
    // migration because they use an IMMUTABLE SQL function; see drizzle/0001_search.sql.
  ],
);

export const eventFees = pgTable(
  "event_fees",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    eventId: uuid("event_id")
      .notNull()
      .references(() => events.id, { onDelete: "cascade" }),
    feeType: feeType("fee_type").notNull().default("conference_only"),
    amount: numeric("amount", { precision: 12, scale: 2, mode: "number" }).notNull().default(0),
    currency: currency("currency").notNull().default("USD"),
    description: text("description"),
    availableUntil: date("available_until"),
    maxQuantity: integer("max_quantity"),
    createdAt: createdAt(),
  },
  (t) => [
    check("event_fees_amount_nonneg", sql`${t.amount} >= 0`),
    check("event_fees_max_quantity_pos", sql`${t.maxQuantity} IS NULL OR ${t.maxQuantity} >= 1`),
    index("event_fees_event_amount_idx").on(t.eventId, t.amount),
  ],
);

export const speakers = pgTable(
  "speakers",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    name: text("name").notNull(),
    title: text("title"),
    organization: text("organization"),
    bio: text("bio"),
    imageUrl: text("image_url"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("speakers_name_idx").on(t.name), index("speakers_created_at_idx").on(t.createdAt)],
);

export const sponsors = pgTable(
  "sponsors",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    name: text("name").notNull(),
    logoUrl: text("logo_url"),
    websiteUrl: text("website_url"),
    tier: sponsorTier("tier").notNull().default("bronze"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("sponsors_tier_name_idx").on(t.tier, t.name)],
);

export const eventSpeakers = pgTable(
  "event_speakers",
  {
    eventId: uuid("event_id")
      .notNull()
      .references(() => events.id, { onDelete: "cascade" }),
    speakerId: uuid("speaker_id")
      .notNull()
      .references(() => speakers.id, { onDelete: "cascade" }),
    position: integer("position").notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.eventId, t.speakerId] }),
    index("event_speakers_speaker_idx").on(t.speakerId),
  ],
);

export const eventSponsors = pgTable(
  "event_sponsors",
  {
    eventId: uuid("event_id")
      .notNull()
      .references(() => events.id, { onDelete: "cascade" }),
    sponsorId: uuid("sponsor_id")
      .notNull()
      .references(() => sponsors.id, { onDelete: "cascade" }),
  },
  (t) => [
    primaryKey({ columns: [t.eventId, t.sponsorId] }),
    index("event_sponsors_sponsor_idx").on(t.sponsorId),
  ],
);

export const agendaItems = pgTable(
  "agenda_items",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    eventId: uuid("event_id")
      .notNull()
      .references(() => events.id, { onDelete: "cascade" }),
    startTime: timestamp("start_time", { withTimezone: true }).notNull(),
    endTime: timestamp("end_time", { withTimezone: true }),
    title: text("title").notNull(),
    description: text("description"),
    position: integer("position").notNull().default(0),
  },
  (t) => [index("agenda_items_event_start_idx").on(t.eventId, t.startTime, t.position)],
);

// ---------------------------------------------------------------------------------------------
// Papers
// ---------------------------------------------------------------------------------------------
export const papers = pgTable(
  "papers",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    title: text("title").notNull(),
    slug: text("slug").notNull().unique(),
    abstract: text("abstract"),
    authors: text("authors").array().notNull(),
    category: text("category"),
    tags: text("tags").array(),
    pdfUrl: text("pdf_url"),
    status: paperStatus("status").notNull().default("draft"),
    publishedDate: date("published_date"),
    downloadCount: integer("download_count").notNull().default(0),
    /** Lower-cased searchable text (title, authors, tags, abstract); trigram and full-text indexed. */
    searchText: text("search_text").generatedAlwaysAs(
      sql`paper_search_text(title, authors, tags, abstract)`,
    ),
    createdBy: text("created_by").references(() => user.id, { onDelete: "set null" }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    check("papers_authors_present", sql`cardinality(${t.authors}) >= 1`),
    index("papers_status_created_idx").on(t.status, t.createdAt.desc()),
    index("papers_status_title_idx").on(t.status, t.title),
    index("papers_created_at_idx").on(t.createdAt.desc()),
    index("papers_tags_idx").using("gin", t.tags),
  ],
);

// ---------------------------------------------------------------------------------------------
// Offices
// ---------------------------------------------------------------------------------------------
export const offices = pgTable(
  "offices",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    region: text("region").notNull(),
    city: text("city").notNull(),
    country: text("country").notNull(),
    address: text("address"),
    email: text("email"),
    phone: text("phone"),
    latitude: doublePrecision("latitude"),
    longitude: doublePrecision("longitude"),
    status: officeStatus("status").notNull().default("active"),
    isHeadquarters: boolean("is_headquarters").notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("offices_status_region_idx").on(t.status, t.region),
    index("offices_created_at_idx").on(t.createdAt.desc()),
  ],
);

// ---------------------------------------------------------------------------------------------
// Operations: audit trail, contact messages, invitations
// ---------------------------------------------------------------------------------------------
export const auditLog = pgTable(
  "audit_log",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    // Kept when the actor's account is deleted: the row stays, the link and PII go.
    actorId: text("actor_id").references(() => user.id, { onDelete: "set null" }),
    /** E-mail the action concerned (e.g. an attempted sign-in). Scrubbed on account deletion. */
    actorEmail: text("actor_email"),
    action: text("action").notNull(),
    entity: text("entity"),
    entityId: text("entity_id"),
    details: jsonb("details").$type<Record<string, unknown>>(),
    ip: text("ip"),
    userAgent: text("user_agent"),
    createdAt: createdAt(),
  },
  (t) => [
    index("audit_log_created_at_idx").on(t.createdAt.desc()),
    index("audit_log_actor_idx").on(t.actorId, t.createdAt.desc()),
    index("audit_log_action_idx").on(t.action, t.createdAt.desc()),
    index("audit_log_entity_idx").on(t.entity, t.createdAt.desc()),
  ],
);

export const contactMessages = pgTable(
  "contact_messages",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    name: text("name").notNull(),
    email: text("email").notNull(),
    subject: text("subject").notNull(),
    message: text("message").notNull(),
    region: contactRegion("region"),
    ip: text("ip"),
    userAgent: text("user_agent"),
    readAt: timestamp("read_at", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index("contact_messages_created_at_idx").on(t.createdAt.desc())],
);

export const invitations = pgTable(
  "invitations",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    email: text("email").notNull(),
    role: userRole("role").notNull().default("user"),
    /** SHA-256 of the one-time token; the token itself only travels in the e-mail. */
    tokenHash: text("token_hash").notNull().unique(),
    invitedBy: text("invited_by").references(() => user.id, { onDelete: "set null" }),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    acceptedAt: timestamp("accepted_at", { withTimezone: true }),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    index("invitations_email_idx").on(t.email),
    index("invitations_created_at_idx").on(t.createdAt.desc()),
    uniqueIndex("invitations_pending_email_idx")
      .on(t.email)
      .where(sql`${t.acceptedAt} IS NULL AND ${t.revokedAt} IS NULL`),
  ],
);

export type EventRow = typeof events.$inferSelect;
export type PaperRow = typeof papers.$inferSelect;
export type OfficeRow = typeof offices.$inferSelect;
export type SpeakerRow = typeof speakers.$inferSelect;
export type SponsorRow = typeof sponsors.$inferSelect;
export type EventFeeRow = typeof eventFees.$inferSelect;
export type UserRow = typeof user.$inferSelect;
