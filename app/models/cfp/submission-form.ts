// The author's submission form as plain data (shared by its component and its action): the
// typed values, the answer of a refused save, and the author rows read from the form's indexed
// fields and reordered by the row buttons (which work without JavaScript).
import { MAX_AUTHORS } from "./limits";

export type AuthorRow = {
  name: string;
  affiliation: string;
  email: string;
  orcid: string;
  corresponding: boolean;
};

export type SubmissionFormValues = {
  title: string;
  abstract: string;
  keywords: string;
  track: string;
  declaration: boolean;
  authors: AuthorRow[];
};

export type SubmissionFormAnswer = {
  values: SubmissionFormValues;
  fieldErrors: Record<string, string[]>;
  formError: string | null;
  /** Names the manuscript's text mentions (double-blind): confirm to submit anyway. */
  mentions: string[] | null;
  /** A file was chosen but not kept (the save was refused): choose it again. */
  fileDropped: boolean;
  /** The draft this form saved (a new submission's form posts it back, not a second draft). */
  draftId: string | null;
};

function text(form: FormData, name: string) {
  const value = form.get(name);
  return typeof value === "string" ? value : "";
}

/** The author rows as typed (indexed fields `authors[i].name` …, `corresponding` = i). */
export function authorRows(form: FormData): AuthorRow[] {
  const indexes = new Set<number>();
  for (const key of form.keys()) {
    const match = /^authors\[(\d{1,2})\]\./.exec(key);
    if (match) indexes.add(Number(match[1]));
  }
  const corresponding = text(form, "corresponding");
  return [...indexes]
    .sort((a, b) => a - b)
    .slice(0, MAX_AUTHORS)
    .map((i) => ({
      name: text(form, `authors[${i}].name`),
      affiliation: text(form, `authors[${i}].affiliation`),
      email: text(form, `authors[${i}].email`),
      orcid: text(form, `authors[${i}].orcid`),
      corresponding: corresponding === String(i),
    }));
}

/** The rows after a row button (`up:i`, `down:i`, `remove:i`); other intents leave them. */
export function applyRowIntent(rows: AuthorRow[], intent: string): AuthorRow[] {
  const match = /^(up|down|remove):(\d{1,2})$/.exec(intent);
  if (!match) return rows;
  const i = Number(match[2]);
  const out = [...rows];
  if (i >= out.length) return out;
  if (match[1] === "remove") {
    out.splice(i, 1);
    return out;
  }
  const j = match[1] === "up" ? i - 1 : i + 1;
  if (j < 0 || j >= out.length) return out;
  [out[i], out[j]] = [out[j], out[i]];
  return out;
}
