// npm run bench:registration [-- --instances 2 --concurrency 50 --duration 60 --paid --kill-one
//   --stalled-smtp --capacity 10000 --accounts 6000 --hoarders 5 --port 4660 --jobs-poll-ms 5000
//   --profile DIR]
// Registration opening day (issue 33): N verified accounts are made directly in a fresh
// PostgreSQL database, one event opens with a large capacity, and `concurrency` clients post the
// registration form the browser posts (intent=book, one seat, the account's session cookie, the
// site's Origin, each client from its own address through TRUST_PROXY) for `duration` seconds
// against one or two production instances sharing PostgreSQL and Redis. Each account registers
// once (a free event allows one registration per account); a few hoarding accounts keep posting
// and must get nothing beyond their share. Prints confirmed/s, p50/p95/p99, status counts, and
// then checks the database itself: seats confirmed + held ≤ capacity, no duplicate ticket codes,
// every registration a client saw succeed is there, invoice numbers gap-free, every unpaid hold
// has its expiry job. --kill-one SIGKILLs the second instance halfway (its clients move to the
// first, as a load balancer would); --stalled-smtp points both at an SMTP server that accepts
// connections and never answers. Everything listens on 127.0.0.1 only; the run is bounded in time
// (duration + 60 s of grace) and in count (the accounts made).
import { execSync } from "node:child_process";
import { createHmac, randomBytes, randomUUID } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { createServer, type Socket } from "node:net";
import { availableParallelism } from "node:os";
import { parseArgs } from "node:util";
import pg from "pg";
import { type Server, startBuiltServer, table } from "./lib";

const { values } = parseArgs({
  options: {
    instances: { type: "string", default: "2" },
    concurrency: { type: "string", default: "50" },
    duration: { type: "string", default: "60" },
    // Large enough that a quick machine does not sell out before 60 s (82 a second did, with 5000).
    capacity: { type: "string", default: "10000" },
    accounts: { type: "string" },
    hoarders: { type: "string", default: "5" },
    paid: { type: "boolean", default: false },
    "kill-one": { type: "boolean", default: false },
    "stalled-smtp": { type: "boolean", default: false },
    port: { type: "string", default: "4660" },
    /** The instances' JOBS_POLL_MS; the site's default (5000) unless said. */
    "jobs-poll-ms": { type: "string", default: "5000" },
    database: { type: "string", default: "kongamano_bench_registration" },
    "pg-url": { type: "string", default: "postgres://postgres@127.0.0.1:5432" },
    "redis-url": { type: "string", default: "redis://127.0.0.1:6379" },
    json: { type: "boolean", default: false },
    /** A directory: the instances run under `node --cpu-prof` and write their profiles there. */
    profile: { type: "string" },
  },
});
/** The waiting page's re-post interval here (the page's own script waits about 2 s). */
const POLL_MS = 250;
/** A hoarding client posts at most this often (10 a second each). */
const HOARDER_PAUSE_MS = 100;
const instances = Number(values.instances);
const concurrency = Number(values.concurrency);
const durationS = Number(values.duration);
const capacity = Number(values.capacity);
const hoarders = Number(values.hoarders);
const basePort = Number(values.port);
if (![1, 2].includes(instances)) throw new Error("--instances is 1 or 2");
if (!(concurrency >= 1 && concurrency <= 500)) throw new Error("--concurrency is 1 to 500");
if (!(durationS >= 1 && durationS <= 600)) throw new Error("--duration is 1 to 600 seconds");
if (!/^[a-z_][a-z0-9_]*$/.test(values.database)) throw new Error("--database: a plain name");
for (const url of [values["pg-url"], values["redis-url"]]) {
  const host = new URL(url).hostname;
  if (host !== "127.0.0.1" && host !== "localhost") throw new Error(`${url}: 127.0.0.1 only`);
}
// Enough accounts for the best rate the site could reach, bounded.
const accountCount = Math.min(
  Number(values.accounts ?? Math.max(200, Math.ceil(durationS * 150))),
  50_000,
);

