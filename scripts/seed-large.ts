// `npm run db:seed:large -- --events 100000 --papers 50000`: fills the configured database
// (DATABASE_URL, or the embedded one in DATA_DIR) with many realistic events and papers for
// benchmarks. Set-based SQL (INSERT ... SELECT FROM generate_series) in batches: seconds, not hours.
import { type SQL, sql } from "drizzle-orm";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import pg from "pg";
import { type Database, openDatabase, queryRows } from "~/db/client.server";
import { EnvError, parseEnv, setEnv } from "~/lib/env.server";
import { CATEGORIES } from "~/models/seed/content";

const BATCH = 10_000;

const ADJECTIVES = [
  "Annual",
  "Regional",
  "Global",
  "African",
  "International",
  "National",
  "Executive",
  "Applied",
  "Emerging",
  "Practical",
  "Strategic",
  "Open",
  "Modern",
  "Advanced",
  "Future",
];
const TOPICS = [
  "Data Governance",
  "Records Management",
  "Digital Transformation",
  "Knowledge Management",
  "Information Security",
  "Data Privacy",
  "Artificial Intelligence",
  "Machine Learning",
  "Open Data",
  "Research Data",
  "Digital Preservation",
  "Health Informatics",
  "Data Quality",
  "Metadata",
  "Enterprise Search",
  "Cloud Archives",
  "E-Government",
  "Data Literacy",
  "Information Architecture",
  "Business Intelligence",
];
const KINDS: [string, string][] = [
  ["Summit", "conference"],
  ["Conference", "conference"],
  ["Expo", "exhibition"],
  ["Awards Gala", "gala"],
  ["Workshop", "workshop"],
  ["Bootcamp", "workshop"],
  ["Seminar", "seminar"],
  ["Forum", "seminar"],
  ["Meetup", "networking"],
  ["Roundtable", "networking"],
  ["Webinar", "webinar"],
  ["Vendor Day", "vendor"],
];
const PLACES = [
  "Nairobi, Kenya",
  "Mombasa, Kenya",
  "Kigali, Rwanda",
  "Kampala, Uganda",
  "Dar es Salaam, Tanzania",
  "Addis Ababa, Ethiopia",
  "Lagos, Nigeria",
  "Accra, Ghana",
  "Dakar, Senegal",
  "Cairo, Egypt",
  "Johannesburg, South Africa",
  "Cape Town, South Africa",
  "London, United Kingdom",
  "Edinburgh, United Kingdom",
  "Berlin, Germany",
  "Paris, France",
  "Amsterdam, Netherlands",
  "Dubai, United Arab Emirates",
  "Mumbai, India",
  "Singapore, Singapore",
  "Tokyo, Japan",
  "Sydney, Australia",
  "Auckland, New Zealand",
  "Toronto, Canada",
  "New York, United States",
  "Chicago, United States",
  "Sao Paulo, Brazil",
  "Bogota, Colombia",
  "Lima, Peru",
  "Virtual Event, Online",
];
const THEMES = [
  "Trusted Data for Everyone",
  "From Strategy to Practice",
  "Building Capability at Scale",
  "Innovation with Integrity",
  "Connecting People and Knowledge",
  "Resilient Information Systems",
  "Evidence for Better Decisions",
  "Inclusive Digital Futures",
];
const AUDIENCES = [
  "records managers",
  "chief data officers",
  "archivists",
  "librarians",
  "data stewards",
  "researchers",
  "public servants",
  "security teams",
  "knowledge managers",
  "analysts",
];
const SECTORS = [
  "Technology & Software",
  "Financial Services",
  "Healthcare & Life Sciences",
  "Government & Public Sector",
  "Education & Research",
  "Other Industries",
];
const FIRST = [
  "Wanjiku",
  "Adebayo",
  "Priya",
  "Lars",
  "Mei-Ling",
  "Carlos",
  "Amara",
  "Sarah",
  "Hiroshi",
  "Fatima",
  "James",
  "Ngozi",
  "Isabela",
  "Tom",
  "Elena",
  "Michael",
  "Grace",
  "Kwame",
  "Aroha",
  "Omar",
  "Lucia",
  "Samuel",
  "Ingrid",
  "Arjun",
];
const LAST = [
  "Kamau",
  "Okonkwo",
  "Raghunathan",
  "Henriksen",
  "Chen",
  "Mendoza",
  "Diallo",
  "O'Connell",
  "Tanaka",
  "Al-Sayed",
  "Whitfield",
  "Eze",
  "Costa",
  "Nguyen",
  "Petrova",
  "Otieno",
  "Njeri",
  "Mensah",
  "Walker",
  "Haddad",
  "Ramirez",
  "Boateng",
  "Solberg",
  "Mehta",
];
const METHODS = [
  "A Case Study",
  "A Survey",
  "Lessons Learned",
  "An Empirical Analysis",
  "A Framework",
  "A Comparative Study",
  "Evidence from Practice",
  "A Maturity Model",
];
const CONTEXTS = [
  "Public Sector Agencies",
  "East African Banks",
  "Universities",
  "Hospitals",
  "Small Businesses",
  "Research Institutes",
  "Municipal Governments",
  "Telecommunications",
  "Humanitarian Organisations",
  "Museums and Archives",
];
const FINDINGS = [
  "improved retrieval times",
  "reduced compliance findings",
  "increased data reuse",
  "lowered storage costs",
  "raised user trust",
  "shortened reporting cycles",
];

