import { randomUUID } from "node:crypto";
import { asc, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { submissionAuthors, submissions, submissionVersions, user } from "~/db/schema";
import type { PersonActor } from "~/lib/lifecycle.server";
import { createCall } from "~/models/cfp/calls.server";
import { loader as uploadsLoader } from "~/routes/api/uploads-file";
import { useTestDatabase } from "../../../../tests/helpers/db";
import { makeManuscriptPdf, NEUTRAL_BODY } from "../../../../tests/helpers/manuscript-pdf";
import { sessionCookieFor } from "../../../../tests/helpers/session";
import { action as detailAction, loader as detailLoader } from "./detail";
import { action as editAction } from "./edit";
import { loader as manuscriptLoader } from "./manuscript";
import { action as newAction } from "./new";

const ORIGIN = "http://localhost:3000";
const context = { cspNonce: "", requestId: "" };

type Answer = { status: number; location: string | null; data: unknown };

/** Runs a loader or action; a thrown or returned Response / data() comes back in one shape. */
async function run(fn: () => unknown): Promise<Answer> {
  let value: unknown;
  try {
    value = await fn();
  } catch (thrown) {
    value = thrown;
  }
  if (value instanceof Response) {
    return { status: value.status, location: value.headers.get("location"), data: null };
  }
  if (
    value &&
    typeof value === "object" &&
    (value as { type?: string }).type === "DataWithResponseInit"
  ) {
    const d = value as { data: unknown; init?: ResponseInit };
    const headers = new Headers(d.init?.headers);
    return { status: d.init?.status ?? 200, location: headers.get("location"), data: d.data };
  }
  if (value instanceof Error) throw value;
  return { status: 200, location: null, data: value };
}

function post(path: string, cookie: string, fields: Record<string, string | Blob>) {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.append(key, value);
  return new Request(ORIGIN + path, { method: "POST", headers: { cookie }, body: form });
}

function get(path: string, cookie: string) {
  return new Request(ORIGIN + path, { headers: { cookie } });
}

describe("the author's submission screens", () => {
  const database = useTestDatabase();
  let author: { id: string; email: string; cookie: string };
  let stranger: { cookie: string };
  let callId: string;

  async function person(role: "user" | "editor" = "user", name = "Amina Wekesa") {
    const id = randomUUID();
    const email = `a.${id.slice(0, 8)}@example.test`;
    await database.db.insert(user).values({ id, name, email, role, emailVerified: true });
    return { id, email, cookie: await sessionCookieFor(id) };
  }

  const base = () => ({
    title: "Retention schedules in county registries",
    abstract: "We surveyed forty county registries.",
    keywords: "records, retention, registries",
    "authors[0].name": "Amina Wekesa",
    "authors[0].affiliation": "Registry Institute",
    "authors[0].email": author.email,
    "authors[0].orcid": "",
    corresponding: "0",
  });

  beforeAll(async () => {
    const editor = await person("editor", "Editor");
    const call = await createCall(
      { id: editor.id, role: "editor" } as PersonActor,
      {
        title: "Registries 2027",
        description: "",
        tracks: [],
        submissionDeadline: new Date(Date.now() + 20 * 86_400_000),
        reviewDeadline: new Date(Date.now() + 40 * 86_400_000),
        eventId: null,
        blindMode: "double",
        criteria: ["Originality"],
      },
      { open: true },
    );
    callId = call.id;
    author = await person();
    stranger = await person("user", "Someone Else");
  });

  it("adds, reorders and removes authors by buttons that save the draft (no JavaScript needed)", async () => {
    const added = await run(() =>
      newAction({
        request: post(`/papers/calls/${callId}/submit`, author.cookie, {
          ...base(),
          intent: "add",
        }),
        params: { callId },
        context,
      } as never),
    );
    expect(added.status).toBe(302);
    const match = /^\/profile\/submissions\/([0-9a-f-]{36})\/edit\?rows=2#author-1$/.exec(
      added.location ?? "",
    );
    expect(match).not.toBeNull();
    const id = (match as RegExpExecArray)[1];

    const two = {
      ...base(),
      "authors[1].name": "Otieno Second",
      "authors[1].affiliation": "",
      "authors[1].email": "",
      "authors[1].orcid": "",
    };
    const moved = await run(() =>
      editAction({
        request: post(`/profile/submissions/${id}/edit`, author.cookie, { ...two, intent: "up:1" }),
        params: { id },
        context,
      } as never),
    );
    expect(moved.status).toBe(302);
    const names = async () =>
      (
        await database.db
          .select({ name: submissionAuthors.name, corresponding: submissionAuthors.corresponding })
          .from(submissionAuthors)
          .where(eq(submissionAuthors.submissionId, id))
          .orderBy(asc(submissionAuthors.position))
      ).map((a) => `${a.name}${a.corresponding ? "*" : ""}`);
    expect(await names()).toEqual(["Otieno Second", "Amina Wekesa*"]);

    // A wrong ORCID iD: 400, the message under that author's field, everything typed kept.
    const refused = await run(() =>
      editAction({
        request: post(`/profile/submissions/${id}/edit`, author.cookie, {
          ...two,
          "authors[1].orcid": "0000-0002-1825-0098",
          intent: "save",
        }),
        params: { id },
        context,
      } as never),
    );
    expect(refused.status).toBe(400);
    const answer = refused.data as {
      fieldErrors: Record<string, string[]>;
      values: { title: string; authors: { name: string; orcid: string }[] };
    };
    expect(Object.keys(answer.fieldErrors)).toEqual(["authors[1].orcid"]);
    expect(answer.values.title).toBe("Retention schedules in county registries");
    expect(answer.values.authors[1]).toMatchObject({
      name: "Otieno Second",
      orcid: "0000-0002-1825-0098",
    });

    const removed = await run(() =>
      editAction({
        request: post(`/profile/submissions/${id}/edit`, author.cookie, {
          ...two,
          intent: "remove:1",
        }),
        params: { id },
        context,
      } as never),
    );
    expect(removed.status).toBe(302);
    expect(await names()).toEqual(["Amina Wekesa*"]);

    // Somebody else's draft is not found, to read or to change.
    const foreign = await run(() =>
      editAction({
        request: post(`/profile/submissions/${id}/edit`, stranger.cookie, {
          ...two,
          intent: "save",
        }),
        params: { id },
        context,
      } as never),
    );
    expect(foreign.status).toBe(404);
    expect(
      (
        await run(() =>
          detailLoader({
            request: get(`/profile/submissions/${id}`, stranger.cookie),
            params: { id },
            context,
          } as never),
        )
      ).status,
    ).toBe(404);
  });

  it("warns before a double-blind submission whose PDF names an author, then submits when confirmed", async () => {
    const pdf = await makeManuscriptPdf({
      body: `${NEUTRAL_BODY}\n\nBy Amina Wekesa, Registry Institute.`,
    });
    const file = new File([new Uint8Array(pdf)], "paper.pdf", { type: "application/pdf" });
    const first = await run(() =>
      newAction({
        request: post(`/papers/calls/${callId}/submit`, author.cookie, {
          ...base(),
          declaration: "on",
          manuscript: file,
          intent: "submit",
        }),
        params: { callId },
        context,
      } as never),
    );
    expect(first.status).toBe(400);
    const warned = first.data as { mentions: string[]; draftId: string };
    expect(warned.mentions).toEqual(["Amina Wekesa"]);
    const [draft] = await database.db
      .select({ state: submissions.state })
      .from(submissions)
      .where(eq(submissions.id, warned.draftId));
    expect(draft.state).toBe("draft");

    // Confirmed from the same page: the draft it made is submitted (no second draft).
    const confirmed = await run(() =>
      newAction({
        request: post(`/papers/calls/${callId}/submit`, author.cookie, {
          ...base(),
          declaration: "on",
          draftId: warned.draftId,
          confirmAnonymous: "yes",
          intent: "submit",
        }),
        params: { callId },
        context,
      } as never),
    );
    expect(confirmed.status).toBe(302);
    expect(confirmed.location).toBe(`/profile/submissions/${warned.draftId}`);
    const mine = await database.db
      .select({ id: submissions.id, state: submissions.state })
      .from(submissions)
      .where(eq(submissions.submitterId, author.id));
    expect(mine.filter((s) => s.id === warned.draftId)[0].state).toBe("submitted");

    // The author downloads their manuscript; nobody else, and never through /uploads.
    const own = await manuscriptLoader({
      request: get(`/profile/submissions/${warned.draftId}/manuscript/1`, author.cookie),
      params: { id: warned.draftId, round: "1" },
      context,
    } as never);
    expect(own.headers.get("content-type")).toBe("application/pdf");
    expect(
      (
        await run(() =>
          manuscriptLoader({
            request: get(`/profile/submissions/${warned.draftId}/manuscript/1`, stranger.cookie),
            params: { id: warned.draftId, round: "1" },
            context,
          } as never),
        )
      ).status,
    ).toBe(404);
    const [version] = await database.db
      .select({ key: submissionVersions.manuscriptKey })
      .from(submissionVersions)
      .where(eq(submissionVersions.submissionId, warned.draftId));
    expect(
      (
        await run(() =>
          uploadsLoader({
            request: get(`/uploads/${version.key}`, author.cookie),
            params: { "*": version.key as string },
            context,
          } as never),
        )
      ).status,
    ).toBe(404);

    // Withdrawing is asked twice: first the confirmation, then the withdrawal.
    const asked = await run(() =>
      detailAction({
        request: post(`/profile/submissions/${warned.draftId}`, author.cookie, {
          intent: "withdraw",
        }),
        params: { id: warned.draftId },
        context,
      } as never),
    );
    expect(asked.data).toMatchObject({ confirmWithdraw: true });
    const done = await run(() =>
      detailAction({
        request: post(`/profile/submissions/${warned.draftId}`, author.cookie, {
          intent: "withdraw",
          confirm: "yes",
        }),
        params: { id: warned.draftId },
        context,
      } as never),
    );
    expect(done.status).toBe(302);
    const [after] = await database.db
      .select({ state: submissions.state })
      .from(submissions)
      .where(eq(submissions.id, warned.draftId));
    expect(after.state).toBe("withdrawn");
  });

  it("refuses a scanned PDF with the guidelines' message and keeps what was typed", async () => {
    const { makeScannedPdf } = await import("../../../../tests/helpers/manuscript-pdf");
    const scan = new File([new Uint8Array(await makeScannedPdf())], "scan.pdf", {
      type: "application/pdf",
    });
    const answer = await run(() =>
      newAction({
        request: post(`/papers/calls/${callId}/submit`, author.cookie, {
          ...base(),
          manuscript: scan,
          intent: "save",
        }),
        params: { callId },
        context,
      } as never),
    );
    expect(answer.status).toBe(400);
    const data = answer.data as {
      fieldErrors: Record<string, string[]>;
      values: { title: string };
    };
    expect(data.fieldErrors.manuscript[0]).toMatch(/text-based PDF/);
    expect(data.values.title).toBe("Retention schedules in county registries");
  });
});