const adminUrl = `${values["pg-url"]}/postgres`;
const dbUrl = `${values["pg-url"]}/${values.database}`;
const secret = `bench-registration-${randomBytes(16).toString("hex")}`;
execSync(
  `psql "${adminUrl}" -qc "drop database if exists ${values.database} with (force)" -c "create database ${values.database}"`,
);
// Shared limits start empty (the rate-limit counters of earlier runs would refuse us).
execSync(
  `redis-cli -u ${values["redis-url"]} --no-raw eval "for _,k in ipairs(redis.call('keys','ratelimit:*')) do redis.call('del',k) end" 0`,
);

// A mail server that accepts connections and never says a word (not even its greeting).
const stalledSockets = new Set<Socket>();
const stalled = values["stalled-smtp"]
  ? await new Promise<ReturnType<typeof createServer>>((resolve) => {
      const server = createServer((socket) => {
        stalledSockets.add(socket);
        socket.on("error", () => {});
        socket.on("close", () => stalledSockets.delete(socket));
      });
      server.listen(basePort + 19, "127.0.0.1", () => resolve(server));
    })
  : null;

const shared: Record<string, string> = {
  DATABASE_URL: dbUrl,
  REDIS_URL: values["redis-url"],
  SESSION_SECRET: secret,
  SEED_DEMO: "false",
  TRUST_PROXY: "loopback",
  HOST: "127.0.0.1",
  JOBS_POLL_MS: values["jobs-poll-ms"],
  ...(stalled ? { SMTP_URL: `smtp://127.0.0.1:${basePort + 19}` } : {}),
};
const nodeArgs = values.profile ? ["--cpu-prof", `--cpu-prof-dir=${values.profile}`] : [];
const servers: Server[] = [];
const stopAll = async () => {
  await Promise.all(servers.map((s) => s.stop()));
  for (const socket of stalledSockets) socket.destroy();
  stalled?.close();
};
process.once("SIGINT", () => {
  void stopAll().then(() => process.exit(130));
});

try {
  // The first instance migrates the empty database; the data is made before the second starts.
  servers.push(await startBuiltServer(shared, basePort, nodeArgs));
  const db = new pg.Pool({ connectionString: dbUrl, max: 4 });
  const prepared = await prepare(db);
  if (instances === 2) servers.push(await startBuiltServer(shared, basePort + 1, nodeArgs));
  console.log(
    `${instances} instance(s) on PostgreSQL + Redis, ${concurrency} clients, ${durationS} s, ` +
      `${values.paid ? "paid" : "free"} ticket, capacity ${capacity}, ${accountCount} accounts, ` +
      `${hoarders} hoarders${values["kill-one"] ? ", second instance SIGKILLed halfway" : ""}` +
      `${stalled ? ", SMTP stalled" : ""}; load average ${loadAverage()}`,
  );
  const cpuBefore = cpuByProcess();
  const runStarted = new Date();
  const outcome = await drive(prepared);
  outcome.cpu = cpuSpent(cpuBefore, cpuByProcess());
  // What the job workers did meanwhile (they step back while the site is busy, decision 0115).
  const jobsDone = await db.query(
    `select kind, count(*)::int as n from jobs
      where state = 'succeeded' and finished_at >= $1 group by kind order by kind`,
    [runStarted],
  );
  console.log(
    `jobs done during the run (JOBS_POLL_MS ${values["jobs-poll-ms"]}): ${
      jobsDone.rows.map((r) => `${r.kind} × ${r.n}`).join(", ") || "none"
    }`,
  );
  const checks = await verify(db, prepared, outcome);
  await db.end();
  report(outcome, checks);
  if (checks.some((c) => !c.ok) || outcome.status5xx > 0) process.exitCode = 1;
} finally {
  await stopAll();
}

/** CPU seconds (user + system) each process has used so far, by pid, with its name. */
function cpuByProcess() {
  const spent = new Map<number, { name: string; seconds: number }>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const name = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      // utime and stime (fields 14 and 15 of proc(5)) in clock ticks; USER_HZ is 100 on Linux.
      spent.set(Number(entry), { name, seconds: (Number(fields[11]) + Number(fields[12])) / 100 });
    } catch {
      // The process ended while we read.
    }
  }
  return spent;
}