/** A SQL array literal of our own constant words (quoted safely). */
function textArray(values: string[]): SQL {
  return sql.raw(`ARRAY[${values.map((v) => `'${v.replace(/'/g, "''")}'`).join(",")}]::text[]`);
}
/** The element of `array` (a SQL array of length `length`) picked by `expr` (1-based, modulo). */
function pick(array: SQL, length: number, expr: string): SQL {
  return sql`(${array})[1 + ((${sql.raw(expr)}) % ${sql.raw(String(length))})]`;
}

function option(name: string, fallback: number) {
  const index = process.argv.indexOf(`--${name}`);
  if (index < 0) return fallback;
  const value = Number(process.argv[index + 1]);
  if (!Number.isInteger(value) || value < 0) {
    console.error(`--${name} must be a whole number (got "${process.argv[index + 1]}")`);
    process.exit(1);
  }
  return value;
}

async function insertEvents(db: Database, total: number) {
  const [{ offset }] = await queryRows<{ offset: number }>(
    sql`SELECT count(*)::int AS offset FROM events`,
    db,
  );
  const adjectives = textArray(ADJECTIVES);
  const topics = textArray(TOPICS);
  const kinds = textArray(KINDS.map(([k]) => k));
  const kindTypes = textArray(KINDS.map(([, t]) => t));
  const places = textArray(PLACES);
  const themes = textArray(THEMES);
  const audiences = textArray(AUDIENCES);
  const sectors = textArray(SECTORS);
  const categories = textArray(CATEGORIES.map((c) => c.name));
  let inserted = 0;
  for (let from = 1; from <= total; from += BATCH) {
    const to = Math.min(total, from + BATCH - 1);
    const [{ n }] = await queryRows<{ n: number }>(
      sql`
      WITH src AS (
        SELECT g + ${offset} AS n, g,
          ${pick(adjectives, ADJECTIVES.length, "g * 7")} AS adjective,
          ${pick(topics, TOPICS.length, "g * 13 + g / 7")} AS topic,
          (g * 11 + g / 3) % ${sql.raw(String(KINDS.length))} AS kind_index,
          ${pick(places, PLACES.length, "g * 17 + g / 11")} AS place,
          ${pick(audiences, AUDIENCES.length, "g * 3 + g / 5")} AS audience
        FROM generate_series(${from}::int, ${to}::int) AS g
      ), rows AS (
        SELECT src.*,
          (${kinds})[1 + kind_index] AS kind,
          (${kindTypes})[1 + kind_index] AS event_type,
          format('%s %s %s, %s Edition %s', adjective, topic, (${kinds})[1 + kind_index],
            split_part(place, ',', 1), n) AS title,
          date_trunc('hour', now()) + make_interval(days => (g * 37) % 1460 - 730, hours => (g % 9) - 3) AS start_date
        FROM src
      ), ins AS (
        INSERT INTO events (title, slug, description, location, start_date, end_date, theme,
          event_type, category, industry_sector, tags, status, featured, created_at)
        SELECT title,
          trim(BOTH '-' FROM lower(regexp_replace(title, '[^A-Za-z0-9]+', '-', 'g'))),
          format('A %s %s on %s for %s. Practitioners from %s share case studies, tools and lessons learned, with time for questions and networking.',
            lower(adjective), lower(kind), lower(topic), audience, split_part(place, ',', 1)),
          place,
          start_date,
          start_date + make_interval(days => CASE WHEN event_type IN ('conference', 'exhibition') THEN g % 4 ELSE 0 END, hours => 8),
          ${pick(themes, THEMES.length, "g * 5 + g / 13")},
          event_type,
          CASE WHEN g % 9 = 0 THEN NULL ELSE ${pick(categories, CATEGORIES.length, "g * 19 + g / 17")} END,
          ${pick(sectors, SECTORS.length, "g * 23")},
          ARRAY[lower(topic), audience, lower(kind)],
          (CASE WHEN g % 20 = 0 THEN 'draft' WHEN g % 20 = 1 THEN 'archived' ELSE 'published' END)::event_status,
          g % 50 = 2,
          LEAST(now(), start_date - interval '60 days') - make_interval(secs => g)
        FROM rows
        ON CONFLICT DO NOTHING
        RETURNING id, start_date, location
      ), fees AS (
        INSERT INTO event_fees (event_id, fee_type, amount_minor, currency, description, available_until, max_quantity)
        SELECT id, f.fee_type::fee_type,
          -- whole units of two-decimal currencies, in minor units (cents)
          100 * CASE WHEN location LIKE '%Kenya' THEN f.amount * 130 ELSE f.amount END,
          (CASE WHEN location LIKE '%Kenya' THEN 'KES' WHEN location LIKE '%United Kingdom' THEN 'GBP'
            WHEN location ~ '(Germany|France|Netherlands)$' THEN 'EUR' ELSE 'USD' END)::currency,
          f.description,
          CASE WHEN f.fee_type = 'early_bird' THEN (start_date - interval '21 days')::date END,
          f.max_quantity
        FROM ins CROSS JOIN (VALUES
          ('conference_only', 350, 'Standard registration', NULL::int),
          ('early_bird', 250, 'Early registration', NULL::int),
          ('student', 90, 'Valid student ID required', 40)
        ) AS f(fee_type, amount, description, max_quantity)
        RETURNING 1
      )
      SELECT count(*)::int AS n FROM ins`,
      db,
    );
    inserted += n;
    process.stdout.write(
      `\r  events: ${inserted.toLocaleString("en-US")} / ${total.toLocaleString("en-US")}`,
    );
  }
  process.stdout.write("\n");
  return inserted;
}

