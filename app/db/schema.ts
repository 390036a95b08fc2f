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
/** Each currency's decimals live in app/lib/money.ts (UGX and RWF have none; decision 0081). */
export const currency = pgEnum("currency", ["USD", "EUR", "GBP", "KES", "UGX", "RWF"]);
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
    /** IANA zone the event's times are entered and shown in (instants stay UTC, decision 0030). */
    timeZone: text("time_zone").notNull().default("Africa/Nairobi"),
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
    /** Seats for the whole event across all tickets; null means no overall limit (issue 15). */
    capacity: integer("capacity"),
    /** Set when organisers call the event off: it takes no registrations, attendees are told. */
    cancelledAt: timestamp("cancelled_at", { withTimezone: true }),
    /**
     * When the door may start checking people in (issue 30). Null: a set time before the start
     * (CHECK_IN_OPENS_BEFORE_MINUTES); organisers override it, e.g. "Open check-in now".
     */
    checkInOpensAt: timestamp("check_in_opens_at", { withTimezone: true }),
    /**
     * The online event's join link (issue 30): only for confirmed registrants, from
     * JOIN_LINK_OPENS_BEFORE_MINUTES before the start; never in public pages, feeds or calendars.
     */
    joinUrl: text("join_url"),
    createdBy: text("created_by").references(() => user.id, { onDelete: "set null" }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    check("events_dates_ordered", sql`${t.startDate} <= ${t.endDate}`),
    check("events_capacity_pos", sql`${t.capacity} IS NULL OR ${t.capacity} >= 1`),
    check("events_join_url_https", sql`${t.joinUrl} IS NULL OR ${t.joinUrl} LIKE 'https://%'`),
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

const minor = (name: string) => bigint(name, { mode: "number" });
/**
 * Every money column stays within JavaScript's exact integers (2^53 − 1), so reading a `bigint`
 * column as a number is exact by construction: the database refuses a value (or a sum) beyond it
 * rather than letting it be read back rounded (issue 26, decision 0072).
 */
const MAX_SAFE_MINOR = sql.raw("9007199254740991");
const safeMinor = (column: unknown) => sql`${column} <= ${MAX_SAFE_MINOR}`;

export const eventFees = pgTable(
  "event_fees",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    eventId: uuid("event_id")
      .notNull()
      .references(() => events.id, { onDelete: "cascade" }),
    feeType: feeType("fee_type").notNull().default("conference_only"),
    /** The price in the currency's minor units (cents; whole shillings for UGX), decision 0081. */
    amountMinor: minor("amount_minor").notNull().default(0),
    currency: currency("currency").notNull().default("USD"),
    description: text("description"),
    availableUntil: date("available_until"),
    maxQuantity: integer("max_quantity"),
    /** Fair shares (issue 26): seats one registration (order) may take of this ticket. */
    maxPerOrder: integer("max_per_order").notNull().default(10),
    /** Fair shares: live registrations (held or confirmed) one account may have for this ticket. */
    maxPerAccount: integer("max_per_account").notNull().default(1),
    /** Optional start of sale (issue 29): before it the ticket is shown but not on sale; JSON-LD validFrom. */
    saleStartsAt: timestamp("sale_starts_at", { withTimezone: true }),
    /** A ticket's own join link (e.g. a workshop room), overriding the event's; same rules. */
    joinUrl: text("join_url"),
    /** A group ticket (issue 30): how many people its one QR admits per event day. */
    admits: integer("admits").notNull().default(1),
    createdAt: createdAt(),
  },
  (t) => [
    check("event_fees_admits_pos", sql`${t.admits} >= 1`),
    check("event_fees_amount_nonneg", sql`${t.amountMinor} >= 0`),
    check("event_fees_amount_safe", safeMinor(t.amountMinor)),
    check("event_fees_max_quantity_pos", sql`${t.maxQuantity} IS NULL OR ${t.maxQuantity} >= 1`),
    check("event_fees_max_per_order_pos", sql`${t.maxPerOrder} >= 1`),
    check("event_fees_max_per_account_pos", sql`${t.maxPerAccount} >= 1`),
    check("event_fees_join_url_https", sql`${t.joinUrl} IS NULL OR ${t.joinUrl} LIKE 'https://%'`),
    index("event_fees_event_amount_idx").on(t.eventId, t.amountMinor),
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
    /** Opening hours as staff write them, one line per span ("Mon–Fri 08:00–17:00"). */
    openingHours: text("opening_hours"),
    /** What the office offers visitors and members (short labels, shown as a list). */
    services: text("services").array(),
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

// ---------------------------------------------------------------------------------------------
// Durable jobs (issue 14, decision 0020): one table both databases run, claimed with
// FOR UPDATE SKIP LOCKED and a lease, so a job runs once across instances and survives restarts.
// ---------------------------------------------------------------------------------------------
export const jobState = pgEnum("job_state", ["queued", "running", "succeeded", "failed"]);

export const jobs = pgTable(
  "jobs",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    kind: text("kind").notNull(),
    payload: jsonb("payload").$type<Record<string, unknown>>().notNull().default({}),
    state: jobState("state").notNull().default("queued"),
    runAt: timestamp("run_at", { withTimezone: true }).notNull().defaultNow(),
    attempts: integer("attempts").notNull().default(0),
    maxAttempts: integer("max_attempts").notNull().default(5),
    lastError: text("last_error"),
    /** The worker holding the job while it runs, until locked_until (its lease); then who ran it. */
    lockedBy: text("locked_by"),
    lockedUntil: timestamp("locked_until", { withTimezone: true }),
    /** Dedupes enqueues (e.g. one per order, one per schedule slot); NULL never clashes. */
    uniqueKey: text("unique_key").unique(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    finishedAt: timestamp("finished_at", { withTimezone: true }),
  },
  (t) => [
    index("jobs_due_idx").on(t.runAt).where(sql`${t.state} = 'queued'`),
    index("jobs_lease_idx").on(t.lockedUntil).where(sql`${t.state} = 'running'`),
    index("jobs_state_updated_idx").on(t.state, t.updatedAt.desc()),
    check("jobs_attempts_check", sql`${t.attempts} >= 0 AND ${t.maxAttempts} >= 1`),
  ],
);

/**
 * One row per e-mail sent under a unique key (sendMailOnce): claimed before sending, marked sent
 * after, so a retried job finds the key and does not send the mail again.
 */
export const sentMail = pgTable("sent_mail", {
  key: text("key").primaryKey(),
  recipient: text("recipient").notNull(),
  subject: text("subject").notNull(),
  messageId: text("message_id").notNull(),
  claimedAt: timestamp("claimed_at", { withTimezone: true }).notNull().defaultNow(),
  sentAt: timestamp("sent_at", { withTimezone: true }),
});

export type EventRow = typeof events.$inferSelect;
export type PaperRow = typeof papers.$inferSelect;
export type OfficeRow = typeof offices.$inferSelect;
export type SpeakerRow = typeof speakers.$inferSelect;
export type SponsorRow = typeof sponsors.$inferSelect;
export type EventFeeRow = typeof eventFees.$inferSelect;
export type UserRow = typeof user.$inferSelect;

// ---------------------------------------------------------------------------------------------
// Orders, invoices, payments, receipts (issue 14). Money is integer minor units (cents) only.
// ---------------------------------------------------------------------------------------------
export const orderState = pgEnum("order_state", [
  "awaiting_payment",
  "paid",
  "cancelled",
  "expired",
  "refunded",
]);
export const orderLineKind = pgEnum("order_line_kind", ["event_ticket", "membership_term"]);
export const paymentMethod = pgEnum("payment_method", [
  "mpesa",
  "bank_transfer",
  "card",
  "cash",
  "other",
  "paypal",
]);

/** Online providers that take a payment on their page and refund through their API (issue 31). */
export const onlineProvider = pgEnum("online_provider", ["paystack", "paypal"]);

/** A payment's own life (issue 27): recorded, then refunded in part or in whole. */
export const paymentState = pgEnum("payment_state", ["recorded", "partly_refunded", "refunded"]);
/**
 * How sure we are of an M-Pesa payment's receipt number (issue 34): reported by an unsigned
 * callback, not known yet (to be matched from the statement), or confirmed (statement, Daraja).
 */
export const paymentReceiptStatus = pgEnum("payment_receipt_status", [
  "reported",
  "to_be_matched",
  "confirmed",
]);

export const orders = pgTable(
  "orders",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    // Orders are accounting records: they outlive the buyer's account (set null on deletion).
    buyerId: text("buyer_id").references(() => user.id, { onDelete: "set null" }),
    buyerName: text("buyer_name").notNull(),
    billingEmail: text("billing_email").notNull(),
    organisationName: text("organisation_name"),
    /** KRA PIN (Kenya) or VAT number of the organisation. */
    taxId: text("tax_id"),
    currency: currency("currency").notNull(),
    totalMinor: minor("total_minor").notNull(),
    /** Sum of the payments matched to this order (kept by recordPayment / matchPayment). */
    paidMinor: minor("paid_minor").notNull().default(0),
    /** Sum of the refunds recorded against this order; never more than paidMinor. */
    refundedMinor: minor("refunded_minor").notNull().default(0),
    state: orderState("state").notNull().default("awaiting_payment"),
    /** End of the hold: an order still unpaid then is expired by a job. */
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    paidAt: timestamp("paid_at", { withTimezone: true }),
    closedAt: timestamp("closed_at", { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    check("orders_total_nonneg", sql`${t.totalMinor} >= 0`),
    check("orders_total_safe", safeMinor(t.totalMinor)),
    check("orders_paid_safe", safeMinor(t.paidMinor)),
    check(
      "orders_refunded_range",
      sql`${t.refundedMinor} >= 0 AND ${t.refundedMinor} <= ${t.paidMinor}`,
    ),
    index("orders_buyer_idx").on(t.buyerId, t.createdAt.desc()),
    index("orders_state_expires_idx").on(t.state, t.expiresAt),
  ],
);

export const orderLines = pgTable(
  "order_lines",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    orderId: uuid("order_id")
      .notNull()
      .references(() => orders.id, { onDelete: "cascade" }),
    kind: orderLineKind("kind").notNull(),
    /** The event fee (event_ticket) or membership plan/term (membership_term) bought. */
    referenceId: text("reference_id").notNull(),
    description: text("description").notNull(),
    quantity: integer("quantity").notNull(),
    unitAmountMinor: minor("unit_amount_minor").notNull(),
    lineTotalMinor: minor("line_total_minor").notNull(),
  },
  (t) => [
    check("order_lines_quantity_pos", sql`${t.quantity} >= 1`),
    check("order_lines_unit_nonneg", sql`${t.unitAmountMinor} >= 0`),
    check("order_lines_total", sql`${t.lineTotalMinor} = ${t.quantity} * ${t.unitAmountMinor}`),
    check("order_lines_total_safe", safeMinor(t.lineTotalMinor)),
    index("order_lines_order_idx").on(t.orderId),
    index("order_lines_reference_idx").on(t.kind, t.referenceId),
  ],
);

/** One row per numbered series ('INV-2027', 'RCT-2027'): locked and bumped inside the transaction. */
export const documentCounters = pgTable("document_counters", {
  series: text("series").primaryKey(),
  last: integer("last").notNull(),
});

export const invoices = pgTable(
  "invoices",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    orderId: uuid("order_id")
      .notNull()
      .unique()
      .references(() => orders.id, { onDelete: "restrict" }),
    number: text("number").notNull().unique(),
    year: integer("year").notNull(),
    sequence: integer("sequence").notNull(),
    /**
     * The short payment reference printed as the "Account number" (issue 34): Daraja's
     * AccountReference takes at most 12 characters. Year, sequence and a mod-97 check (digits).
     */
    paymentReference: text("payment_reference").notNull().unique(),
    issuedAt: timestamp("issued_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("invoices_year_sequence_idx").on(t.year, t.sequence),
    check("invoices_payment_reference_short", sql`length(${t.paymentReference}) <= 12`),
  ],
);

export const payments = pgTable(
  "payments",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    /** Null while the payment matches no invoice (kept for reconciliation). */
    orderId: uuid("order_id").references(() => orders.id, { onDelete: "restrict" }),
    /** The invoice number (M-Pesa account) the payer gave, as given. */
    payerAccount: text("payer_account"),
    method: paymentMethod("method").notNull(),
    /** M-Pesa code, bank reference…: unique per method, so one payment is recorded once. */
    reference: text("reference").notNull(),
    amountMinor: minor("amount_minor").notNull(),
    currency: currency("currency").notNull(),
    paidAt: timestamp("paid_at", { withTimezone: true }).notNull(),
    proofKey: text("proof_key"),
    recordedBy: text("recorded_by").references(() => user.id, { onDelete: "set null" }),
    state: paymentState("state").notNull().default("recorded"),
    /** Sum of the refunds recorded against this payment, in its currency's minor units. */
    refundedMinor: minor("refunded_minor").notNull().default(0),
    /**
     * What actually arrived when it differs from the order's currency (issue 29: shillings by
     * M-Pesa against a USD invoice): the amount in `receivedCurrency`'s minor units and the rate
     * used (KES per unit of `currency`, a decimal string kept exactly as configured). All three or none.
     */
    receivedMinor: minor("received_minor"),
    receivedCurrency: currency("received_currency"),
    exchangeRate: text("exchange_rate"),
    /** The M-Pesa receipt number when it is not the reference (an STK push is keyed by its CheckoutRequestID). */
    mpesaReceipt: text("mpesa_receipt"),
    /** Set on payments M-Pesa reported by itself (STK Push, Paybill): how sure the receipt is. */
    receiptStatus: paymentReceiptStatus("receipt_status"),
    /** The paying phone (2547XXXXXXXX) for matching against the statement; shown masked. */
    payerPhone: text("payer_phone"),
    /**
     * Set on a payment an online provider confirmed (issue 31): refunds of it go back through the
     * provider's API (reference = the provider's transaction reference or capture id).
     */
    provider: onlineProvider("provider"),
    createdAt: createdAt(),
  },
  (t) => [
    check("payments_amount_pos", sql`${t.amountMinor} > 0`),
    check("payments_amount_safe", safeMinor(t.amountMinor)),
    check(
      "payments_refunded_within",
      sql`${t.refundedMinor} >= 0 AND ${t.refundedMinor} <= ${t.amountMinor}`,
    ),
    check(
      "payments_received_together",
      sql`(${t.receivedMinor} IS NULL) = (${t.receivedCurrency} IS NULL) AND (${t.receivedMinor} IS NULL) = (${t.exchangeRate} IS NULL)`,
    ),
    check(
      "payments_received_pos",
      sql`${t.receivedMinor} IS NULL OR (${t.receivedMinor} > 0 AND ${t.receivedMinor} <= ${MAX_SAFE_MINOR})`,
    ),
    uniqueIndex("payments_method_reference_idx").on(t.method, t.reference),
    index("payments_order_idx").on(t.orderId),
    index("payments_unmatched_idx").on(t.createdAt.desc()).where(sql`${t.orderId} IS NULL`),
    index("payments_mpesa_receipt_idx").on(t.mpesaReceipt),
  ],
);

// ---------------------------------------------------------------------------------------------
// M-Pesa online (issue 34, decision 0096): every STK push we send is a row; a callback is only a
// hint, confirmed with Daraja (STK query) before one payment is recorded for the push.
// ---------------------------------------------------------------------------------------------
export const mpesaPushState = pgEnum("mpesa_push_state", [
  "pending",
  "paid",
  "cancelled",
  "timed_out",
  "failed",
]);

export const mpesaPushes = pgTable(
  "mpesa_pushes",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    orderId: uuid("order_id")
      .notNull()
      .references(() => orders.id, { onDelete: "restrict" }),
    /** Whole shillings we asked for (Daraja's Amount). */
    amountKes: integer("amount_kes").notNull(),
    /** What the push pays of the order, in the order's currency's minor units. */
    creditMinor: minor("credit_minor").notNull(),
    /** KES per unit of the order's currency used for a foreign-currency order (KES_RATES), else null. */
    exchangeRate: text("exchange_rate"),
    /** 2547XXXXXXXX / 2541XXXXXXXX. */
    phone: text("phone").notNull(),
    merchantRequestId: text("merchant_request_id"),
    checkoutRequestId: text("checkout_request_id").notNull().unique(),
    state: mpesaPushState("state").notNull().default("pending"),
    resultCode: integer("result_code"),
    resultDesc: text("result_desc"),
    /** The MpesaReceiptNumber a callback reported (unsigned: "reported by the callback"). */
    callbackReceipt: text("callback_receipt"),
    callbackAt: timestamp("callback_at", { withTimezone: true }),
    queries: integer("queries").notNull().default(0),
    paymentId: uuid("payment_id").references(() => payments.id, { onDelete: "restrict" }),
    requestedBy: text("requested_by").references(() => user.id, { onDelete: "set null" }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    finishedAt: timestamp("finished_at", { withTimezone: true }),
  },
  (t) => [
    check("mpesa_pushes_amount_pos", sql`${t.amountKes} > 0`),
    check("mpesa_pushes_credit_pos", sql`${t.creditMinor} > 0`),
    index("mpesa_pushes_order_idx").on(t.orderId, t.createdAt.desc()),
    index("mpesa_pushes_state_idx").on(t.state, t.createdAt),
  ],
);

/** A Paybill (C2B) confirmation: a hint until the Transaction Status API confirms it. */
export const mpesaConfirmationState = pgEnum("mpesa_confirmation_state", [
  "reported",
  "confirmed",
  "recorded",
  "unmatched",
  "rejected",
]);

export const mpesaConfirmations = pgTable(
  "mpesa_confirmations",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    /** Daraja's TransID: the M-Pesa receipt number. */
    transId: text("trans_id").notNull().unique(),
    billRefNumber: text("bill_ref_number"),
    /** KES cents as the confirmation reported them. */
    amountMinor: minor("amount_minor").notNull(),
    /** KES cents as the Transaction Status result confirmed them. */
    confirmedAmountMinor: minor("confirmed_amount_minor"),
    msisdn: text("msisdn"),
    payerName: text("payer_name"),
    transTime: timestamp("trans_time", { withTimezone: true }),
    state: mpesaConfirmationState("state").notNull().default("reported"),
    conversationId: text("conversation_id"),
    resultCode: integer("result_code"),
    resultDesc: text("result_desc"),
    paymentId: uuid("payment_id").references(() => payments.id, { onDelete: "restrict" }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    check("mpesa_confirmations_amount_pos", sql`${t.amountMinor} > 0`),
    index("mpesa_confirmations_state_idx").on(t.state, t.createdAt.desc()),
    index("mpesa_confirmations_conversation_idx").on(t.conversationId),
  ],
);

// ---------------------------------------------------------------------------------------------
// PayPal (issue 31, decision 0103): every Orders v2 order we create is a row (one per attempt);
// its capture is recorded once, whether the buyer's return or the webhook reaches us first.
// ---------------------------------------------------------------------------------------------
export const paypalCheckoutState = pgEnum("paypal_checkout_state", [
  "created",
  "captured",
  "cancelled",
  "failed",
]);

export const paypalCheckouts = pgTable(
  "paypal_checkouts",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    orderId: uuid("order_id")
      .notNull()
      .references(() => orders.id, { onDelete: "restrict" }),
    /** PayPal's order id (the `token` on the buyer's return). */
    paypalOrderId: text("paypal_order_id").notNull().unique(),
    /** What we asked PayPal for: the balance due when the attempt started. */
    amountMinor: minor("amount_minor").notNull(),
    currency: currency("currency").notNull(),
    state: paypalCheckoutState("state").notNull().default("created"),
    /** PayPal's capture id once confirmed: the payment's reference. */
    captureId: text("capture_id").unique(),
    paymentId: uuid("payment_id").references(() => payments.id, { onDelete: "restrict" }),
    failure: text("failure"),
    requestedBy: text("requested_by").references(() => user.id, { onDelete: "set null" }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    finishedAt: timestamp("finished_at", { withTimezone: true }),
  },
  (t) => [
    check("paypal_checkouts_amount_pos", sql`${t.amountMinor} > 0`),
    check("paypal_checkouts_amount_safe", safeMinor(t.amountMinor)),
    index("paypal_checkouts_order_idx").on(t.orderId, t.createdAt.desc()),
  ],
);

export type PaypalCheckoutRow = typeof paypalCheckouts.$inferSelect;
export type PaypalCheckoutState = (typeof paypalCheckoutState.enumValues)[number];

export type MpesaPushRow = typeof mpesaPushes.$inferSelect;
export type MpesaPushState = (typeof mpesaPushState.enumValues)[number];
export type MpesaConfirmationRow = typeof mpesaConfirmations.$inferSelect;
export type PaymentReceiptStatus = (typeof paymentReceiptStatus.enumValues)[number];

export const receipts = pgTable("receipts", {
  id: uuid("id").primaryKey().defaultRandom(),
  number: text("number").notNull().unique(),
  paymentId: uuid("payment_id")
    .notNull()
    .unique()
    .references(() => payments.id, { onDelete: "restrict" }),
  orderId: uuid("order_id")
    .notNull()
    .references(() => orders.id, { onDelete: "restrict" }),
  issuedAt: timestamp("issued_at", { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Money given back (issue 26): against an order's payments, never more than was paid, each with
 * its gap-free credit note (CN-YYYY-NNNNNN, series 'CN-YYYY' in document_counters).
 */
export const refunds = pgTable(
  "refunds",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    orderId: uuid("order_id")
      .notNull()
      .references(() => orders.id, { onDelete: "restrict" }),
    /** The payment this refund returns money from (issue 27); null only on rows older than 0012 with no single payment. */
    paymentId: uuid("payment_id").references(() => payments.id, { onDelete: "restrict" }),
    amountMinor: minor("amount_minor").notNull(),
    currency: currency("currency").notNull(),
    /** How the money went back (M-Pesa reversal/B2C, bank transfer, card, cash…). */
    method: paymentMethod("method").notNull(),
    /** The reversal's transaction code or bank reference. */
    reference: text("reference").notNull(),
    reason: text("reason"),
    creditNoteNumber: text("credit_note_number").notNull().unique(),
    year: integer("year").notNull(),
    sequence: integer("sequence").notNull(),
    recordedBy: text("recorded_by").references(() => user.id, { onDelete: "set null" }),
    createdAt: createdAt(),
  },
  (t) => [
    check("refunds_amount_pos", sql`${t.amountMinor} > 0`),
    check("refunds_amount_safe", safeMinor(t.amountMinor)),
    uniqueIndex("refunds_year_sequence_idx").on(t.year, t.sequence),
    index("refunds_order_idx").on(t.orderId, t.createdAt),
    index("refunds_payment_idx").on(t.paymentId),
  ],
);

// ---------------------------------------------------------------------------------------------
// Online providers (issue 31, decision 0099): every Paystack transaction we initialize is a row
// (PayPal keeps its own, paypal_checkouts), and every refund asked of a provider is a row until the
// provider confirms it (then a refund with its credit note is recorded and linked).
// ---------------------------------------------------------------------------------------------
export const paystackCheckoutState = pgEnum("paystack_checkout_state", [
  "pending",
  "paid",
  "failed",
  "expired",
]);

export const paystackCheckouts = pgTable(
  "paystack_checkouts",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    orderId: uuid("order_id")
      .notNull()
      .references(() => orders.id, { onDelete: "restrict" }),
    /** Our reference for the attempt, unique (Paystack's `reference`). */
    reference: text("reference").notNull().unique(),
    /** What the attempt asks for, in the order's currency's subunits. */
    amountMinor: minor("amount_minor").notNull(),
    currency: currency("currency").notNull(),
    state: paystackCheckoutState("state").notNull().default("pending"),
    /** Paystack's hosted page the buyer was sent to. */
    authorizationUrl: text("authorization_url"),
    /** What the verify call last answered (success, abandoned, failed…). */
    gatewayStatus: text("gateway_status"),
    paymentId: uuid("payment_id").references(() => payments.id, { onDelete: "restrict" }),
    requestedBy: text("requested_by").references(() => user.id, { onDelete: "set null" }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    finishedAt: timestamp("finished_at", { withTimezone: true }),
  },
  (t) => [
    check("paystack_checkouts_amount_pos", sql`${t.amountMinor} > 0`),
    check("paystack_checkouts_amount_safe", safeMinor(t.amountMinor)),
    index("paystack_checkouts_order_idx").on(t.orderId, t.createdAt.desc()),
    index("paystack_checkouts_state_idx").on(t.state, t.createdAt),
  ],
);

/**
 * requested: reserved under the payment's lock, the provider not answered yet; pending: the
 * provider accepted it and has not finished; completed: confirmed (refund row + credit note);
 * failed: refused or reversed (the reserved amount is free again).
 */
export const providerRefundState = pgEnum("provider_refund_state", [
  "requested",
  "pending",
  "completed",
  "failed",
]);

export const providerRefunds = pgTable(
  "provider_refunds",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    orderId: uuid("order_id")
      .notNull()
      .references(() => orders.id, { onDelete: "restrict" }),
    paymentId: uuid("payment_id")
      .notNull()
      .references(() => payments.id, { onDelete: "restrict" }),
    provider: onlineProvider("provider").notNull(),
    amountMinor: minor("amount_minor").notNull(),
    currency: currency("currency").notNull(),
    state: providerRefundState("state").notNull().default("requested"),
    /** The provider's id of the refund, once it answered. */
    providerRefundId: text("provider_refund_id"),
    reason: text("reason"),
    /** What the provider said when it refused or reversed the refund. */
    failure: text("failure"),
    /** The refund (credit note) recorded once the provider confirmed it. */
    refundId: uuid("refund_id").references(() => refunds.id, { onDelete: "restrict" }),
    requestedBy: text("requested_by").references(() => user.id, { onDelete: "set null" }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    finishedAt: timestamp("finished_at", { withTimezone: true }),
  },
  (t) => [
    check("provider_refunds_amount_pos", sql`${t.amountMinor} > 0`),
    check("provider_refunds_amount_safe", safeMinor(t.amountMinor)),
    uniqueIndex("provider_refunds_provider_id_idx").on(t.provider, t.providerRefundId),
    index("provider_refunds_payment_idx").on(t.paymentId, t.state),
    index("provider_refunds_order_idx").on(t.orderId, t.createdAt),
  ],
);

export type PaystackCheckoutRow = typeof paystackCheckouts.$inferSelect;
export type PaystackCheckoutState = (typeof paystackCheckoutState.enumValues)[number];
export type ProviderRefundRow = typeof providerRefunds.$inferSelect;
export type ProviderRefundState = (typeof providerRefundState.enumValues)[number];
export type OnlineProviderName = (typeof onlineProvider.enumValues)[number];

export type OrderRow = typeof orders.$inferSelect;
export type RefundRow = typeof refunds.$inferSelect;
export type OrderState = (typeof orderState.enumValues)[number];
export type OrderLineKind = (typeof orderLineKind.enumValues)[number];
export type PaymentState = (typeof paymentState.enumValues)[number];
export type PaymentMethod = (typeof paymentMethod.enumValues)[number];
export type Currency = (typeof currency.enumValues)[number];
export type JobRow = typeof jobs.$inferSelect;

// ---------------------------------------------------------------------------------------------
// Event registration (issue 15): a registration books `quantity` seats of one ticket (event fee)
// for one person; each seat is a ticket with its own QR code, checked in once. Seats are counted
// from registrations that hold them (awaiting_payment until the hold ends, confirmed).
// ---------------------------------------------------------------------------------------------
export const registrationState = pgEnum("registration_state", [
  "awaiting_payment",
  "confirmed",
  "cancelled",
  "expired",
]);
export const waitlistState = pgEnum("waitlist_state", [
  "waiting",
  "offered",
  "claimed",
  "expired",
  "left",
]);

export const registrations = pgTable(
  "registrations",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    eventId: uuid("event_id")
      .notNull()
      .references(() => events.id, { onDelete: "cascade" }),
    /** The ticket (event fee); null for a free event without fees or once the fee is removed. */
    feeId: uuid("fee_id").references(() => eventFees.id, { onDelete: "set null" }),
    /** What was booked, as it was then: fees can change or go after people registered. */
    ticketLabel: text("ticket_label").notNull(),
    unitAmountMinor: minor("unit_amount_minor").notNull().default(0),
    currency: currency("currency"),
    userId: text("user_id").references(() => user.id, { onDelete: "set null" }),
    attendeeName: text("attendee_name").notNull(),
    attendeeEmail: text("attendee_email").notNull(),
    quantity: integer("quantity").notNull(),
    state: registrationState("state").notNull(),
    /** The order paying for a paid registration. */
    orderId: uuid("order_id").references(() => orders.id, { onDelete: "restrict" }),
    /** For awaiting_payment: the seats are held until then (the order's hold). */
    holdUntil: timestamp("hold_until", { withTimezone: true }),
    confirmedAt: timestamp("confirmed_at", { withTimezone: true }),
    cancelledAt: timestamp("cancelled_at", { withTimezone: true }),
    cancelledBy: text("cancelled_by").references(() => user.id, { onDelete: "set null" }),
    cancelReason: text("cancel_reason"),
    /**
     * The seats booked in one go (a delegation, issue 30): each seat is its own registration with
     * its attendee; they share this id (null for a registration booked on its own).
     */
    bookingId: uuid("booking_id"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    check("registrations_quantity_pos", sql`${t.quantity} >= 1`),
    index("registrations_booking_idx").on(t.bookingId),
    index("registrations_event_state_idx").on(t.eventId, t.state),
    index("registrations_fee_state_idx").on(t.feeId, t.state),
    index("registrations_user_idx").on(t.userId, t.createdAt.desc()),
    index("registrations_order_idx").on(t.orderId),
  ],
);

/** One seat of a registration: the QR code carries `code`; check-in is recorded once. */
export const tickets = pgTable(
  "tickets",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    registrationId: uuid("registration_id")
      .notNull()
      .references(() => registrations.id, { onDelete: "cascade" }),
    eventId: uuid("event_id")
      .notNull()
      .references(() => events.id, { onDelete: "cascade" }),
    /** 1..quantity within the registration. */
    seat: integer("seat").notNull(),
    /** Unguessable ticket code (at least 128 bits, base32/base64url): the QR's content. */
    code: text("code").notNull().unique(),
    /** People this ticket admits per event day (the fee's admits when it was issued; group tickets). */
    admits: integer("admits").notNull().default(1),
    createdAt: createdAt(),
  },
  (t) => [
    check("tickets_admits_pos", sql`${t.admits} >= 1`),
    uniqueIndex("tickets_registration_seat_idx").on(t.registrationId, t.seat),
    index("tickets_event_idx").on(t.eventId),
  ],
);

/**
 * A ticket admitted at the door on one day of the event (issue 30): once per ticket per event day
 * (the day in the event's time zone), so a three-day pass is checked in each morning and the door
 * counts each day. The unique index is the guard that twenty phones scanning one code race to.
 */
export const ticketCheckIns = pgTable(
  "ticket_check_ins",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    ticketId: uuid("ticket_id")
      .notNull()
      .references(() => tickets.id, { onDelete: "cascade" }),
    eventId: uuid("event_id")
      .notNull()
      .references(() => events.id, { onDelete: "cascade" }),
    /** The event day (a calendar date in the event's zone) this admission counts for. */
    day: date("day").notNull(),
    checkedInAt: timestamp("checked_in_at", { withTimezone: true }).notNull().defaultNow(),
    checkedInBy: text("checked_in_by").references(() => user.id, { onDelete: "set null" }),
    /** 1..the ticket's admits: the n-th person a group ticket let in that day. */
    admission: integer("admission").notNull().default(1),
  },
  (t) => [
    check("ticket_check_ins_admission_pos", sql`${t.admission} >= 1`),
    uniqueIndex("ticket_check_ins_ticket_day_admission_idx").on(t.ticketId, t.day, t.admission),
    index("ticket_check_ins_event_day_idx").on(t.eventId, t.day, t.checkedInAt),
  ],
);

export const waitlistEntries = pgTable(
  "waitlist_entries",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    eventId: uuid("event_id")
      .notNull()
      .references(() => events.id, { onDelete: "cascade" }),
    /** The ticket waited for. */
    feeId: uuid("fee_id").references(() => eventFees.id, { onDelete: "cascade" }),
    userId: text("user_id").references(() => user.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    email: text("email").notNull(),
    quantity: integer("quantity").notNull().default(1),
    state: waitlistState("state").notNull().default("waiting"),
    offeredAt: timestamp("offered_at", { withTimezone: true }),
    /** For offered: the freed seats are held for this person until then. */
    offerExpiresAt: timestamp("offer_expires_at", { withTimezone: true }),
    /** The registration made when the offer was claimed. */
    registrationId: uuid("registration_id").references(() => registrations.id, {
      onDelete: "set null",
    }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    check("waitlist_quantity_pos", sql`${t.quantity} >= 1`),
    index("waitlist_event_state_idx").on(t.eventId, t.state, t.createdAt),
    // One live place per person and ticket.
    uniqueIndex("waitlist_live_person_idx")
      .on(t.eventId, t.feeId, t.userId)
      .where(sql`${t.state} IN ('waiting', 'offered')`),
  ],
);

export type RegistrationRow = typeof registrations.$inferSelect;
export type RegistrationState = (typeof registrationState.enumValues)[number];
export type TicketRow = typeof tickets.$inferSelect;
export type WaitlistEntryRow = typeof waitlistEntries.$inferSelect;
export type WaitlistState = (typeof waitlistState.enumValues)[number];

// ---------------------------------------------------------------------------------------------
// Membership (issue 16): one membership per person (a lapsed one is re-joined, not duplicated),
// its yearly terms kept as history, the renewal notices it was sent, and corporate seats.
// Every change goes through app/models/membership/membership.server.ts.
// ---------------------------------------------------------------------------------------------
export const membershipState = pgEnum("membership_state", [
  "applied",
  "awaiting_payment",
  "active",
  "renewal_open",
  "grace",
  "lapsed",
  "rejected",
  "cancelled",
]);
export const membershipPlan = pgEnum("membership_plan", [
  "individual",
  "professional",
  "corporate",
]);
export const membershipTermKind = pgEnum("membership_term_kind", ["join", "renewal", "upgrade"]);
export const membershipNoticeKind = pgEnum("membership_notice_kind", [
  "renewal_30d",
  "renewal_7d",
  "ends_today",
  "grace",
]);
export const membershipNoticeStatus = pgEnum("membership_notice_status", [
  "sent",
  "skipped",
  "failed",
]);

export const memberships = pgTable(
  "memberships",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    plan: membershipPlan("plan").notNull(),
    state: membershipState("state").notNull(),
    /** The name on the card, as the person gave it when applying. */
    memberName: text("member_name").notNull(),
    organisationName: text("organisation_name"),
    /** KRA PIN (Kenya) or VAT number of the organisation (Corporate). */
    taxId: text("tax_id"),
    billingContactName: text("billing_contact_name"),
    billingContactEmail: text("billing_contact_email"),
    /** 50% student discount, once staff have approved the proof (a private upload). */
    student: boolean("student").notNull().default(false),
    studentProofKey: text("student_proof_key"),
    /** Why staff rejected the application (e-mailed to the person). */
    rejectionReason: text("rejection_reason"),
    /** Set when the member cancels: access continues until the end of the paid term. */
    cancelRequestedAt: timestamp("cancel_requested_at", { withTimezone: true }),
    /** Unguessable code of the membership card (its QR points at /membership/verify/<code>). */
    cardCode: text("card_code").notNull().unique(),
    /** When the state last changed (for the admin list and the retention report). */
    stateChangedAt: timestamp("state_changed_at", { withTimezone: true }).notNull().defaultNow(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    // One live membership per person; rejected and cancelled ones stay as history.
    uniqueIndex("memberships_live_user_idx")
      .on(t.userId)
      .where(sql`${t.state} NOT IN ('rejected', 'cancelled')`),
    index("memberships_state_idx").on(t.state, t.stateChangedAt),
  ],
);

/**
 * A term bought by an order: created with the order (pending), dated when the order is paid.
 * Renewals follow on from the previous end; upgrades keep the end and change the plan.
 */
export const membershipTerms = pgTable(
  "membership_terms",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    membershipId: uuid("membership_id")
      .notNull()
      .references(() => memberships.id, { onDelete: "cascade" }),
    kind: membershipTermKind("kind").notNull(),
    plan: membershipPlan("plan").notNull(),
    /** The paying order (its line's reference_id is this term's id). */
    orderId: uuid("order_id")
      .notNull()
      .unique()
      .references(() => orders.id, { onDelete: "restrict" }),
    startsAt: timestamp("starts_at", { withTimezone: true }),
    endsAt: timestamp("ends_at", { withTimezone: true }),
    activatedAt: timestamp("activated_at", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    index("membership_terms_membership_idx").on(t.membershipId, t.endsAt),
    check(
      "membership_terms_dates",
      sql`${t.startsAt} IS NULL OR (${t.endsAt} IS NOT NULL AND ${t.endsAt} > ${t.startsAt})`,
    ),
  ],
);

/** Delivery log: one row per (term, notice kind) — sent, skipped with the reason, or failed. */
export const membershipNotices = pgTable(
  "membership_notices",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    membershipId: uuid("membership_id")
      .notNull()
      .references(() => memberships.id, { onDelete: "cascade" }),
    termId: uuid("term_id")
      .notNull()
      .references(() => membershipTerms.id, { onDelete: "cascade" }),
    kind: membershipNoticeKind("kind").notNull(),
    status: membershipNoticeStatus("status").notNull(),
    reason: text("reason"),
    attempts: integer("attempts").notNull().default(1),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex("membership_notices_term_kind_idx").on(t.termId, t.kind)],
);

/**
 * A member's request to move to a reviewed plan (Corporate): the details given, reviewed like an
 * application; one waiting per membership (issue 26, decision 0076).
 */
export const membershipUpgradeRequests = pgTable(
  "membership_upgrade_requests",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    membershipId: uuid("membership_id")
      .notNull()
      .references(() => memberships.id, { onDelete: "cascade" }),
    fromPlan: membershipPlan("from_plan").notNull(),
    toPlan: membershipPlan("to_plan").notNull(),
    organisationName: text("organisation_name"),
    taxId: text("tax_id"),
    billingContactName: text("billing_contact_name"),
    billingContactEmail: text("billing_contact_email"),
    requestedAt: timestamp("requested_at", { withTimezone: true }).notNull().defaultNow(),
    /** Set when staff approve or reject; null while it waits for review. */
    decision: text("decision"),
    decidedAt: timestamp("decided_at", { withTimezone: true }),
    decidedBy: text("decided_by").references(() => user.id, { onDelete: "set null" }),
  },
  (t) => [
    check(
      "membership_upgrade_decision",
      sql`${t.decision} IS NULL OR ${t.decision} IN ('approved', 'rejected')`,
    ),
    uniqueIndex("membership_upgrade_waiting_idx")
      .on(t.membershipId)
      .where(sql`${t.decidedAt} IS NULL`),
  ],
);

/** A Corporate membership's seats: up to 10 colleagues invited by e-mail. */
export const membershipSeats = pgTable(
  "membership_seats",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    membershipId: uuid("membership_id")
      .notNull()
      .references(() => memberships.id, { onDelete: "cascade" }),
    email: text("email").notNull(),
    /** SHA-256 of the invitation token (the token itself is only in the e-mail). */
    tokenHash: text("token_hash").notNull().unique(),
    userId: text("user_id").references(() => user.id, { onDelete: "set null" }),
    invitedAt: timestamp("invited_at", { withTimezone: true }).notNull().defaultNow(),
    /** An invitation not accepted by then is void (issue 26: 30 days unless set otherwise). */
    expiresAt: timestamp("expires_at", { withTimezone: true })
      .notNull()
      .default(sql`now() + interval '30 days'`),
    acceptedAt: timestamp("accepted_at", { withTimezone: true }),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
    /** The seat holder's own membership card (public verification code), set on acceptance. */
    cardCode: text("card_code").unique(),
  },
  (t) => [
    uniqueIndex("membership_seats_live_email_idx")
      .on(t.membershipId, t.email)
      .where(sql`${t.revokedAt} IS NULL`),
    index("membership_seats_user_idx").on(t.userId),
  ],
);

