import { createHmac, randomUUID, timingSafeEqual } from "node:crypto";
import { Redis } from "ioredis";
import { env } from "~/lib/env.server";
import { logger } from "~/lib/logger.server";
import { getRedis } from "~/lib/rate-limit.server";

/**
 * The registration waiting room (issue 33 item 4, decision 0114). At most `threshold`
 * registrations are worked on at once per event; newcomers beyond that take a number and are
 * admitted strictly in number order as slots free up.
 *
 * State per event: `next` (the last number handed out), `served` (the highest number admitted)
 * and the slots in use with their start time: "r:…" for a running request, "q:<n>" for a place
 * kept for number n, admitted while waiting and not back yet. Running slots older than 20 s (an
 * instance killed mid-request) and kept places not taken up within 6 s are dropped whenever the
 * state is next touched. Two stores: this process's memory (one instance, no Redis) and Redis
 * (one Lua script per operation, so instances share the room atomically).
 */
export const RUNNING_SLOT_MAX_MS = 20_000;
/**
 * A called number's kept place lasts three of the waiting page's 2-s checks: every visitor who
 * closed the page ties up a slot this long, so during a rush with many of them it must be short.
 * A visitor who comes back later is still let in (they arrived before everyone after them).
 */
export const RESERVATION_MAX_MS = 6_000;
/** Redis keys of an event nobody has touched for this long disappear. */
export const IDLE_STATE_MS = 3_600_000;

export type QueueEntry =
  | {
      admitted: true;
      slot: string;
      /** The number this request waited with (null: admitted at once). */
      number: number | null;
      /** Whether it took up the place kept for its number (false: it never waited, or came late). */
      tookReservation: boolean;
    }
  | { admitted: false; number: number; position: number };

type Options = { now: number; threshold: number };

export interface QueueStore {
  enter(eventKey: string, number: number | null, options: Options): Promise<QueueEntry>;
  /**
   * Gives the slot back; returns the highest number that called (0: nobody waited), so only the
   * requests holding those numbers are woken.
   */
  leave(eventKey: string, slot: string, options: Options): Promise<number>;
}

// ---------------------------------------------------------------------------------------------
// The rules, on one event's state (the memory store runs them; the Lua scripts mirror them).
// ---------------------------------------------------------------------------------------------
type State = { next: number; served: number; slots: Map<string, number> };

function prune(state: State, now: number) {
  for (const [slot, at] of state.slots) {
    const limit = slot.startsWith("q:") ? RESERVATION_MAX_MS : RUNNING_SLOT_MAX_MS;
    if (now - at > limit) state.slots.delete(slot);
  }
}

/** Keeps a place for each next number while slots are free. */
function advance(state: State, now: number, threshold: number) {
  while (state.slots.size < threshold && state.served < state.next) {
    state.served++;
    state.slots.set(`q:${state.served}`, now);
  }
}

function enterState(
  state: State,
  number: number | null,
  { now, threshold }: Options,
  slot: string,
): QueueEntry {
  prune(state, now);
  advance(state, now, threshold);
  // A number this room never handed out (its state was lost: restart, idle expiry) starts over.
  let mine = number !== null && number >= 1 && number <= state.next ? number : null;
  if (mine === null) {
    if (state.served >= state.next && state.slots.size < threshold) {
      state.slots.set(slot, now);
      return { admitted: true, slot, number: null, tookReservation: false };
    }
    mine = ++state.next;
    advance(state, now, threshold);
  }
  if (mine <= state.served) {
    // Its turn has come: its kept place becomes its running slot (kept or not: it came earlier
    // than everyone after it).
    const tookReservation = state.slots.delete(`q:${mine}`);
    state.slots.set(slot, now);
    return { admitted: true, slot, number: mine, tookReservation };
  }
  return { admitted: false, number: mine, position: mine - state.served };
}

function leaveState(state: State, slot: string, { now, threshold }: Options) {
  const served = state.served;
  state.slots.delete(slot);
  prune(state, now);
  advance(state, now, threshold);
  return state.served > served ? state.served : 0;
}