/** Where the processors went during the run: the instances, PostgreSQL, Redis, this process. */
function cpuSpent(before: Map<number, { name: string; seconds: number }>, after: typeof before) {
  const instancePids = new Set(servers.map((s) => s.child.pid));
  const groups = new Map<string, number>();
  for (const [pid, { name, seconds }] of after) {
    const used = seconds - (before.get(pid)?.seconds ?? 0);
    if (used <= 0) continue;
    const group = instancePids.has(pid)
      ? "instances"
      : pid === process.pid
        ? "load generator"
        : name.startsWith("postgres")
          ? "PostgreSQL"
          : name.startsWith("redis")
            ? "Redis"
            : "other";
    groups.set(group, (groups.get(group) ?? 0) + used);
  }
  return groups;
}

function loadAverage() {
  return execSync("cut -d' ' -f1-3 /proc/loadavg").toString().trim();
}

type Account = { id: string; email: string; cookie: string; ip: string };
type Prepared = {
  eventId: string;
  slug: string;
  ticket: string; // the form's value: the fee's id, or "free"
  accounts: Account[];
  hoarders: Account[];
};

/** Verified accounts with open sessions, and the event, written straight into the database. */
async function prepare(db: pg.Pool): Promise<Prepared> {
  const started = Date.now();
  const slug = `opening-day-${Date.now()}`;
  const start = new Date(Date.now() + 30 * 86_400_000);
  const {
    rows: [event],
  } = await db.query(
    `insert into events (title, slug, location, start_date, end_date, status, capacity)
     values ($1, $2, 'Nairobi', $3, $4, 'published', $5) returning id`,
    [`Annual Summit ${slug}`, slug, start, new Date(start.getTime() + 2 * 86_400_000), capacity],
  );
  let ticket = "free";
  if (values.paid) {
    const {
      rows: [fee],
    } = await db.query(
      `insert into event_fees (event_id, fee_type, amount_minor, currency, max_per_order, max_per_account)
       values ($1, 'conference_only', 1500000, 'KES', 10, 1) returning id`,
      [event.id],
    );
    ticket = fee.id;
  }
  const total = accountCount + hoarders;
  const all: Account[] = [];
  for (let offset = 0; offset < total; offset += 1000) {
    const batch = Array.from({ length: Math.min(1000, total - offset) }, (_, i) => {
      const n = offset + i;
      const token = randomBytes(24).toString("base64url");
      const signature = createHmac("sha256", secret).update(token).digest("base64");
      return {
        id: randomUUID(),
        email: `bench-${n}@example.org`,
        token,
        cookie: `kongamano.session_token=${encodeURIComponent(`${token}.${signature}`)}`,
        // Each client comes from its own address (10.x.y.z), as visitors on opening day do.
        ip: `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`,
      };
    });
    await db.query(
      `insert into "user" (id, full_name, email, email_verified)
       select * from unnest($1::text[], $2::text[], $3::text[], $4::bool[])`,
      [
        batch.map((a) => a.id),
        batch.map((_, i) => `Bench Attendee ${offset + i}`),
        batch.map((a) => a.email),
        batch.map(() => true),
      ],
    );
    // Sessions as fresh as a sign-in just before the rush (14 days, the site's session length):
    // one a day older would be renewed by its first request, as the visit to the page before
    // the post does in a browser.
    await db.query(
      `insert into session (id, token, user_id, expires_at, ip_address)
       select *, now() + interval '14 days', '127.0.0.1' from unnest($1::text[], $2::text[], $3::text[])`,
      [batch.map(() => randomUUID()), batch.map((a) => a.token), batch.map((a) => a.id)],
    );
    for (const { id, email, cookie, ip } of batch) all.push({ id, email, cookie, ip });
  }
  console.log(`prepared ${total} accounts and the event in ${Date.now() - started} ms`);
  return {
    eventId: event.id,
    slug,
    ticket,
    accounts: all.slice(hoarders),
    hoarders: all.slice(0, hoarders),
  };
}

