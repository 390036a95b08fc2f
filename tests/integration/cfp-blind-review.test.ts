/**
 * Double-blind review (issue 32 item 4): every reviewer-facing response of a double-blind call —
 * "My reviews", the assignment page in each of its states (before and after the conflict
 * declaration, with a draft, submitted, round 2 with both versions and the response letter), every
 * action's answer, the root loader that rides along in each .data response, each page rendered to
 * HTML, and the PDF of each round — carries no author identity: no name (in any case, with or
 * without diacritics), e-mail, affiliation or ORCID iD, and no submitter. And the author's view of
 * their submission never names a reviewer.
 */
import { randomUUID } from "node:crypto";
import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { createRoutesStub } from "react-router";
import { beforeAll, describe, expect, it } from "vitest";
import { user } from "~/db/schema";
import type { PersonActor } from "~/lib/lifecycle.server";
import { foldForSearch } from "~/lib/pdf/manuscript.server";
import { createCall } from "~/models/cfp/calls.server";
import { getMySubmission } from "~/models/cfp/queries.server";
import { assignReviewer } from "~/models/cfp/reviews.server";
import { decide, saveDraft, submit, submitRevision } from "~/models/cfp/submissions.server";
import { wireProcess } from "~/models/wiring.server";
import { loader as rootLoader } from "~/root";
import MyReviews, { loader as reviewsLoader } from "~/routes/reviews/index";
import { loader as manuscriptLoader } from "~/routes/reviews/manuscript";
import ReviewPage, {
  action as reviewAction,
  loader as reviewLoader,
} from "~/routes/reviews/review";
import { useTestDatabase } from "../helpers/db";
import {
  addIdentifyingMetadata,
  makeManuscriptPdf,
  NEUTRAL_BODY,
  pdfObjectsText,
} from "../helpers/manuscript-pdf";
import { pdfText } from "../helpers/pdf-text";
import { sessionCookieFor } from "../helpers/session";

wireProcess();

const DAY = 86_400_000;
const ORIGIN = "http://localhost:3000";

const AUTHORS = [
  {
    name: "Wanjirũ Mũthoni Ngũgĩ",
    affiliation: "Chuo Kikuu cha Kusini",
    email: "wanjiru.ngugi@registries.example",
    orcid: "0000-0002-1825-0097",
    corresponding: true,
  },
  {
    name: "Jean-Pierre O'Brien-Åkesson",
    affiliation: "Institut Zéphyrin des Archives",
    email: "jp.obrien@archives.example",
    orcid: "0000-0002-1694-233X",
    corresponding: false,
  },
];
const SUBMITTER = { name: "Halima Submitterova", email: "halima.submitter@example.test" };

/** Every trace of the authors that must not reach a reviewer, as folded words and raw strings. */
const FORBIDDEN_WORDS = [
  ...AUTHORS.flatMap((a) => foldForSearch(`${a.name} ${a.affiliation}`)),
  ...foldForSearch(SUBMITTER.name),
].filter((word) => word.length >= 4 && !["institut", "archives", "kikuu"].includes(word));
const FORBIDDEN_STRINGS = [
  ...AUTHORS.flatMap((a) => [a.email, a.orcid, a.orcid.replace(/-/g, "")]),
  SUBMITTER.email,
];

function leaks(text: string): string[] {
  const words = new Set(foldForSearch(text));
  const lower = text.toLowerCase();
  return [
    ...FORBIDDEN_WORDS.filter((word) => words.has(word)),
    ...FORBIDDEN_STRINGS.filter((s) => lower.includes(s.toLowerCase())),
  ];
}

// biome-ignore lint/suspicious/noExplicitAny: loaders and actions take more than these
type Args = any;
const args = (
  cookie: string,
  url: string,
  params: Record<string, string>,
  body?: FormData,
): Args => ({
  request: new Request(`${ORIGIN}${url}`, {
    method: body ? "POST" : "GET",
    headers: { cookie, Origin: ORIGIN },
    body,
  }),
  params,
  context: { cspNonce: "", requestId: "" },
});

/** A loader's or action's data, whether returned plain or wrapped by `data()`. */
// biome-ignore lint/suspicious/noExplicitAny: the shapes differ per loader
const dataOf = (result: any) =>
  result && typeof result === "object" && "data" in result && "init" in result
    ? result.data
    : result;

function form(fields: Record<string, string>) {
  const body = new FormData();
  for (const [key, value] of Object.entries(fields)) body.set(key, value);
  return body;
}

