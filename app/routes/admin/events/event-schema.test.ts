import { parseWithZod } from "@conform-to/zod/v4";
import { describe, expect, it } from "vitest";
import {
  dateToZonedLocal,
  EventFormSchema,
  FeesFormSchema,
  feesFormSchema,
  normaliseTags,
  zonedLocalToDate,
} from "./event-schema";

function form(fields: Record<string, string | string[]>) {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) {
    for (const item of Array.isArray(value) ? value : [value]) data.append(name, item);
  }
  return data;
}

/** Field → messages of a refused submission (undefined when it passed). */
function errorsOf<S extends { status?: "success" | "error" }>(submission: S) {
  return submission.status === "error" ? (submission as S & { error: unknown }).error : undefined;
}

function parseEvent(fields: Record<string, string | string[]>) {
  return parseWithZod(form(fields), { schema: EventFormSchema });
}

const VALID = {
  title: "Data Governance Summit",
  location: "Nairobi, Kenya",
  startDate: "2026-09-14T09:00",
  endDate: "2026-09-16T17:00",
};

describe("EventFormSchema (spec §5)", () => {
  it("reads the capacity: empty is no limit, a whole number of at least 1 otherwise", () => {
    const ok = parseEvent({ ...VALID, capacity: "250" });
    expect(ok.status === "success" && ok.value.capacity).toBe(250);
    const empty = parseEvent({ ...VALID, capacity: "" });
    expect(empty.status === "success" && empty.value.capacity).toBeNull();
    expect(errorsOf(parseEvent({ ...VALID, capacity: "0" }))).toEqual({
      capacity: ["Capacity must be at least 1"],
    });
    expect(errorsOf(parseEvent({ ...VALID, capacity: "12.5" }))).toEqual({
      capacity: ["Capacity must be a whole number"],
    });
    expect(errorsOf(parseEvent({ ...VALID, capacity: "lots" }))).toEqual({
      capacity: ["Capacity must be a whole number"],
    });
  });

  it("takes an online join link only as a full https:// address (decision 0090)", () => {
    const ok = parseEvent({ ...VALID, joinUrl: " https://meet.example.test/j/123?pwd=x " });
    expect(ok.status === "success" && ok.value.joinUrl).toBe(
      "https://meet.example.test/j/123?pwd=x",
    );
    const none = parseEvent({ ...VALID, joinUrl: "" });
    expect(none.status === "success" && none.value.joinUrl).toBeNull();
    for (const bad of [
      "http://meet.example.test/j/1",
      "javascript:alert(1)",
      "meet.example.test",
    ]) {
      expect(errorsOf(parseEvent({ ...VALID, joinUrl: bad }))).toEqual({
        joinUrl: ["Enter the join link as a full https:// address"],
      });
    }
    const fee = parseWithZod(form({ "fees[0].joinUrl": "http://room.example.test" }), {
      schema: FeesFormSchema,
    });
    expect(errorsOf(fee)).toEqual({
      "fees[0].joinUrl": ["Enter the join link as a full https:// address"],
    });
  });

  it("requires title, location, start and end with the spec's messages", () => {
    const submission = parseEvent({ title: "", location: " ", startDate: "", endDate: "" });
    expect(submission.status).toBe("error");
    expect(errorsOf(submission)).toMatchObject({
      title: ["Title is required"],
      location: ["Location is required"],
      startDate: ["Start date is required"],
      endDate: ["End date is required"],
    });
  });

  it("refuses a start later than the end, accepts equal dates", () => {
    const late = parseEvent({ ...VALID, startDate: "2026-09-17T09:00" });
    expect(errorsOf(late)).toEqual({ endDate: ["Start date must be before end date"] });
    const same = parseEvent({ ...VALID, endDate: VALID.startDate });
    expect(same.status).toBe("success");
  });

  it("accepts only draft, published or archived as status", () => {
    const bad = parseEvent({ ...VALID, status: "deleted" });
    expect(errorsOf(bad)).toEqual({ status: ["Status must be one of draft, published, archived"] });
    const ok = parseEvent({ ...VALID, status: "archived" });
    expect(ok.status === "success" && ok.value.status).toBe("archived");
  });

  it("applies the defaults of §9 and maps empty optional text, 'none' and no tags to null", () => {
    const submission = parseEvent({
      ...VALID,
      description: "   ",
      theme: "",
      industrySector: "",
      category: "none",
      tags: "",
    });
    expect(submission.status).toBe("success");
    if (submission.status !== "success") return;
    expect(submission.value).toMatchObject({
      eventType: "conference",
      status: "draft",
      featured: false,
      category: null,
      description: null,
      theme: null,
      industrySector: null,
      tags: null,
      imageUrl: null,
      speakerIds: [],
      sponsorIds: [],
      agenda: [],
    });
  });

  it("reads start and end as Nairobi time (UTC+3)", () => {
    const submission = parseEvent(VALID);
    if (submission.status !== "success") throw new Error("expected success");
    expect(submission.value.startDate.toISOString()).toBe("2026-09-14T06:00:00.000Z");
    expect(submission.value.endDate.toISOString()).toBe("2026-09-16T14:00:00.000Z");
  });

  it("keeps the featured switch, tags, links and agenda items", () => {
    const speaker = "5b0c2a4e-8d1f-4b8e-9c39-0d6f3f5f1a11";
    const submission = parseEvent({
      ...VALID,
      featured: "on",
      category: "Technology",
      tags: [" AI ", "data", "AI", "cloud, ethics"],
      speakerIds: [speaker, speaker],
      "agenda[0].startTime": "2026-09-14T09:00",
      "agenda[0].endTime": "2026-09-14T10:00",
      "agenda[0].title": "Opening keynote",
      "agenda[1].startTime": "2026-09-14T10:30",
      "agenda[1].title": "Panel",
    });
    if (submission.status !== "success") throw new Error(JSON.stringify(submission.error));
    expect(submission.value.featured).toBe(true);
    expect(submission.value.category).toBe("Technology");
    expect(submission.value.tags).toEqual(["AI", "data", "cloud", "ethics"]);
    expect(submission.value.speakerIds).toEqual([speaker]);
    expect(submission.value.agenda).toHaveLength(2);
    expect(submission.value.agenda[1]).toMatchObject({ title: "Panel", endTime: null });
  });

  it("checks agenda items and refuses unsafe image URLs", () => {
    const submission = parseEvent({
      ...VALID,
      imageUrl: "javascript:alert(1)",
      "agenda[0].startTime": "2026-09-14T11:00",
      "agenda[0].endTime": "2026-09-14T10:00",
      "agenda[0].title": "",
    });
    expect(errorsOf(submission)).toMatchObject({
      imageUrl: ["Please upload the image again"],
      "agenda[0].title": ["Title is required"],
    });
  });
});