type Outcome = {
  elapsedS: number;
  latencies: number[];
  /** Latencies of the answers that were let in, less their time held in line on the server. */
  served: number[];
  statuses: Map<string, number>;
  status5xx: number;
  /** What clients saw succeed: registration ids (free) and order ids (paid). */
  registrationIds: string[];
  orderIds: string[];
  hoarderSuccesses: number;
  killedAt: number | null;
  visits: Visit[];
  /** Posts answered with the waiting page. */
  polls: number;
  /** CPU seconds during the run, by process group (instances, PostgreSQL, Redis, …). */
  cpu?: Map<string, number>;
};

async function drive(prepared: Prepared): Promise<Outcome> {
  const latencies: number[] = [];
  const served: number[] = [];
  const statuses = new Map<string, number>();
  const registrationIds: string[] = [];
  const orderIds: string[] = [];
  let status5xx = 0;
  let hoarderSuccesses = 0;
  let next = 0;
  const alive = servers.map(() => true);
  const started = performance.now();
  const endAt = started + durationS * 1000;
  let killedAt: number | null = null;
  const killer =
    values["kill-one"] && servers.length === 2
      ? setTimeout(
          () => {
            killedAt = (performance.now() - started) / 1000;
            alive[1] = false;
            servers[1].child.kill("SIGKILL");
            console.log(`SIGKILL to the second instance at ${killedAt.toFixed(1)} s`);
          },
          (durationS * 1000) / 2,
        )
      : null;
  const count = (key: string) => statuses.set(key, (statuses.get(key) ?? 0) + 1);
  const visits: Visit[] = [];
  let polls = 0;

  // One visit: the first post, then (when the answer is the waiting page) the page's re-post
  // with its queueNumber every POLL_MS, as the page's script does, until let in.
  const post = async (account: Account, clientIndex: number) => {
    // The client's instance (a load balancer's choice); a dead one's clients go to the other.
    const target = () => {
      const chosen = clientIndex % servers.length;
      return servers[alive[chosen] ? chosen : alive.findIndex(Boolean)].url;
    };
    const fields = {
      intent: "book",
      [`qty.${prepared.ticket}`]: "1",
      "seats[0].ticket": prepared.ticket,
      "seats[0].name": `Attendee ${account.email}`,
      "seats[0].email": account.email,
    };
    const visit: Visit = {
      number: null,
      firstSentAt: performance.now(),
      firstAnsweredAt: Number.NaN,
      lastWaitSentAt: Number.NaN,
      admittedAt: Number.NaN,
    };
    visits.push(visit);
    let queueNumber: string | null = null;
    for (;;) {
      const url = target();
      const t0 = performance.now();
      try {
        const response: Response = await fetch(`${url}/events/${prepared.slug}/register`, {
          method: "POST",
          headers: {
            "Content-Type": "application/x-www-form-urlencoded",
            Origin: url,
            Cookie: account.cookie,
            "X-Forwarded-For": account.ip,
            Accept: "text/html",
            "Accept-Encoding": "gzip, deflate, br, zstd",
          },
          body: new URLSearchParams(queueNumber ? { ...fields, queueNumber } : fields),
          redirect: "manual",
          signal: AbortSignal.timeout(30_000),
        });
        const html: string = await response.text();
        const t1 = performance.now();
        if (Number.isNaN(visit.firstAnsweredAt)) visit.firstAnsweredAt = t1;
        const number = response.headers.get("x-queue-number");
        const waitingFor: string | undefined = /name="queueNumber" value="([^"]+)"/.exec(html)?.[1];
        if (response.status === 200 && waitingFor) {
          // The waiting page: its place was given; look again shortly (while the run lasts).
          polls++;
          if (!number) count("waiting page without X-Queue-Number");
          visit.number ??= Number(number);
          visit.lastWaitSentAt = t0;
          queueNumber = waitingFor;
          if (performance.now() > endAt + 60_000) {
            count("gave up waiting");
            return false;
          }
          await new Promise((resolve) => setTimeout(resolve, POLL_MS));
          continue;
        }
        // Refused by the rate limit before the room (a hoarder's new attempt): never let in.
        if (response.status !== 429) visit.admittedAt = t1;
        if (visit.number !== null && number !== String(visit.number)) {
          count("let in without its X-Queue-Number");
        }
        latencies.push(t1 - t0);
        // The time after the waiting room let it in: less what it held in line on the server.
        const inLine = /queue;dur=([\d.]+)/.exec(response.headers.get("server-timing") ?? "")?.[1];
        if (response.status !== 429) served.push(t1 - t0 - Number(inLine ?? 0));
        const location = response.headers.get("location") ?? "";
        const registration = /^\/registrations\/([0-9a-f-]{36})/.exec(location)?.[1];
        const order = /^\/orders\/([0-9a-f-]{36})/.exec(location)?.[1];
        if (response.status >= 500) status5xx++;
        count(
          response.status === 302 && (registration || order)
            ? "302 registered"
            : String(response.status),
        );
        if (registration) registrationIds.push(registration);
        if (order) orderIds.push(order);
        return Boolean(registration || order);
      } catch (error) {
        // The connection died with its instance (SIGKILL) or timed out: nothing was seen.
        count(`error ${(error as Error).name}`);
        return false;
      }
    }
  };

  const client = async (clientIndex: number) => {
    while (performance.now() < endAt) {
      const index = next++;
      if (index >= prepared.accounts.length) return;
      await post(prepared.accounts[index], clientIndex);
    }
  };
  // The hoarders post again and again, each at most every HOARDER_PAUSE_MS: a script that
  // ignores its answers. Without the pause, once their answers cost nothing (decision 0116) the
  // load generator's own loop took the processors this machine shares with the site.
  const hoarder = async (account: Account, clientIndex: number) => {
    while (performance.now() < endAt) {
      const started = performance.now();
      if (await post(account, clientIndex)) hoarderSuccesses++;
      const rest = HOARDER_PAUSE_MS - (performance.now() - started);
      if (rest > 0) await new Promise((resolve) => setTimeout(resolve, rest));
    }
  };
  await Promise.all([
    ...Array.from({ length: concurrency }, (_, i) => client(i)),
    ...prepared.hoarders.map((account, i) => hoarder(account, i)),
  ]);
  if (killer) clearTimeout(killer);
  return {
    elapsedS: (performance.now() - started) / 1000,
    latencies,
    served,
    statuses,
    status5xx,
    registrationIds,
    orderIds,
    hoarderSuccesses,
    killedAt,
    visits,
    polls,
  };
}