/** One process's waiting rooms (the default: one instance without Redis). */
export function createMemoryQueueStore(): QueueStore {
  const rooms = new Map<string, State & { touched: number }>();
  const room = (eventKey: string, now: number) => {
    // Forget rooms idle for an hour, as the Redis keys expire.
    for (const [key, r] of rooms) if (now - r.touched > IDLE_STATE_MS) rooms.delete(key);
    let r = rooms.get(eventKey);
    if (!r) {
      r = { next: 0, served: 0, slots: new Map(), touched: now };
      rooms.set(eventKey, r);
    }
    r.touched = now;
    return r;
  };
  return {
    async enter(eventKey, number, options) {
      return enterState(room(eventKey, options.now), number, options, `r:${randomUUID()}`);
    },
    async leave(eventKey, slot, options) {
      return leaveState(room(eventKey, options.now), slot, options);
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Redis: the same rules in Lua, one script per operation (atomic across instances).
// KEYS[1] = hash {next, served}; KEYS[2] = sorted set slot → start time.
// ---------------------------------------------------------------------------------------------
const LUA_PRELUDE = `
local now = tonumber(ARGV[1])
local threshold = tonumber(ARGV[2])
local idle = tonumber(ARGV[3])
local nextn = tonumber(redis.call('HGET', KEYS[1], 'next') or '0')
local served = tonumber(redis.call('HGET', KEYS[1], 'served') or '0')
local old = redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', '(' .. (now - ${RESERVATION_MAX_MS}), 'WITHSCORES')
for i = 1, #old, 2 do
  local slot, at = old[i], tonumber(old[i + 1])
  if string.sub(slot, 1, 2) == 'q:' or now - at > ${RUNNING_SLOT_MAX_MS} then
    redis.call('ZREM', KEYS[2], slot)
  end
end
local function advance()
  local count = redis.call('ZCARD', KEYS[2])
  while count < threshold and served < nextn do
    served = served + 1
    redis.call('ZADD', KEYS[2], now, 'q:' .. served)
    count = count + 1
  end
end
local function save()
  redis.call('HSET', KEYS[1], 'next', nextn, 'served', served)
  redis.call('PEXPIRE', KEYS[1], idle)
  redis.call('PEXPIRE', KEYS[2], idle)
end
`;

// ARGV[4] = the number carried ('' for none), ARGV[5] = the new slot's name.
// Returns {1, slot, number or 0, took (0/1)} or {0, number, position}.
const LUA_ENTER = `${LUA_PRELUDE}
advance()
local slot = ARGV[5]
local mine = tonumber(ARGV[4])
if mine ~= nil and (mine < 1 or mine > nextn) then mine = nil end
if mine == nil then
  if served >= nextn and redis.call('ZCARD', KEYS[2]) < threshold then
    redis.call('ZADD', KEYS[2], now, slot)
    save()
    return {1, slot, 0, 0}
  end
  nextn = nextn + 1
  mine = nextn
  advance()
end
if mine <= served then
  local took = redis.call('ZREM', KEYS[2], 'q:' .. mine)
  redis.call('ZADD', KEYS[2], now, slot)
  save()
  return {1, slot, mine, took}
end
save()
return {0, mine, mine - served}
`;

// ARGV[4] = the slot to free. Returns the highest number that called, or 0 when none did.
const LUA_LEAVE = `${LUA_PRELUDE}
local before = served
redis.call('ZREM', KEYS[2], ARGV[4])
advance()
save()
if served > before then return served end
return 0
`;

type QueueCommands = {
  queueEnter(...args: (string | number)[]): Promise<[number, string | number, number, number?]>;
  queueLeave(...args: (string | number)[]): Promise<number>;
};

const defined = new WeakSet<Redis>();

/** The waiting rooms in Redis, shared by every instance using the same server. */
export function createRedisQueueStore(redis: Redis, prefix = "kongamano:queue"): QueueStore {
  if (!defined.has(redis)) {
    redis.defineCommand("queueEnter", { numberOfKeys: 2, lua: LUA_ENTER });
    redis.defineCommand("queueLeave", { numberOfKeys: 2, lua: LUA_LEAVE });
    defined.add(redis);
  }
  const commands = redis as unknown as QueueCommands;
  const keys = (eventKey: string) => [`${prefix}:${eventKey}:state`, `${prefix}:${eventKey}:slots`];
  return {
    async enter(eventKey, number, { now, threshold }) {
      const slot = `r:${randomUUID()}`;
      const answer = await commands.queueEnter(
        ...keys(eventKey),
        now,
        threshold,
        IDLE_STATE_MS,
        number ?? "",
        slot,
      );
      if (answer[0] === 1) {
        const waited = Number(answer[2]);
        return {
          admitted: true,
          slot,
          number: waited > 0 ? waited : null,
          tookReservation: answer[3] === 1,
        };
      }
      return { admitted: false, number: Number(answer[1]), position: Number(answer[2]) };
    },
    async leave(eventKey, slot, { now, threshold }) {
      return Number(
        await commands.queueLeave(...keys(eventKey), now, threshold, IDLE_STATE_MS, slot),
      );
    },
  };
}

// ---------------------------------------------------------------------------------------------
// The gate the register action uses.
// ---------------------------------------------------------------------------------------------
const memoryStore = createMemoryQueueStore();

/** Redis when REDIS_URL is set (every instance shares the room), else this process's memory. */
export function queueStore(): QueueStore {
  const url = env().REDIS_URL;
  return url ? createRedisQueueStore(getRedis(url)) : memoryStore;
}

type GateOptions = { number?: number | null; now?: number; store?: QueueStore; threshold?: number };

/** Asks to start a registration for the event: admitted (with a slot to leave), or a number. */
export function enterQueue(eventKey: string, options: GateOptions = {}) {
  return (options.store ?? queueStore()).enter(eventKey, options.number ?? null, {
    now: options.now ?? Date.now(),
    threshold: options.threshold ?? env().REGISTRATION_QUEUE_THRESHOLD,
  });
}

/**
 * Requests holding in line in this process, by event, with their numbers: a given-back slot
 * wakes only the numbers it called, not everyone in line (who would each ask the room again and
 * go back to sleep: thirty in line made thirty Redis calls per registration).
 */
type Sleeper = { number: number; resume: () => void };
const sleepers = new Map<string, Set<Sleeper>>();
/**
 * The highest number called per event that this process has heard of: a notice can arrive while
 * a request's own answer from the room is still on its way (another connection), before it
 * sleeps; it then asks again at once instead of sleeping through its turn.
 */
const heardCalled = new Map<string, number>();

function wake(eventKey: string, calledUpTo: number) {
  if (calledUpTo > (heardCalled.get(eventKey) ?? 0)) heardCalled.set(eventKey, calledUpTo);
  const waiting = sleepers.get(eventKey);
  if (!waiting) return;
  for (const sleeper of waiting) if (sleeper.number <= calledUpTo) sleeper.resume();
}

/** Resolves when the event's room calls `number` (in any instance), or after `ms`. */
function nap(eventKey: string, number: number, ms: number) {
  return new Promise<void>((resolve) => {
    let waiting = sleepers.get(eventKey);
    if (!waiting) {
      waiting = new Set();
      sleepers.set(eventKey, waiting);
    }
    const room = waiting;
    const sleeper: Sleeper = {
      number,
      resume: () => {
        clearTimeout(timer);
        room.delete(sleeper);
        if (room.size === 0 && sleepers.get(eventKey) === room) sleepers.delete(eventKey);
        resolve();
      },
    };
    const timer = setTimeout(sleeper.resume, ms);
    room.add(sleeper);
  });
}

const FREED_CHANNEL = "kongamano:queue:freed";
let freedPublisher: Redis | undefined;

/**
 * With Redis, "a place of this event was given back" reaches every instance, so a request held
 * in line on another instance than the one that freed the place is woken at once instead of at
 * its next check (measured: two instances admitted half as many per second without it).
 */
export async function startQueueRelay(redisUrl: string) {
  freedPublisher = getRedis(redisUrl);
  const subscriber = new Redis(redisUrl);
  subscriber.on("error", (error) => logger.warn({ err: error }, "waiting room relay error"));
  await subscriber.subscribe(FREED_CHANNEL);
  // "<number> <event>": the highest number a given-back slot called, and the event's key.
  subscriber.on("message", (_channel, message: string) => {
    const space = message.indexOf(" ");
    wake(message.slice(space + 1), Number(message.slice(0, space)));
  });
  return {
    async close() {
      subscriber.disconnect();
      freedPublisher = undefined;
    },
  };
}

/**
 * How often a request holding in line asks the shared room again, in case a notice was missed
 * or a kept place lapsed (which calls the next number without anyone giving a slot back).
 */
export const HOLD_CHECK_MS = 500;

/**
 * Enters the room and, when told to wait, keeps asking for up to `holdMs` before giving the
 * visitor the waiting page: when its number is called it is woken at once, in this process or
 * (through Redis) on another instance, and it asks again every HOLD_CHECK_MS in case a notice was
 * missed. The request holds no database connection while it waits; a visitor who leaves
 * (`signal`) stops waiting.
 */
export async function waitForTurn(
  eventKey: string,
  options: GateOptions & { holdMs?: number; checkMs?: number; signal?: AbortSignal } = {},
): Promise<QueueEntry> {
  const holdMs = options.holdMs ?? env().REGISTRATION_QUEUE_HOLD_MS;
  const checkMs = options.checkMs ?? HOLD_CHECK_MS;
  const clock = () => (options.now === undefined ? Date.now() : options.now);
  const until = Date.now() + holdMs;
  let entry = await enterQueue(eventKey, { ...options, now: clock() });
  let askAgainNow = false;
  while (!entry.admitted && Date.now() < until && !options.signal?.aborted) {
    // Called already (the notice came first): ask again at once, once; else sleep until called.
    askAgainNow = !askAgainNow && (heardCalled.get(eventKey) ?? 0) >= entry.number;
    if (!askAgainNow) await nap(eventKey, entry.number, Math.min(checkMs, until - Date.now()));
    entry = await enterQueue(eventKey, { ...options, number: entry.number, now: clock() });
  }
  return entry;
}

/**
 * The registration is over (answered or failed): its slot goes to the next number. Never throws:
 * the answer is already made, and a slot not given back (Redis unreachable) lapses after 20 s.
 */
export async function leaveQueue(
  eventKey: string,
  slot: string,
  options: Omit<GateOptions, "number"> = {},
) {
  let called: number;
  try {
    called = await (options.store ?? queueStore()).leave(eventKey, slot, {
      now: options.now ?? Date.now(),
      threshold: options.threshold ?? env().REGISTRATION_QUEUE_THRESHOLD,
    });
  } catch (error) {
    logger.warn({ err: error, eventKey }, "registration waiting room: a slot was not given back");
    return;
  }
  // Nobody was waiting: nothing to wake here or on the other instances.
  if (called === 0) return;
  wake(eventKey, called);
  // The next check covers a notice that does not arrive.
  freedPublisher?.publish(FREED_CHANNEL, `${called} ${eventKey}`).catch(() => {});
}

// A number is the visitor's own: signed for the account and event, so nobody takes another's
// turn or makes one up.
function queueSignature(eventKey: string, accountId: string, number: number) {
  return createHmac("sha256", env().SESSION_SECRET)
    .update(`registration-queue:${eventKey}:${accountId}:${number}`)
    .digest("base64url");
}

/** The waiting page's hidden `queueNumber` value: "<n>.<signature>". */
export function signQueueNumber(eventKey: string, accountId: string, number: number) {
  return `${number}.${queueSignature(eventKey, accountId, number)}`;
}

/** The number a re-post carries, when it is this account's for this event; else null. */
export function readQueueNumber(
  eventKey: string,
  accountId: string,
  value: FormDataEntryValue | null,
): number | null {
  if (typeof value !== "string") return null;
  const match = /^(\d{1,12})\.([A-Za-z0-9_-]{43})$/.exec(value);
  if (!match) return null;
  const number = Number(match[1]);
  const expected = Buffer.from(queueSignature(eventKey, accountId, number));
  const given = Buffer.from(match[2]);
  return expected.length === given.length && timingSafeEqual(expected, given) ? number : null;
}
