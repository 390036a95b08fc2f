import { getDb } from "~/db/client.server";
import { contentVersion } from "~/lib/content-version.server";

/**
 * Reads of public content kept until the content changes (decision 0091): every back-office
 * write bumps the content version (contentChanged()), which drops them all; as a safety net for
 * writes made by another instance without Redis, an entry also lives at most `ttlMs` (a minute,
 * as long as the page cache keeps a page). `until` can end an entry earlier, at the moment its
 * value stops being true (an event that starts or ends moves in a listing). At most `max` keys
 * are kept, the least recently read going first. A failed read is not kept, nor one `keep`
 * refuses (a page that does not exist: unknown addresses must not push out known ones).
 *
 * Only for what the public sees the same for everyone and what changes only through the back
 * office: never seats, orders or anything personal.
 */
export function contentMemo<T>({ max = 1, ttlMs = 60_000 }: { max?: number; ttlMs?: number } = {}) {
  type Entry = { db: unknown; version: number; expires: number; value: Promise<T> };
  const entries = new Map<string, Entry>();
  return function read(
    key: string,
    load: () => Promise<T>,
    {
      now = Date.now(),
      until,
      keep,
    }: { now?: number; until?: (value: T) => number; keep?: (value: T) => boolean } = {},
  ): Promise<T> {
    const db = getDb();
    const version = contentVersion();
    const hit = entries.get(key);
    entries.delete(key);
    if (hit && hit.db === db && hit.version === version && now < hit.expires) {
      entries.set(key, hit); // now the most recently read
      return hit.value;
    }
    const value = load();
    const entry: Entry = { db, version, expires: now + ttlMs, value };
    entries.set(key, entry);
    if (entries.size > max) entries.delete(entries.keys().next().value as string);
    value.then(
      (loaded) => {
        if (keep && !keep(loaded)) {
          if (entries.get(key) === entry) entries.delete(key);
        } else if (until) entry.expires = Math.min(entry.expires, until(loaded));
      },
      () => {
        if (entries.get(key) === entry) entries.delete(key);
      },
    );
    return value;
  };
}