describe("event time zone conversions", () => {
  it("round-trips a datetime-local value", () => {
    const date = zonedLocalToDate("2026-01-05T23:30");
    expect(date?.toISOString()).toBe("2026-01-05T20:30:00.000Z");
    expect(dateToZonedLocal(date)).toBe("2026-01-05T23:30");
    expect(dateToZonedLocal("2026-01-05T22:00:00.000Z")).toBe("2026-01-06T01:00");
  });

  it("reads the form's times in the event's own zone (Toronto 09:00 EST is 14:00Z)", () => {
    const submission = parseEvent({
      ...VALID,
      timeZone: "America/Toronto",
      startDate: "2027-01-12T09:00",
      endDate: "2027-01-12T17:00",
      "agenda[0].startTime": "2027-01-12T09:30",
      "agenda[0].title": "Welcome",
    });
    if (submission.status !== "success") throw new Error(JSON.stringify(submission.error));
    expect(submission.value.timeZone).toBe("America/Toronto");
    expect(submission.value.startDate.toISOString()).toBe("2027-01-12T14:00:00.000Z");
    expect(submission.value.endDate.toISOString()).toBe("2027-01-12T22:00:00.000Z");
    expect(submission.value.agenda[0].startTime.toISOString()).toBe("2027-01-12T14:30:00.000Z");
    expect(dateToZonedLocal(submission.value.startDate, "America/Toronto")).toBe(
      "2027-01-12T09:00",
    );
  });

  it("defaults to Nairobi, refuses unknown zones and times a clock change skips", () => {
    const nairobi = parseEvent(VALID);
    expect(nairobi.status === "success" && nairobi.value.timeZone).toBe("Africa/Nairobi");
    expect(errorsOf(parseEvent({ ...VALID, timeZone: "Mars/Olympus" }))).toMatchObject({
      timeZone: ["Please choose a time zone from the list"],
    });
    // Toronto skips 02:00–03:00 on 14 March 2027.
    expect(
      errorsOf(
        parseEvent({
          ...VALID,
          timeZone: "America/Toronto",
          startDate: "2027-03-14T02:30",
          endDate: "2027-03-14T17:00",
        }),
      ),
    ).toMatchObject({ startDate: [expect.stringContaining("does not exist")] });
    expect(
      errorsOf(
        parseEvent({
          ...VALID,
          "agenda[0].startTime": "2026-09-14T11:00",
          "agenda[0].endTime": "2026-09-14T10:00",
          "agenda[0].title": "Panel",
        }),
      ),
    ).toMatchObject({ "agenda[0].endTime": ["End time must be after start time"] });
  });

  it("refuses impossible dates", () => {
    expect(zonedLocalToDate("2026-02-31T10:00")).toBeNull();
    expect(zonedLocalToDate("tomorrow")).toBeNull();
  });
});

