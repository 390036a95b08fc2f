import { spawn } from "node:child_process";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createMemoryQueueStore,
  createRedisQueueStore,
  enterQueue,
  leaveQueue,
  type QueueStore,
  RESERVATION_MAX_MS,
  RUNNING_SLOT_MAX_MS,
  readQueueNumber,
  signQueueNumber,
  waitForTurn,
} from "./queue.server";

// Two stores per backend stand for two app instances; in memory, one process has one store.
type Backend = { name: string; stores: () => [QueueStore, QueueStore] };

const redisClients: Redis[] = [];
let redisServer: ReturnType<typeof spawn> | undefined;

beforeAll(async () => {
  // A private redis-server for these tests (the machine has one installed, see design.md §1).
  const port = 20_000 + Math.floor(Math.random() * 20_000);
  redisServer = spawn(
    "redis-server",
    ["--port", String(port), "--save", "", "--appendonly", "no"],
    {
      stdio: "ignore",
    },
  );
  for (let i = 0; i < 2; i++) {
    // Commands wait for the connection (the server is starting) instead of failing.
    const client = new Redis(`redis://127.0.0.1:${port}`, { maxRetriesPerRequest: null });
    client.on("error", () => {});
    redisClients.push(client);
  }
  expect(await Promise.all(redisClients.map((c) => c.ping()))).toEqual(["PONG", "PONG"]);
});

afterAll(async () => {
  for (const client of redisClients) client.disconnect();
  redisServer?.kill("SIGTERM");
});

const backends: Backend[] = [
  {
    name: "in-process store",
    stores: () => {
      const store = createMemoryQueueStore();
      return [store, store];
    },
  },
  {
    name: "Redis store shared by two instances",
    stores: () => [createRedisQueueStore(redisClients[0]), createRedisQueueStore(redisClients[1])],
  },
];

let events = 0;
const newEvent = () => `event-${Date.now()}-${++events}`;

