// The author's submission form (issue 32): parsing the multipart form (authors as indexed rows,
// reordered by the row buttons, which work without JavaScript), the manuscript checked as a
// text-based PDF, the double-blind name check before submitting, and the model's refusals shown
// under their field with every typed value kept.
import { data, redirect } from "react-router";
import { DomainError, type PersonActor } from "~/lib/lifecycle.server";
import {
  findAuthorMentions,
  MAX_MANUSCRIPT_BYTES,
  ManuscriptError,
  readManuscript,
} from "~/lib/pdf/manuscript.server";
import { redirectWithToast } from "~/lib/toast.server";
import { readStored } from "~/models/cfp/manuscripts.server";
import { getManuscriptKeyOfDraft, isId } from "~/models/cfp/queries.server";
import {
  type AuthorRow,
  applyRowIntent,
  authorRows,
  type SubmissionFormAnswer,
  type SubmissionFormValues,
} from "~/models/cfp/submission-form";
import { type AuthorInput, MAX_AUTHORS, saveDraft, submit } from "~/models/cfp/submissions.server";
import { mySubmissionPath } from "~/models/cfp/urls";

/** Room for the multipart envelope and the text fields around a 10 MB manuscript (server/http-guards.ts). */
const BODY_LIMIT = MAX_MANUSCRIPT_BYTES + 512 * 1024;
export const CONFIRM_ANONYMOUS = "confirmAnonymous";
export const TOO_LARGE_MESSAGE = "Please upload a PDF of at most 10 MB";

function text(form: FormData, name: string) {
  const value = form.get(name);
  return typeof value === "string" ? value : "";
}

function valuesOf(form: FormData, authors: AuthorRow[]): SubmissionFormValues {
  return {
    title: text(form, "title"),
    abstract: text(form, "abstract"),
    keywords: text(form, "keywords"),
    track: text(form, "track"),
    declaration: form.get("declaration") === "on",
    authors,
  };
}

function answer(
  values: SubmissionFormValues,
  status: number,
  extra: Partial<SubmissionFormAnswer> = {},
) {
  return data<SubmissionFormAnswer>(
    {
      values,
      fieldErrors: {},
      formError: null,
      mentions: null,
      fileDropped: false,
      draftId: null,
      ...extra,
    },
    { status },
  );
}

/**
 * The action of the new (`{ callId }`) and edit (`{ submissionId }`) screens. Intents: `save`,
 * `submit`, `add`, and the row buttons; every one saves the draft (so a reorder or a new row
 * never loses what was typed or uploaded), then goes on.
 */
export async function handleSubmissionForm(
  request: Request,
  actor: PersonActor,
  given: { callId: string } | { submissionId: string },
) {
  const declared = Number(request.headers.get("content-length"));
  if (Number.isFinite(declared) && declared > BODY_LIMIT) {
    return answer(valuesOf(new FormData(), []), 400, {
      fieldErrors: { manuscript: [TOO_LARGE_MESSAGE] },
      formError: "The form was not saved: the file is larger than 10 MB.",
    });
  }
  let form: FormData;
  try {
    form = await request.formData();
  } catch {
    return answer(valuesOf(new FormData(), []), 400, {
      formError: "The form could not be read. Please try again.",
    });
  }
  const intent = text(form, "intent") || "save";
  // A new submission's form that already made its draft (a warning, a refusal) saves that one.
  const draftId = text(form, "draftId");
  const target = "callId" in given && isId(draftId) ? { submissionId: draftId } : given;
  const knownDraft = "submissionId" in target ? target.submissionId : null;
  const authors = applyRowIntent(authorRows(form), intent);
  const values = valuesOf(form, authors);
  const file = form.get("manuscript");
  const hasFile = file instanceof File && file.size > 0;

  let manuscript: Uint8Array | null = null;
  let manuscriptText: string | null = null;
  if (hasFile) {
    if (file.size > MAX_MANUSCRIPT_BYTES) {
      return answer(values, 400, { fieldErrors: { manuscript: [TOO_LARGE_MESSAGE] } });
    }
    manuscript = new Uint8Array(await file.arrayBuffer());
    try {
      manuscriptText = (await readManuscript(manuscript)).text;
    } catch (error) {
      if (!(error instanceof ManuscriptError)) throw error;
      return answer(values, 400, { fieldErrors: { manuscript: [error.message] } });
    }
  }

  const input = {
    title: values.title,
    abstract: values.abstract,
    keywords: values.keywords.split(","),
    track: values.track || null,
    declaration: values.declaration,
    authors: authors.map(
      (a): AuthorInput => ({
        name: a.name,
        affiliation: a.affiliation,
        email: a.email,
        orcid: a.orcid,
        corresponding: a.corresponding,
      }),
    ),
    manuscript,
  };

  let submissionId: string;
  try {
    const saved = await saveDraft(actor, target, input);
    submissionId = saved.id;
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    if (error.status === 404) throw data(null, { status: 404 });
    return answer(values, error.status === 409 ? 409 : 400, {
      ...(error.field
        ? { fieldErrors: { [error.field]: [error.message] } }
        : { formError: error.message }),
      fileDropped: hasFile,
      draftId: knownDraft,
    });
  }
  const editPath = `${mySubmissionPath(submissionId)}/edit`;

  if (intent === "add") {
    // The new blank row is shown by the edit page (a blank author is not stored).
    throw redirect(
      `${editPath}?rows=${Math.min(authors.length + 1, MAX_AUTHORS)}#author-${authors.length}`,
    );
  }
  if (intent !== "submit") {
    const saved = /^(up|down|remove):/.test(intent);
    if (saved) throw redirect(`${editPath}#authors`);
    return redirectWithToast(editPath, {
      type: "success",
      title: "Draft saved",
      description: "Finish it any time from My submissions before the deadline.",
    });
  }

  // Double-blind: the author is warned before submitting when the text names an author.
  const blind = await getManuscriptKeyOfDraft(actor.id, submissionId);
  if (blind?.blindMode === "double" && text(form, CONFIRM_ANONYMOUS) !== "yes") {
    if (manuscriptText === null && blind.key) {
      const stored = await readStored(blind.key);
      manuscriptText = stored
        ? ((await readManuscript(stored).catch(() => null))?.text ?? null)
        : null;
    }
    const mentions = manuscriptText ? findAuthorMentions(manuscriptText, authors) : [];
    if (mentions.length > 0) {
      return answer(values, 400, { mentions, draftId: submissionId });
    }
  }
  try {
    await submit(actor, submissionId);
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    return answer(values, error.status === 409 ? 409 : 400, {
      ...(error.field
        ? { fieldErrors: { [error.field]: [error.message] } }
        : { formError: error.message }),
      draftId: submissionId,
    });
  }
  return redirectWithToast(mySubmissionPath(submissionId), {
    type: "success",
    title: "Submission received",
    description: "We sent you a confirmation by e-mail. An editor checks it within two weeks.",
  });
}