describe("normaliseTags", () => {
  it("trims, splits on commas, drops empties and duplicates; nothing → null", () => {
    expect(normaliseTags([" a ", "b,a", "", undefined])).toEqual(["a", "b"]);
    expect(normaliseTags([])).toBeNull();
    expect(normaliseTags(undefined)).toBeNull();
  });
});

describe("FeesFormSchema (spec §5)", () => {
  it("applies the defaults conference_only, 0 and USD; empty max quantity means unlimited", () => {
    const submission = parseWithZod(form({ "fees[0].description": "" }), {
      schema: FeesFormSchema,
    });
    if (submission.status !== "success") throw new Error(JSON.stringify(submission.error));
    expect(submission.value.fees).toEqual([
      {
        feeType: "conference_only",
        currency: "USD",
        amountMinor: 0,
        maxQuantity: null,
        maxPerOrder: 10,
        maxPerAccount: 1,
        admits: 1,
        availableUntil: null,
        saleStartsAt: null,
        joinUrl: null,
        description: null,
      },
    ]);
  });

  it("reads an optional sale start in the event's zone, before the end of 'Available Until'", () => {
    const typed = form({
      "fees[0].saleStartsAt": "2027-01-10T09:00",
      "fees[0].availableUntil": "2027-01-31",
      "fees[1].saleStartsAt": "2027-01-31T23:30",
      "fees[1].availableUntil": "2027-01-31",
      "fees[2].saleStartsAt": "",
    });
    const nairobi = parseWithZod(typed, { schema: feesFormSchema("Africa/Nairobi") });
    if (nairobi.status !== "success") throw new Error(JSON.stringify(nairobi.error));
    expect(nairobi.value.fees.map((f) => f.saleStartsAt?.toISOString() ?? null)).toEqual([
      "2027-01-10T06:00:00.000Z",
      "2027-01-31T20:30:00.000Z",
      null,
    ]);
    const toronto = parseWithZod(typed, { schema: feesFormSchema("America/Toronto") });
    expect(toronto.status === "success" && toronto.value.fees[0].saleStartsAt?.toISOString()).toBe(
      "2027-01-10T14:00:00.000Z",
    );

    const refused = parseWithZod(
      form({
        "fees[0].saleStartsAt": "2027-02-01T00:00",
        "fees[0].availableUntil": "2027-01-31",
        "fees[1].saleStartsAt": "next week",
      }),
      { schema: feesFormSchema("America/Toronto") },
    );
    expect(errorsOf(refused)).toMatchObject({
      "fees[0].saleStartsAt": ["Sale start must be before the end of the Available Until date"],
      "fees[1].saleStartsAt": ["Please enter a valid date and time"],
    });
    // 02:30 on 14 March 2027 does not exist in Toronto (clocks go from 02:00 to 03:00).
    const skipped = parseWithZod(form({ "fees[0].saleStartsAt": "2027-03-14T02:30" }), {
      schema: feesFormSchema("America/Toronto"),
    });
    expect(errorsOf(skipped)).toEqual({
      "fees[0].saleStartsAt": ["This time does not exist in the event's time zone (clocks change)"],
    });
  });

  it("takes the fair-share limits per ticket and refuses ones that are not whole numbers from 1", () => {
    const ok = parseWithZod(form({ "fees[0].maxPerOrder": "4", "fees[0].maxPerAccount": "3" }), {
      schema: FeesFormSchema,
    });
    expect(ok.status === "success" && ok.value.fees[0]).toMatchObject({
      maxPerOrder: 4,
      maxPerAccount: 3,
    });
    const bad = parseWithZod(
      form({
        "fees[0].maxPerOrder": "0",
        "fees[0].maxPerAccount": "1.5",
        "fees[1].maxPerOrder": "1001",
        "fees[1].maxPerAccount": "0",
      }),
      { schema: FeesFormSchema },
    );
    expect(errorsOf(bad)).toMatchObject({
      "fees[0].maxPerOrder": ["Max per order must be at least 1"],
      "fees[0].maxPerAccount": ["Max per account must be a whole number"],
      "fees[1].maxPerOrder": ["Max per order must be at most 1000"],
      "fees[1].maxPerAccount": ["Max per account must be at least 1"],
    });
  });

  it("refuses a negative amount, more than 2 decimals and a max quantity below 1", () => {
    const submission = parseWithZod(
      form({
        "fees[0].amount": "-1",
        "fees[1].amount": "10.005",
        "fees[2].amount": "5",
        "fees[2].maxQuantity": "0",
      }),
      { schema: FeesFormSchema },
    );
    expect(errorsOf(submission)).toMatchObject({
      "fees[0].amount": ["Amount must be at least 0"],
      "fees[1].amount": ["Amount can have at most 2 decimal places"],
      "fees[2].maxQuantity": ["Max quantity must be at least 1"],
    });
  });

  it("turns the typed amount into minor units of the row's currency, exactly", () => {
    const submission = parseWithZod(
      form({
        "fees[0].amount": "1234.56",
        "fees[0].currency": "USD",
        "fees[1].amount": "0.29",
        "fees[1].currency": "KES",
        "fees[2].amount": "1000000000",
        "fees[2].currency": "EUR",
        "fees[3].amount": "150000",
        "fees[3].currency": "UGX",
        "fees[4].amount": "2,500",
        "fees[4].currency": "RWF",
      }),
      { schema: FeesFormSchema },
    );
    if (submission.status !== "success") throw new Error(JSON.stringify(submission.error));
    expect(submission.value.fees.map((f) => [f.currency, f.amountMinor])).toEqual([
      ["USD", 123456],
      ["KES", 29],
      ["EUR", 100_000_000_000],
      ["UGX", 150000],
      ["RWF", 2500],
    ]);
  });

  it("refuses decimals for UGX and RWF, text, and amounts over the limit", () => {
    const submission = parseWithZod(
      form({
        "fees[0].amount": "1500.50",
        "fees[0].currency": "UGX",
        "fees[1].amount": "10.5",
        "fees[1].currency": "RWF",
        "fees[2].amount": "ten",
        "fees[3].amount": "1000000000.01",
      }),
      { schema: FeesFormSchema },
    );
    expect(errorsOf(submission)).toMatchObject({
      "fees[0].amount": ["Amount can have no decimal places in UGX"],
      "fees[1].amount": ["Amount can have no decimal places in RWF"],
      "fees[2].amount": ["Amount must be a number"],
      "fees[3].amount": ["Amount is too large"],
    });
  });

  it("accepts an empty list (Save All Fees with no rows removes them all)", () => {
    const submission = parseWithZod(form({}), { schema: FeesFormSchema });
    expect(submission.status === "success" && submission.value.fees).toEqual([]);
  });
});