export type MembershipRow = typeof memberships.$inferSelect;
export type MembershipState = (typeof membershipState.enumValues)[number];
export type MembershipPlanId = (typeof membershipPlan.enumValues)[number];
export type MembershipTermRow = typeof membershipTerms.$inferSelect;
export type MembershipNoticeKind = (typeof membershipNoticeKind.enumValues)[number];

// ---------------------------------------------------------------------------------------------
// Calls for papers and peer review (issue 32, decision 0106). A call gathers submissions; each
// submission has ordered authors, one manuscript version per round, reviewer assignments (the
// per-call reviewer capability), reviews per round and one editor decision per round.
// ---------------------------------------------------------------------------------------------
export const callState = pgEnum("call_state", ["draft", "open", "closed"]);
export const blindMode = pgEnum("blind_mode", ["double", "single"]);
export const submissionState = pgEnum("submission_state", [
  "draft",
  "submitted",
  "under_review",
  "revisions_requested",
  "resubmitted",
  "accepted",
  "rejected",
  "withdrawn",
  "desk_rejected",
]);
export const assignmentState = pgEnum("review_assignment_state", [
  /** Waiting for the reviewer to declare conflicts (or, by e-mail, to accept the invitation). */
  "invited",
  /** No conflict declared: the reviewer may open the paper and review. */
  "active",
  "conflicted",
  "declined",
  "cancelled",
]);
export const reviewRecommendation = pgEnum("review_recommendation", [
  "accept",
  "minor",
  "major",
  "reject",
]);
export const reviewState = pgEnum("review_state", ["draft", "submitted"]);
export const decisionOutcome = pgEnum("decision_outcome", [
  "accepted",
  "revisions_requested",
  "rejected",
  "desk_rejected",
]);