async function insertPapers(db: Database, total: number) {
  const [{ offset }] = await queryRows<{ offset: number }>(
    sql`SELECT count(*)::int AS offset FROM papers`,
    db,
  );
  const topics = textArray(TOPICS);
  const contexts = textArray(CONTEXTS);
  const methods = textArray(METHODS);
  const first = textArray(FIRST);
  const last = textArray(LAST);
  const findings = textArray(FINDINGS);
  const categories = textArray(CATEGORIES.map((c) => c.name));
  let inserted = 0;
  for (let from = 1; from <= total; from += BATCH) {
    const to = Math.min(total, from + BATCH - 1);
    const [{ n }] = await queryRows<{ n: number }>(
      sql`
      WITH src AS (
        SELECT g + ${offset} AS n, g,
          ${pick(topics, TOPICS.length, "g * 7 + g / 3")} AS topic,
          ${pick(contexts, CONTEXTS.length, "g * 11 + g / 13")} AS context,
          ${pick(methods, METHODS.length, "g * 5 + g / 17")} AS method,
          ${pick(findings, FINDINGS.length, "g * 3")} AS finding,
          (CASE g % 20 WHEN 0 THEN 'draft' WHEN 1 THEN 'submitted' WHEN 2 THEN 'under_review'
            WHEN 3 THEN 'accepted' WHEN 4 THEN 'rejected' ELSE 'published' END)::paper_status AS status,
          now() - make_interval(days => (g * 29) % 1000, secs => g) AS created_at
        FROM generate_series(${from}::int, ${to}::int) AS g
      ), ins AS (
        INSERT INTO papers (title, slug, abstract, authors, category, tags, status, published_date, download_count, created_at)
        SELECT format('%s in %s: %s', topic, context, method),
          trim(BOTH '-' FROM lower(regexp_replace(format('%s in %s %s', topic, context, n), '[^A-Za-z0-9]+', '-', 'g'))),
          format('We study %s in %s. Drawing on interviews, documents and system data, we find that clear ownership and simple standards %s. We close with recommendations for practitioners and policy makers.',
            lower(topic), lower(context), finding),
          CASE WHEN g % 3 = 0
            THEN ARRAY[${pick(first, FIRST.length, "g")} || ' ' || ${pick(last, LAST.length, "g * 7")}]
            ELSE ARRAY[${pick(first, FIRST.length, "g")} || ' ' || ${pick(last, LAST.length, "g * 7")},
                       ${pick(first, FIRST.length, "g * 5 + 3")} || ' ' || ${pick(last, LAST.length, "g * 11 + 1")}]
          END,
          ${pick(categories, CATEGORIES.length, "g * 13")},
          ARRAY[lower(topic), lower(split_part(context, ' ', 1)), lower(method)],
          status,
          CASE WHEN status = 'published' THEN created_at::date END,
          CASE WHEN status = 'published' THEN (g * 31) % 900 ELSE 0 END,
          created_at
        FROM src
        ON CONFLICT DO NOTHING
        RETURNING 1
      )
      SELECT count(*)::int AS n FROM ins`,
      db,
    );
    inserted += n;
    process.stdout.write(
      `\r  papers: ${inserted.toLocaleString("en-US")} / ${total.toLocaleString("en-US")}`,
    );
  }
  process.stdout.write("\n");
  return inserted;
}