/** One account's registration attempt as the client saw it (performance.now() times). */
type Visit = {
  /** The queue number of its first waiting page (null: let in at once). */
  number: number | null;
  firstSentAt: number;
  firstAnsweredAt: number;
  /** When it sent the last post that was answered with the waiting page. */
  lastWaitSentAt: number;
  admittedAt: number;
};

/**
 * Inversions: visits told to wait on a post sent after someone who arrived later had already
 * been let in (a later arrival: a higher number, or a visit let in at once whose first post was
 * sent after this one's number was given). A fair room answers such a post by letting it in, so
 * a fair run counts 0, whatever the polling delays.
 */
function countInversions(visits: Visit[]) {
  const admitted = visits.filter((v) => !Number.isNaN(v.admittedAt));
  const afterNumber = earliestAfter(
    admitted
      .filter((v) => v.number !== null)
      .map((v) => ({ key: v.number as number, at: v.admittedAt })),
  );
  const afterTime = earliestAfter(
    admitted
      .filter((v) => v.number === null)
      .map((v) => ({ key: v.firstSentAt, at: v.admittedAt })),
  );
  let inversions = 0;
  for (const visit of visits) {
    if (visit.number === null) continue;
    const laterIn = Math.min(afterNumber(visit.number), afterTime(visit.firstAnsweredAt));
    if (visit.lastWaitSentAt > laterIn) inversions++;
  }
  return inversions;
}