/** One review criterion of a call, scored 1–5 by every reviewer. */
export type CallCriterion = { key: string; label: string };

export const calls = pgTable(
  "calls",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    title: text("title").notNull(),
    description: text("description").notNull().default(""),
    /** Tracks (topics) a submission chooses one of; empty: no track asked. */
    tracks: text("tracks").array().notNull().default(sql`'{}'::text[]`),
    submissionDeadline: timestamp("submission_deadline", { withTimezone: true }).notNull(),
    reviewDeadline: timestamp("review_deadline", { withTimezone: true }).notNull(),
    /** The event the call feeds (accepted papers can join its agenda). */
    eventId: uuid("event_id").references(() => events.id, { onDelete: "set null" }),
    blindMode: blindMode("blind_mode").notNull().default("double"),
    criteria: jsonb("criteria").$type<CallCriterion[]>().notNull().default([]),
    state: callState("state").notNull().default("draft"),
    createdBy: text("created_by").references(() => user.id, { onDelete: "set null" }),
    openedAt: timestamp("opened_at", { withTimezone: true }),
    closedAt: timestamp("closed_at", { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("calls_state_deadline_idx").on(t.state, t.submissionDeadline),
    index("calls_event_idx").on(t.eventId),
    check("calls_review_after_submission", sql`${t.reviewDeadline} >= ${t.submissionDeadline}`),
  ],
);

export const submissions = pgTable(
  "submissions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    callId: uuid("call_id")
      .notNull()
      .references(() => calls.id, { onDelete: "restrict" }),
    submitterId: text("submitter_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    title: text("title").notNull().default(""),
    abstract: text("abstract").notNull().default(""),
    keywords: text("keywords").array().notNull().default(sql`'{}'::text[]`),
    track: text("track"),
    /** When the submitter ticked the declaration (originality, ethics, all authors agree). */
    declaredAt: timestamp("declared_at", { withTimezone: true }),
    state: submissionState("state").notNull().default("draft"),
    /** The current review round (1 at first; each "revisions requested" opens the next). */
    round: integer("round").notNull().default(1),
    deskRejectReason: text("desk_reject_reason"),
    submittedAt: timestamp("submitted_at", { withTimezone: true }),
    decidedAt: timestamp("decided_at", { withTimezone: true }),
    withdrawnAt: timestamp("withdrawn_at", { withTimezone: true }),
    stateChangedAt: timestamp("state_changed_at", { withTimezone: true }).notNull().defaultNow(),
    /** The library paper made from it (once: unique). */
    publishedPaperId: uuid("published_paper_id")
      .unique()
      .references(() => papers.id, { onDelete: "set null" }),
    /** The agenda item it was added to (once: unique). */
    agendaItemId: uuid("agenda_item_id")
      .unique()
      .references(() => agendaItems.id, { onDelete: "set null" }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("submissions_call_state_idx").on(t.callId, t.state, t.submittedAt),
    index("submissions_submitter_idx").on(t.submitterId, t.updatedAt.desc()),
    check("submissions_round_pos", sql`${t.round} >= 1`),
  ],
);

export const submissionAuthors = pgTable(
  "submission_authors",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    submissionId: uuid("submission_id")
      .notNull()
      .references(() => submissions.id, { onDelete: "cascade" }),
    /** Order of authorship, from 0. */
    position: integer("position").notNull(),
    name: text("name").notNull(),
    affiliation: text("affiliation"),
    email: text("email"),
    /** ORCID iD as 0000-0000-0000-000X (checksum validated). */
    orcid: text("orcid"),
    corresponding: boolean("corresponding").notNull().default(false),
  },
  (t) => [
    uniqueIndex("submission_authors_position_idx").on(t.submissionId, t.position),
    index("submission_authors_email_idx").on(sql`lower(${t.email})`),
  ],
);

/** The manuscript of one round (with the response letter from round 2 on); frozen once submitted. */
export const submissionVersions = pgTable(
  "submission_versions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    submissionId: uuid("submission_id")
      .notNull()
      .references(() => submissions.id, { onDelete: "cascade" }),
    round: integer("round").notNull(),
    /** Private storage key (folder the public /uploads route refuses). */
    manuscriptKey: text("manuscript_key"),
    manuscriptBytes: integer("manuscript_bytes"),
    /** The copy reviewers download (metadata stripped), when made. */
    reviewerCopyKey: text("reviewer_copy_key"),
    responseLetter: text("response_letter"),
    submittedAt: timestamp("submitted_at", { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex("submission_versions_round_idx").on(t.submissionId, t.round)],
);

/** A reviewer on one submission: the per-call reviewer capability (not a site role). */
export const reviewAssignments = pgTable(
  "review_assignments",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    callId: uuid("call_id")
      .notNull()
      .references(() => calls.id, { onDelete: "cascade" }),
    submissionId: uuid("submission_id")
      .notNull()
      .references(() => submissions.id, { onDelete: "cascade" }),
    /** The reviewer's account; null while an invitation by e-mail waits for one. */
    reviewerId: text("reviewer_id").references(() => user.id, { onDelete: "cascade" }),
    /** The address invited (lower case), kept for the invitation; never shown to authors. */
    invitedEmail: text("invited_email").notNull(),
    /** SHA-256 of the invitation token (the token only travels in the mail). */
    invitationTokenHash: text("invitation_token_hash").unique(),
    dueAt: timestamp("due_at", { withTimezone: true }).notNull(),
    state: assignmentState("state").notNull().default("invited"),
    conflictNote: text("conflict_note"),
    conflictDeclaredAt: timestamp("conflict_declared_at", { withTimezone: true }),
    assignedBy: text("assigned_by").references(() => user.id, { onDelete: "set null" }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("review_assignments_live_email_idx")
      .on(t.submissionId, t.invitedEmail)
      .where(sql`${t.state} NOT IN ('cancelled', 'declined')`),
    index("review_assignments_reviewer_idx").on(t.reviewerId, t.callId),
    index("review_assignments_due_idx").on(t.dueAt),
  ],
);

export const reviews = pgTable(
  "reviews",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    assignmentId: uuid("assignment_id")
      .notNull()
      .references(() => reviewAssignments.id, { onDelete: "cascade" }),
    submissionId: uuid("submission_id")
      .notNull()
      .references(() => submissions.id, { onDelete: "cascade" }),
    round: integer("round").notNull(),
    /** Criterion key → score 1–5. */
    scores: jsonb("scores").$type<Record<string, number>>().notNull().default({}),
    recommendation: reviewRecommendation("recommendation"),
    commentsToAuthors: text("comments_to_authors").notNull().default(""),
    confidentialComments: text("confidential_comments").notNull().default(""),
    state: reviewState("state").notNull().default("draft"),
    submittedAt: timestamp("submitted_at", { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("reviews_assignment_round_idx").on(t.assignmentId, t.round),
    index("reviews_submission_round_idx").on(t.submissionId, t.round),
  ],
);

/** One decision per submission and round: two editors deciding at once produce one row. */
export const decisions = pgTable(
  "decisions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    submissionId: uuid("submission_id")
      .notNull()
      .references(() => submissions.id, { onDelete: "cascade" }),
    round: integer("round").notNull(),
    editorId: text("editor_id").references(() => user.id, { onDelete: "set null" }),
    outcome: decisionOutcome("outcome").notNull(),
    /** The letter as sent to the authors (with the reviewers' comments to authors). */
    letter: text("letter").notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("decisions_submission_round_idx").on(t.submissionId, t.round)],
);

export type CallRow = typeof calls.$inferSelect;
export type CallState = (typeof callState.enumValues)[number];
export type BlindMode = (typeof blindMode.enumValues)[number];
export type SubmissionRow = typeof submissions.$inferSelect;
export type SubmissionState = (typeof submissionState.enumValues)[number];
export type SubmissionAuthorRow = typeof submissionAuthors.$inferSelect;
export type SubmissionVersionRow = typeof submissionVersions.$inferSelect;
export type ReviewAssignmentRow = typeof reviewAssignments.$inferSelect;
export type AssignmentState = (typeof assignmentState.enumValues)[number];
export type ReviewRow = typeof reviews.$inferSelect;
export type ReviewRecommendation = (typeof reviewRecommendation.enumValues)[number];
export type DecisionRow = typeof decisions.$inferSelect;
export type DecisionOutcome = (typeof decisionOutcome.enumValues)[number];
