// How the CfP screens (reviewer and editor) answer a refused form: the model's CfpError becomes the
// message under its field (or over the form) with its status, and every typed value comes back.
import { data } from "react-router";
import { DomainError } from "~/lib/lifecycle.server";

export type FormAnswer = {
  intent: string;
  formError: string | null;
  fieldErrors: Record<string, string[]>;
  values: Record<string, string>;
};

/** The form's own text values (files and repeated keys aside), to put back in the fields. */
export function typedValues(form: FormData): Record<string, string> {
  const values: Record<string, string> = {};
  for (const [key, value] of form) {
    if (typeof value === "string" && !(key in values)) values[key] = value;
  }
  return values;
}

/** A refusal as the page shows it; anything but a DomainError is thrown on (a real failure). */
export function refusal(error: unknown, intent: string, form: FormData) {
  if (!(error instanceof DomainError)) throw error;
  return invalid(intent, form, error.message, error.field, error.status);
}

export function invalid(
  intent: string,
  form: FormData,
  message: string,
  field?: string | null,
  status = 400,
) {
  const answer: FormAnswer = {
    intent,
    formError: field ? null : message,
    fieldErrors: field ? { [field]: [message] } : {},
    values: typedValues(form),
  };
  return data(answer, { status });
}

/** Text of a form field ('' when absent or a file). */
export function text(form: FormData, name: string) {
  const value = form.get(name);
  return typeof value === "string" ? value : "";
}