/** For entries (key, time): a lookup of the earliest time among entries whose key is above k. */
function earliestAfter(entries: { key: number; at: number }[]) {
  entries.sort((x, y) => x.key - y.key);
  const suffix = new Array<number>(entries.length + 1).fill(Number.POSITIVE_INFINITY);
  for (let i = entries.length - 1; i >= 0; i--) suffix[i] = Math.min(suffix[i + 1], entries[i].at);
  return (k: number) => {
    let low = 0;
    let high = entries.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (entries[middle].key > k) high = middle;
      else low = middle + 1;
    }
    return suffix[low];
  };
}

type Check = { name: string; ok: boolean; detail: string };

async function verify(db: pg.Pool, prepared: Prepared, outcome: Outcome): Promise<Check[]> {
  const checks: Check[] = [];
  const check = (name: string, ok: boolean, detail: string) => checks.push({ name, ok, detail });
  const one = async (text: string, params: unknown[] = []) =>
    (await db.query(text, params)).rows[0];

  const held = await one(
    `select coalesce(sum(r.quantity * coalesce(f.admits, 1)) filter (where r.state in ('confirmed', 'awaiting_payment')), 0)::int as held,
            count(*) filter (where r.state = 'confirmed')::int as confirmed,
            count(*) filter (where r.state = 'awaiting_payment')::int as awaiting
       from registrations r left join event_fees f on f.id = r.fee_id
      where r.event_id = $1`,
    [prepared.eventId],
  );
  const offered = await one(
    `select coalesce(sum(quantity), 0)::int as n from waitlist_entries where event_id = $1 and state = 'offered'`,
    [prepared.eventId],
  );
  check(
    "capacity",
    held.held + offered.n <= capacity,
    `${held.confirmed} confirmed + ${held.awaiting} awaiting payment + ${offered.n} offered ≤ ${capacity}`,
  );
  const duplicates = await one(
    `select count(*)::int as n from (select code from tickets group by code having count(*) > 1) d`,
  );
  const ticketsOfEvent = await one(`select count(*)::int as n from tickets where event_id = $1`, [
    prepared.eventId,
  ]);
  check(
    "ticket codes",
    duplicates.n === 0 && ticketsOfEvent.n === held.confirmed,
    `${ticketsOfEvent.n} tickets for ${held.confirmed} confirmed seats, ${duplicates.n} duplicate codes`,
  );
  const seenRegistrations = await one(
    `select count(*)::int as n from registrations where id = any($1::uuid[]) and state = 'confirmed'`,
    [outcome.registrationIds],
  );
  const seenOrders = await one(
    `select count(*)::int as n from registrations r join orders o on o.id = r.order_id
      where o.id = any($1::uuid[]) and r.state = 'awaiting_payment' and o.state = 'awaiting_payment'`,
    [outcome.orderIds],
  );
  const seen = outcome.registrationIds.length + outcome.orderIds.length;
  check(
    "nothing lost",
    seenRegistrations.n === outcome.registrationIds.length &&
      seenOrders.n === outcome.orderIds.length,
    `${seenRegistrations.n + seenOrders.n} of the ${seen} registrations clients saw succeed are in the database`,
  );
  const unanswered = [...outcome.statuses]
    .filter(([key]) => key.startsWith("error"))
    .reduce((sum, [, n]) => sum + n, 0);
  const extra = held.confirmed + held.awaiting - seen;
  check(
    "nothing extra",
    extra === 0 || (extra > 0 && extra <= unanswered),
    `${held.confirmed + held.awaiting} live registrations in the database, ${seen} seen by clients` +
      " (more would be one made for a request whose answer was lost, e.g. with a killed instance)",
  );
  const hoarded = await one(
    `select coalesce(max(n), 0)::int as most from (select count(*)::int as n from registrations
      where event_id = $1 and user_id = any($2::text[]) and state in ('confirmed', 'awaiting_payment') group by user_id) h`,
    [prepared.eventId, prepared.hoarders.map((h) => h.id)],
  );
  check(
    "hoarders",
    hoarded.most <= 1,
    `${prepared.hoarders.length} hoarding accounts posted again and again; the most one holds is ${hoarded.most} (limit 1); ${outcome.hoarderSuccesses} of their posts succeeded`,
  );
  const gaps = await one(
    `select count(*)::int as n, coalesce(max(sequence), 0)::int as last, count(distinct sequence)::int as distinct_n,
            coalesce(min(sequence), 1)::int as first
       from invoices where year = extract(year from now())::int`,
  );
  check(
    "invoice numbers",
    gaps.n === gaps.distinct_n && gaps.last - gaps.first + 1 === gaps.n,
    gaps.n === 0
      ? "no invoices (free tickets)"
      : `${gaps.n} invoices numbered ${gaps.first}…${gaps.last}, no gap, no repeat`,
  );
  const unheld = await one(
    `select count(*)::int as n from orders o
      where o.state = 'awaiting_payment' and not exists (
        select 1 from jobs j where j.unique_key = 'order:' || o.id || ':expire' and j.state in ('queued', 'running'))`,
  );
  check(
    "holds end",
    unheld.n === 0,
    `${unheld.n} unpaid orders without a pending expiry job (their seats would be held forever)`,
  );
  check("no 5xx", outcome.status5xx === 0, `${outcome.status5xx} responses ≥ 500`);
  return checks;
}