/** Drops the GIN (search) indexes of events and papers; returns their definitions. */
async function dropSearchIndexes(db: Database) {
  const indexes = await queryRows<{ name: string; definition: string }>(
    sql`SELECT indexname AS name, indexdef AS definition FROM pg_indexes
        WHERE schemaname = current_schema() AND tablename IN ('events', 'papers')
          AND indexdef ILIKE '% USING gin %'`,
    db,
  );
  for (const index of indexes) await db.execute(sql.raw(`DROP INDEX "${index.name}"`));
  return indexes.map((i) => i.definition);
}

async function main() {
  let env: ReturnType<typeof parseEnv>;
  try {
    env = parseEnv();
  } catch (error) {
    if (error instanceof EnvError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  setEnv(env);
  const eventCount = option("events", 100_000);
  const paperCount = option("papers", 50_000);
  const { db, kind, close } = await connect(env);
  try {
    const where = env.DATABASE_URL
      ? "PostgreSQL (DATABASE_URL)"
      : `embedded database in ${env.DATA_DIR}`;
    console.log(`Filling the ${where}: ${eventCount} events, ${paperCount} papers…`);
    const started = Date.now();
    // The generated events use these categories (types exist from the migrations).
    for (const category of CATEGORIES) {
      await db.execute(sql`
        INSERT INTO event_categories (name, description, color, icon, industry_sector)
        VALUES (${category.name}, ${category.description}, ${category.color}, ${category.icon}, ${category.industrySector})
        ON CONFLICT (name) DO NOTHING`);
    }
    const { events, papers } = await db.transaction(async (tx) => {
      const t = tx as unknown as Database;
      // Maintaining the trigram/full-text GIN indexes row by row dominates a large insert: for a
      // big batch drop them and rebuild them once at the end (same definitions; in the same
      // transaction, so a failure leaves the indexes as they were).
      const rebuild = eventCount + paperCount >= 20_000 ? await dropSearchIndexes(t) : [];
      const events = await insertEvents(t, eventCount);
      const papers = await insertPapers(t, paperCount);
      if (rebuild.length) {
        const rebuildStarted = Date.now();
        if (kind === "postgres") await t.execute(sql`SET LOCAL maintenance_work_mem = '256MB'`);
        for (const definition of rebuild) await t.execute(sql.raw(definition));
        console.log(
          `  rebuilt ${rebuild.length} search indexes in ${((Date.now() - rebuildStarted) / 1000).toFixed(1)} s`,
        );
      }
      return { events, papers };
    });
    // VACUUM as autovacuum would soon: sets the visibility map, so counts can read indexes only.
    await db.execute(sql`VACUUM ANALYZE events`);
    await db.execute(sql`VACUUM ANALYZE event_fees`);
    await db.execute(sql`VACUUM ANALYZE papers`);
    const [totals] = await queryRows<{ events: number; papers: number; fees: number }>(
      sql`SELECT (SELECT count(*)::int FROM events) AS events, (SELECT count(*)::int FROM papers) AS papers,
        (SELECT count(*)::int FROM event_fees) AS fees`,
      db,
    );
    console.log(
      `Inserted ${events} events (with ${events * 3} fees) and ${papers} papers in ${((Date.now() - started) / 1000).toFixed(1)} s.`,
    );
    console.log(
      `The database now holds ${totals.events} events, ${totals.fees} fees and ${totals.papers} papers.`,
    );
  } finally {
    await close();
  }
}

/**
 * The database to fill, migrated. PostgreSQL: one dedicated connection without the app pool's
 * query timeout (rebuilding an index over 100,000 rows takes longer than a request may).
 */
async function connect(env: ReturnType<typeof parseEnv>) {
  const handle = await openDatabase(
    env.DATABASE_URL ? { databaseUrl: env.DATABASE_URL } : { dataDir: env.DATA_DIR },
  );
  await handle.migrate();
  if (!env.DATABASE_URL) return { db: handle.db, kind: handle.kind, close: () => handle.close() };
  await handle.close();
  const client = new pg.Client({ connectionString: env.DATABASE_URL });
  await client.connect();
  const db = drizzlePg({ client }) as unknown as Database;
  return { db, kind: "postgres" as const, close: () => client.end() };
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
