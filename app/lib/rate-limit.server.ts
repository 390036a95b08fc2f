import { sql } from "drizzle-orm";
import { Redis } from "ioredis";
import { getDb } from "~/db/client.server";
import { rateLimit } from "~/db/schema";
import { env } from "./env.server";

/**
 * Fixed-window counters shared by every instance: in PostgreSQL (rate_limit table) by default,
 * in Redis when REDIS_URL is set. Returns whether this attempt is allowed. `now` (epoch ms) is
 * the clock of the database counters; tests pass it to move past a window without waiting.
 */
export async function hitRateLimit(
  key: string,
  { max, windowMs }: { max: number; windowMs: number },
  now = Date.now(),
): Promise<{ allowed: boolean; count: number; retryAfterSeconds: number }> {
  const redisUrl = env().REDIS_URL;
  if (redisUrl) {
    const redis = getRedis(redisUrl);
    const redisKey = `ratelimit:${key}`;
    const [[, count], [, ttl]] = (await redis.multi().incr(redisKey).pttl(redisKey).exec()) as [
      [null, number],
      [null, number],
    ];
    if (ttl < 0) await redis.pexpire(redisKey, windowMs);
    const remainingMs = ttl < 0 ? windowMs : ttl;
    return { allowed: count <= max, count, retryAfterSeconds: Math.ceil(remainingMs / 1000) };
  }
  // One atomic upsert: start a new window when the old one has passed, else count this hit.
  const [row] = await getDb()
    .insert(rateLimit)
    .values({ id: key, key, count: 1, lastRequest: now })
    .onConflictDoUpdate({
      target: rateLimit.key,
      set: {
        count: sql`case when ${rateLimit.lastRequest} < ${now - windowMs} then 1 else ${rateLimit.count} + 1 end`,
        lastRequest: sql`case when ${rateLimit.lastRequest} < ${now - windowMs} then ${now} else ${rateLimit.lastRequest} end`,
      },
    })
    .returning({ count: rateLimit.count, lastRequest: rateLimit.lastRequest });
  const retryAfterSeconds = Math.max(1, Math.ceil((row.lastRequest + windowMs - now) / 1000));
  return { allowed: row.count <= max, count: row.count, retryAfterSeconds };
}

/** Gives back one hit counted by hitRateLimit (an attempt that turned out not to count). */
export async function refundRateLimit(key: string) {
  const redisUrl = env().REDIS_URL;
  if (redisUrl) {
    const redis = getRedis(redisUrl);
    const redisKey = `ratelimit:${key}`;
    if (Number(await redis.decr(redisKey)) <= 0) await redis.del(redisKey);
    return;
  }
  await getDb()
    .update(rateLimit)
    .set({ count: sql`greatest(${rateLimit.count} - 1, 0)` })
    .where(sql`${rateLimit.key} = ${key}`);
}

let redis: { url: string; client: Redis } | undefined;
export function getRedis(url: string) {
  if (redis?.url !== url) {
    redis = { url, client: new Redis(url, { maxRetriesPerRequest: 2, lazyConnect: false }) };
    redis.client.on("error", () => {}); // reconnects on its own; callers see command errors
  }
  return redis.client;
}

// ---------------------------------------------------------------------------------------------
// Sessions that go on posting after being told to wait (decision 0116). Their next posts are
// refused before the app reads or renders anything (server/http-guards.ts), until the window ends:
// a script hammering the registration form then costs a map lookup, not a rendered page, so it
// cannot take the processor from everyone else during a rush. This process's memory only: each
// instance learns it from its own refusals.
// ---------------------------------------------------------------------------------------------
const benched = new Map<string, { until: number; message: string }>();
const MAX_BENCHED = 10_000;

/** Refuses the session whose cookie value is `sessionToken` until `untilMs`, with `message`. */
export function benchSession(sessionToken: string, untilMs: number, message: string) {
  if (benched.size >= MAX_BENCHED) {
    const now = Date.now();
    for (const [key, entry] of benched) if (entry.until <= now) benched.delete(key);
    if (benched.size >= MAX_BENCHED) benched.clear();
  }
  benched.set(sessionToken, { until: untilMs, message });
}

/** Why the session is still refused, and for how many seconds; null when it is not. */
export function benchedSession(sessionToken: string | undefined, now = Date.now()) {
  const entry = sessionToken === undefined ? undefined : benched.get(sessionToken);
  if (!entry || sessionToken === undefined) return null;
  if (entry.until <= now) {
    benched.delete(sessionToken);
    return null;
  }
  return { message: entry.message, retryAfterSeconds: Math.ceil((entry.until - now) / 1000) };
}