describe.each(backends)("the registration waiting room ($name)", ({ stores }) => {
  const T0 = 1_750_000_000_000;

  it("admits up to the threshold, then hands out numbers in arrival order with their place", async () => {
    const [a, b] = stores();
    const event = newEvent();
    const opts = (store: QueueStore, now = T0) => ({ store, threshold: 3, now });
    const first = await enterQueue(event, opts(a));
    const second = await enterQueue(event, opts(b));
    const third = await enterQueue(event, opts(a));
    expect([first, second, third].map((e) => e.admitted)).toEqual([true, true, true]);
    const fourth = await enterQueue(event, opts(b));
    const fifth = await enterQueue(event, opts(a));
    expect(fourth).toEqual({ admitted: false, number: 1, position: 1 });
    expect(fifth).toEqual({ admitted: false, number: 2, position: 2 });
    // Asking again without a slot freed: same number, same place.
    expect(await enterQueue(event, { ...opts(b), number: 2 })).toEqual(fifth);
    // Someone who finishes frees a place for number 1 (not for a newcomer, nor for number 2).
    if (!first.admitted) throw new Error("unreachable");
    await leaveQueue(event, first.slot, opts(b));
    expect(await enterQueue(event, opts(a))).toEqual({ admitted: false, number: 3, position: 2 });
    expect(await enterQueue(event, { ...opts(b), number: 2 })).toMatchObject({
      admitted: false,
      position: 1,
    });
    const one = await enterQueue(event, { ...opts(a), number: 1 });
    expect(one).toMatchObject({ admitted: true, number: 1, tookReservation: true });
    // Its place is not taken twice: number 2 still waits.
    expect(await enterQueue(event, { ...opts(b), number: 2 })).toMatchObject({ admitted: false });
  });

  it("holds a post in line on the server and lets it in as soon as a place is given back", async () => {
    const [a, b] = stores();
    const event = newEvent();
    const first = await enterQueue(event, { store: a, threshold: 1 });
    if (!first.admitted) throw new Error("the first post should be let in");
    // Nobody leaves within the hold (none here): the visitor gets its number and the page.
    expect(await waitForTurn(event, { store: b, threshold: 1, holdMs: 0 })).toMatchObject({
      admitted: false,
      number: 1,
      position: 1,
    });
    // Held on the server (up to 10 s) while the place is given back on the other instance:
    // let in with its number at once, without another page.
    const started = Date.now();
    const held = waitForTurn(event, { store: b, threshold: 1, holdMs: 10_000, number: 1 });
    await leaveQueue(event, first.slot, { store: a, threshold: 1 });
    expect(await held).toMatchObject({ admitted: true, number: 1, tookReservation: true });
    expect(Date.now() - started).toBeLessThan(2_000);
    // A visitor who left stops waiting at once (a request aborted while held).
    const gone = new AbortController();
    gone.abort();
    expect(
      await waitForTurn(event, { store: b, threshold: 1, holdMs: 10_000, signal: gone.signal }),
    ).toMatchObject({ admitted: false, number: 2 });
    // Giving a place back says whether it called someone: only then is anyone woken or told.
    const options = { now: Date.now(), threshold: 1 };
    const admitted = await held;
    if (!admitted.admitted) throw new Error("number 1 should be in");
    expect(await a.leave(event, admitted.slot, options)).toBe(2); // number 2 is called
    const alone = newEvent();
    const only = await a.enter(alone, null, options);
    if (!only.admitted) throw new Error("nobody waits: let in at once");
    expect(await b.leave(alone, only.slot, options)).toBe(0);
  });

  it("wakes only the number a given-back place calls; later numbers in line stay asleep", async () => {
    const [a, b] = stores();
    const event = newEvent();
    let asked = 0;
    const counting: QueueStore = {
      enter: async (...args) => {
        const answer = await b.enter(...args);
        asked++;
        return answer;
      },
      leave: (...args) => b.leave(...args),
    };
    const first = await enterQueue(event, { store: a, threshold: 1 });
    if (!first.admitted) throw new Error("the first post should be let in");
    // Two posts held in line (numbers 1 and 2), asleep once their answers are in; only a notice
    // wakes them within the test.
    const hold = { store: counting, threshold: 1, holdMs: 20_000, checkMs: 20_000 };
    const one = waitForTurn(event, hold);
    const two = waitForTurn(event, hold);
    while (asked < 2) await new Promise((resolve) => setImmediate(resolve));
    await leaveQueue(event, first.slot, { store: a, threshold: 1 });
    const admitted = await one;
    expect(admitted).toMatchObject({ admitted: true, number: 1 });
    // Number 1 asked again once; number 2 was not woken to ask.
    expect(asked).toBe(3);
    if (!admitted.admitted) throw new Error("unreachable");
    await leaveQueue(event, admitted.slot, { store: a, threshold: 1 });
    const next = await two;
    expect(next).toMatchObject({ admitted: true, number: 2 });
    expect(asked).toBe(4);
    if (next.admitted) await leaveQueue(event, next.slot, { store: a, threshold: 1 });
  });

  it("does not sleep through a call that came while its own answer was on the way", async () => {
    const [a, b] = stores();
    const event = newEvent();
    const first = await enterQueue(event, { store: a, threshold: 1 });
    if (!first.admitted) throw new Error("the first post should be let in");
    let given = false;
    const racing: QueueStore = {
      enter: async (...args) => {
        const answer = await b.enter(...args);
        if (!answer.admitted && !given) {
          given = true;
          // The place is given back (and the notice heard) before this answer is read.
          await leaveQueue(event, first.slot, { store: a, threshold: 1 });
        }
        return answer;
      },
      leave: (...args) => b.leave(...args),
    };
    const started = Date.now();
    const entry = await waitForTurn(event, {
      store: racing,
      threshold: 1,
      holdMs: 20_000,
      checkMs: 20_000,
    });
    expect(entry).toMatchObject({ admitted: true, number: 1, tookReservation: true });
    expect(Date.now() - started).toBeLessThan(5_000);
    if (entry.admitted) await leaveQueue(event, entry.slot, { store: a, threshold: 1 });
  });

  it("frees the slots of requests killed mid-way after 20 s and kept places after 6 s", async () => {
    const [a, b] = stores();
    const event = newEvent();
    const at = (store: QueueStore, now: number, number?: number) => ({
      store,
      threshold: 1,
      now,
      number,
    });
    // A request starts and its instance dies: it never leaves.
    expect(await enterQueue(event, at(a, T0))).toMatchObject({ admitted: true });
    const waiting = await enterQueue(event, at(b, T0 + 1_000));
    expect(waiting).toEqual({ admitted: false, number: 1, position: 1 });
    const stillWaiting = await enterQueue(event, at(b, T0 + 2_000));
    expect(stillWaiting).toEqual({ admitted: false, number: 2, position: 2 });
    expect(await enterQueue(event, at(a, T0 + RUNNING_SLOT_MAX_MS, 1))).toMatchObject({
      admitted: false,
      position: 1,
    });
    // Past 20 s the dead request's slot is kept for number 1, who does not come back in 6 s…
    const later = T0 + RUNNING_SLOT_MAX_MS + 1;
    expect(await enterQueue(event, at(b, later, 2))).toMatchObject({ position: 1 });
    // …so its place goes to number 2.
    const next = later + RESERVATION_MAX_MS + 1;
    expect(await enterQueue(event, at(a, next, 2))).toMatchObject({
      admitted: true,
      number: 2,
      tookReservation: true,
    });
    // Number 1 coming back late is still let in (it arrived before everyone after it), but
    // without a kept place.
    expect(await enterQueue(event, at(b, next + 1, 1))).toMatchObject({
      admitted: true,
      number: 1,
      tookReservation: false,
    });
  });

  it("starts a number over when the room forgot it, rather than making it wait forever", async () => {
    const [a] = stores();
    const event = newEvent();
    expect(await enterQueue(event, { store: a, threshold: 1, now: T0, number: 57 })).toMatchObject({
      admitted: true,
      number: null,
    });
    expect(await enterQueue(event, { store: a, threshold: 1, now: T0, number: 58 })).toEqual({
      admitted: false,
      number: 1,
      position: 1,
    });
  });

  it("never lets a later arrival in before an earlier one over 500 random steps (checked against a FIFO model)", async () => {
    const [a, b] = stores();
    const event = newEvent();
    const threshold = 4;
    // The model: running requests, places kept for people called, and the line in arrival order.
    const model = { running: new Set<number>(), called: new Set<number>(), line: [] as number[] };
    const modelAdvance = () => {
      while (model.running.size + model.called.size < threshold && model.line.length > 0) {
        model.called.add(model.line.shift() as number);
      }
    };
    type Person = { id: number; number: number | null; slot: string | null; admittedAt: number };
    const people: Person[] = [];
    let seed = 42;
    const random = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    let now = T0;
    let step = 0;
    let waits = 0;
    const check = async (person: Person) => {
      const store = step % 2 === 0 ? a : b;
      const entry = await enterQueue(event, { store, threshold, now, number: person.number });
      let expected: boolean;
      if (person.number !== null) expected = model.called.has(person.id);
      else if (model.line.length === 0 && model.running.size + model.called.size < threshold) {
        expected = true;
        model.called.add(person.id);
      } else {
        model.line.push(person.id);
        modelAdvance();
        expected = model.called.has(person.id);
      }
      expect(entry.admitted, `step ${step}: person ${person.id} let in`).toBe(expected);
      if (entry.admitted) {
        model.called.delete(person.id);
        model.running.add(person.id);
        person.slot = entry.slot;
        person.admittedAt = step;
        if (person.number !== null) expect(entry.number).toBe(person.number);
      } else {
        waits++;
        expect(entry.position, `step ${step}: place of ${person.id}`).toBe(
          model.line.indexOf(person.id) + 1,
        );
        person.number = entry.number;
        // An inversion: someone who arrived later already got in while this person waits.
        expect(people.filter((p) => p.id > person.id && p.admittedAt >= 0)).toEqual([]);
      }
    };
    for (step = 0; step < 500; step++) {
      now += 10;
      const running = people.filter((p) => p.slot !== null);
      const waiting = people.filter((p) => p.slot === null && p.admittedAt < 0);
      const roll = random();
      if (roll < 0.4 || (running.length === 0 && waiting.length === 0)) {
        const person = { id: people.length, number: null, slot: null, admittedAt: -1 };
        people.push(person);
        await check(person);
      } else if (roll < 0.7 && running.length > 0) {
        const person = running[Math.floor(random() * running.length)];
        await leaveQueue(event, person.slot as string, { store: b, threshold, now });
        model.running.delete(person.id);
        modelAdvance();
        person.slot = null;
      } else if (waiting.length > 0) {
        await check(waiting[Math.floor(random() * waiting.length)]);
      }
      expect(model.running.size).toBeLessThanOrEqual(threshold);
    }
    // Everyone still in line gets in, in order, as the running ones finish.
    for (let round = 0; round < 200; round++) {
      const waiting = people.filter((p) => p.slot === null && p.admittedAt < 0);
      if (waiting.length === 0) break;
      now += 10;
      for (const person of people.filter((p) => p.slot !== null)) {
        await leaveQueue(event, person.slot as string, { store: a, threshold, now });
        model.running.delete(person.id);
        person.slot = null;
      }
      modelAdvance();
      for (const person of waiting) await check(person);
    }
    expect(people.filter((p) => p.admittedAt < 0)).toEqual([]);
    expect(waits).toBeGreaterThan(50);
  });
});

describe("the waiting page's number", () => {
  it("is the visitor's own: another account, another event or a changed number is refused", () => {
    const value = signQueueNumber("opening-day", "account-1", 12);
    expect(readQueueNumber("opening-day", "account-1", value)).toBe(12);
    expect(readQueueNumber("opening-day", "account-2", value)).toBeNull();
    expect(readQueueNumber("closing-day", "account-1", value)).toBeNull();
    expect(readQueueNumber("opening-day", "account-1", value.replace(/^12/, "2"))).toBeNull();
    expect(readQueueNumber("opening-day", "account-1", "12")).toBeNull();
    expect(readQueueNumber("opening-day", "account-1", null)).toBeNull();
  });
});