function percentile(sorted: number[], p: number) {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

function report(outcome: Outcome, checks: Check[]) {
  const sorted = [...outcome.latencies].sort((a, b) => a - b);
  const admitted = [...outcome.served].sort((a, b) => a - b);
  const registered = outcome.registrationIds.length + outcome.orderIds.length;
  const waited = outcome.visits.filter((v) => v.number !== null && !Number.isNaN(v.admittedAt));
  const figures = {
    instances,
    clients: concurrency,
    ticket: values.paid ? "paid" : "free",
    "registered/s": (registered / outcome.elapsedS).toFixed(1),
    registered,
    "p50 ms": percentile(sorted, 50).toFixed(0),
    "p95 ms": percentile(sorted, 95).toFixed(0),
    "p99 ms": percentile(sorted, 99).toFixed(0),
    "max ms": (sorted.at(-1) ?? Number.NaN).toFixed(0),
    "admitted p50/p99 ms": `${percentile(admitted, 50).toFixed(0)}/${percentile(admitted, 99).toFixed(0)}`,
    waited: waited.length,
    "longest wait s": (
      Math.max(0, ...waited.map((v) => v.admittedAt - v.firstSentAt)) / 1000
    ).toFixed(1),
    inversions: countInversions(outcome.visits),
    seconds: outcome.elapsedS.toFixed(1),
    load: loadAverage(),
  };
  console.log("");
  table([figures]);
  console.log(
    `\nstatuses: ${[...outcome.statuses].map(([k, v]) => `${k} × ${v}`).join(", ")}` +
      `; ${outcome.polls} posts answered with the waiting page` +
      (outcome.killedAt !== null
        ? `; second instance killed at ${outcome.killedAt.toFixed(1)} s`
        : ""),
  );
  if (registered >= capacity)
    console.log(
      `the event sold out before the end: ${figures["registered/s"]}/s is not a sustained rate (raise --capacity)`,
    );
  if (outcome.cpu) {
    const cores = availableParallelism();
    const total = [...outcome.cpu.values()].reduce((a, b) => a + b, 0);
    const perRegistration = (s: number) =>
      `${((s * 1000) / Math.max(1, registered)).toFixed(1)} ms`;
    console.log(
      `CPU during the run: ${total.toFixed(1)} s of ${(outcome.elapsedS * cores).toFixed(0)} s on ${cores} cores; ` +
        [...outcome.cpu]
          .sort((a, b) => b[1] - a[1])
          .map(
            ([group, s]) => `${group} ${s.toFixed(1)} s (${perRegistration(s)} per registration)`,
          )
          .join(", ") +
        (outcome.killedAt !== null ? " (the killed instance's CPU is not counted)" : ""),
    );
  }
  console.log("");
  for (const c of checks) console.log(`${c.ok ? "PASS" : "FAIL"}  ${c.name}: ${c.detail}`);
  if (values.json)
    console.log(
      JSON.stringify({ figures, statuses: Object.fromEntries(outcome.statuses), checks }),
    );
}