describe("double-blind review: nothing reviewer-facing names an author", () => {
  const database = useTestDatabase();
  const checked: string[] = [];
  let editor: PersonActor;
  let author: PersonActor;
  const reviewers: Array<{ actor: PersonActor; email: string; name: string; cookie: string }> = [];
  let submissionId = "";

  async function person(role: "user" | "editor", name: string, email: string) {
    const id = randomUUID();
    await database.db.insert(user).values({ id, name, email, role, emailVerified: true });
    return { id, role } as PersonActor;
  }

  /** Checks one response body; remembers what was checked for the coverage assertion. */
  function expectBlind(what: string, text: string) {
    checked.push(what);
    expect(leaks(text), what).toEqual([]);
  }

  async function rootData(cookie: string, url: string) {
    return JSON.stringify(dataOf(await rootLoader(args(cookie, url, {}))));
  }

  /** The page's loader data, the root's, and the page rendered to HTML with that data. */
  async function fetchPage(
    what: string,
    cookie: string,
    url: string,
    params: Record<string, string>,
    // biome-ignore lint/suspicious/noExplicitAny: a route module's loader and component
    route: { loader: (a: Args) => Promise<any>; Component: () => any; path: string },
    actionData?: unknown,
  ) {
    const loaderData = dataOf(await route.loader(args(cookie, url, params)));
    expectBlind(`${what} (.data: page loader)`, JSON.stringify(loaderData));
    expectBlind(`${what} (.data: root loader)`, await rootData(cookie, url));
    const Stub = createRoutesStub([{ id: "page", path: route.path, Component: route.Component }]);
    const html = renderToString(
      createElement(Stub, {
        initialEntries: [url],
        hydrationData: {
          loaderData: { page: loaderData },
          actionData: actionData ? { page: actionData } : undefined,
        },
      }),
    );
    expect(html.length, what).toBeGreaterThan(200);
    expectBlind(`${what} (HTML)`, html);
    return { loaderData, html };
  }

  async function reviewerAction(index: number, fields: Record<string, string>) {
    const r = reviewers[index];
    const assignmentId = await assignmentOf(index);
    const url = `/reviews/${assignmentId}`;
    const result = dataOf(await reviewAction(args(r.cookie, url, { assignmentId }, form(fields))));
    expectBlind(`reviewer ${index + 1} ${fields.intent} (action .data)`, JSON.stringify(result));
    return { result, url, assignmentId };
  }

  const assignments: string[] = [];
  async function assignmentOf(index: number) {
    return assignments[index];
  }

  async function reviewPage(index: number, what: string, actionData?: unknown) {
    const assignmentId = assignments[index];
    return fetchPage(
      `reviewer ${index + 1}: ${what}`,
      reviewers[index].cookie,
      `/reviews/${assignmentId}`,
      { assignmentId },
      { loader: reviewLoader, Component: ReviewPage, path: "/reviews/:assignmentId" },
      actionData,
    );
  }

  async function myReviews(index: number, what: string) {
    return fetchPage(
      `reviewer ${index + 1}: My reviews, ${what}`,
      reviewers[index].cookie,
      "/reviews",
      {},
      {
        loader: reviewsLoader,
        Component: MyReviews,
        path: "/reviews",
      },
    );
  }

  async function download(index: number, round: number) {
    const assignmentId = assignments[index];
    const response: Response = await manuscriptLoader(
      args(reviewers[index].cookie, `/reviews/${assignmentId}/manuscript/${round}`, {
        assignmentId,
        round: String(round),
      }),
    );
    expect(response.status).toBe(200);
    const disposition = response.headers.get("Content-Disposition") ?? "";
    expect(disposition).toMatch(/^attachment; filename="submission-[0-9a-f]{8}\.pdf"$/);
    expectBlind(`reviewer ${index + 1}: PDF round ${round} (headers)`, disposition);
    const bytes = new Uint8Array(await response.arrayBuffer());
    expectBlind(`reviewer ${index + 1}: PDF round ${round} (objects)`, await pdfObjectsText(bytes));
    expectBlind(`reviewer ${index + 1}: PDF round ${round} (text)`, await pdfText(bytes));
    expectBlind(
      `reviewer ${index + 1}: PDF round ${round} (bytes)`,
      Buffer.from(bytes).toString("latin1"),
    );
    return bytes;
  }

  async function identifyingPdf(note: string) {
    const pdf = await makeManuscriptPdf({
      body: `${NEUTRAL_BODY}\n\n${note}`,
      info: {
        Title: `Registries, by ${AUTHORS[0].name}`,
        Author: `${AUTHORS[0].name}; ${AUTHORS[1].name}`,
        Subject: AUTHORS[0].affiliation,
        Keywords: AUTHORS[1].email,
        Creator: `Word (${SUBMITTER.name})`,
        Producer: "Registries PDF 2.0",
      },
    });
    return addIdentifyingMetadata(pdf, AUTHORS[0].name);
  }

  beforeAll(async () => {
    editor = await person("editor", "Editor Blind", "editor.blind@example.test");
    author = await person("user", SUBMITTER.name, SUBMITTER.email);
    for (const n of [1, 2]) {
      const email = `reviewer${n}.blind@example.test`;
      const name = `Reviewer Blind ${n}`;
      const actor = await person("user", name, email);
      reviewers.push({ actor, email, name, cookie: await sessionCookieFor(actor.id) });
    }
    const call = await createCall(
      editor,
      {
        title: "Records and registries 2027",
        description: "Practice and research on public records.",
        tracks: ["Records"],
        submissionDeadline: new Date(Date.now() + 30 * DAY),
        reviewDeadline: new Date(Date.now() + 60 * DAY),
        eventId: null,
        blindMode: "double",
        criteria: ["Relevance", "Rigour"],
      },
      { open: true },
    );
    const draft = await saveDraft(
      author,
      { callId: call.id },
      {
        title: "Retention schedules in county registries",
        abstract: NEUTRAL_BODY,
        keywords: ["records", "retention", "registries"],
        track: "Records",
        authors: AUTHORS,
        declaration: true,
        manuscript: await identifyingPdf("First version."),
      },
    );
    submissionId = draft.id;
    await submit(author, submissionId);
    for (const r of reviewers) {
      const assignment = await assignReviewer(editor, submissionId, {
        email: r.email,
        dueAt: new Date(Date.now() + 20 * DAY),
      });
      assignments.push(assignment.id);
    }
  });

  it("hides the authors through a whole review, round 2 included", async () => {
    // Before the conflict declaration.
    await myReviews(0, "invited");
    const invited = await reviewPage(0, "before the declaration");
    expect(invited.html).toContain("I have no conflict of interest");
    expect(invited.html).toContain("Retention schedules in county registries");
    expect(invited.html).not.toContain("Download PDF");

    for (const index of [0, 1]) {
      const declared = await reviewerAction(index, { intent: "no-conflict" });
      await reviewPage(index, "after declaring no conflict", declared.result);
      await download(index, 1);
      const saved = await reviewerAction(index, {
        intent: "save",
        "scores.relevance": "4",
        commentsToAuthors: "The survey is sound; the checklist needs a pilot.",
      });
      await reviewPage(index, "with a saved draft", saved.result);
      // A refused submit (a criterion unscored) comes back with what was typed.
      const refused = await reviewerAction(index, {
        intent: "submit",
        "scores.relevance": "4",
        recommendation: "minor",
        commentsToAuthors: "The survey is sound; the checklist needs a pilot.",
      });
      await reviewPage(index, "refused submit", refused.result);
      const submitted = await reviewerAction(index, {
        intent: "submit",
        "scores.relevance": "4",
        "scores.rigour": index === 0 ? "2" : "4",
        recommendation: index === 0 ? "major" : "accept",
        commentsToAuthors: "The survey is sound; the checklist needs a pilot.",
        confidentialComments: "Borderline; I would like to see the revision.",
      });
      expect(submitted.result).toMatchObject({ intent: "submit" });
      await reviewPage(index, "review submitted", submitted.result);
      await myReviews(index, "submitted");
    }

    await decide(editor, submissionId, {
      outcome: "revisions_requested",
      letter: "Please revise.",
    });
    await submitRevision(author, submissionId, {
      manuscript: await identifyingPdf("Revised version."),
      responseLetter: "We piloted the checklist in two more registries, as asked.",
    });

    const round2 = await reviewPage(0, "round 2");
    expect(round2.html).toContain("Download PDF (round 1)");
    expect(round2.html).toContain("Download PDF (round 2)");
    expect(round2.html).toContain("We piloted the checklist");
    await myReviews(0, "round 2");
    const first = await download(0, 1);
    const second = await download(0, 2);
    expect(await pdfText(second)).toContain("Revised version.");
    expect(await pdfText(first)).toContain("First version.");
    await download(1, 2);

    // Every kind of response was looked at.
    const kinds = [
      "(.data: page loader)",
      "(.data: root loader)",
      "(HTML)",
      "(objects)",
      "(action .data)",
    ];
    for (const kind of kinds)
      expect(
        checked.some((what) => what.includes(kind)),
        kind,
      ).toBe(true);
    expect(checked.length).toBeGreaterThan(40);
  });

  it("the check itself finds the authors where they are", async () => {
    expect(leaks("see NGUGI, W. M. and colleagues")).toContain("ngugi");
    expect(leaks("contact wanjiru.ngugi@registries.example")).not.toEqual([]);
    expect(leaks("0000000218250097")).not.toEqual([]);
    const original = await identifyingPdf("x");
    expect(leaks(await pdfObjectsText(original))).not.toEqual([]);
  });

  it("never names a reviewer to the author", async () => {
    const mine = await getMySubmission(author.id, submissionId);
    const text = JSON.stringify(mine);
    for (const r of reviewers) {
      expect(text).not.toContain(r.email);
      expect(text).not.toContain(r.name);
      expect(text).not.toContain(r.actor.id);
    }
    expect(text).toContain("Reviewer 1");
  });

  it("refuses another person's assignment as if it did not exist", async () => {
    const stranger = await person("user", "Stranger", "stranger.blind@example.test");
    const cookie = await sessionCookieFor(stranger.id);
    const assignmentId = assignments[0];
    const thrown = await reviewLoader(
      args(cookie, `/reviews/${assignmentId}`, { assignmentId }),
    ).then(
      () => null,
      (error: unknown) => error,
    );
    expect(thrown).toMatchObject({ init: { status: 404 } });
    const pdf = await manuscriptLoader(
      args(cookie, `/reviews/${assignmentId}/manuscript/1`, { assignmentId, round: "1" }),
    ).then(
      () => null,
      (error: unknown) => error,
    );
    expect(pdf).toMatchObject({ init: { status: 404 } });
  });
});
