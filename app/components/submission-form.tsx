import { Form, useNavigation } from "react-router";
import { ArrowDown, ArrowUp, Plus, Trash2 } from "~/components/icons";
import { Alert, AlertDescription, AlertTitle } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { NativeSelect } from "~/components/ui/native-select";
import { Textarea } from "~/components/ui/textarea";
import type {
  AuthorRow,
  SubmissionFormAnswer,
  SubmissionFormValues,
} from "~/models/cfp/submission-form";

export const DECLARATION_TEXT =
  "The work is our own, not published or under review elsewhere, and cites its sources; every listed author has seen and approved this submission; personal data is anonymised, permissions are held for third-party figures, and funding and conflicts of interest are disclosed.";

const BLANK_AUTHOR: AuthorRow = {
  name: "",
  affiliation: "",
  email: "",
  orcid: "",
  corresponding: false,
};

function errorProps(errors: string[] | undefined, id: string) {
  return errors?.length ? { "aria-invalid": true, "aria-describedby": `${id}-error` } : {};
}

/**
 * The author's submission form (issue 32): every button posts the form (saving the draft), so
 * adding, removing and reordering authors work without JavaScript as with it.
 */
export function SubmissionForm({
  call,
  defaults,
  rows,
  manuscript,
  answer,
  draftId,
}: {
  call: { title: string; tracks: string[]; blindMode: "double" | "single"; deadline: string };
  defaults: SubmissionFormValues;
  /** Rows to show (at least the authors typed; more when 'Add author' was pressed). */
  rows: number;
  manuscript: { bytes: number | null } | null;
  answer?: SubmissionFormAnswer;
  draftId?: string | null;
}) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const values = answer?.values.authors.length || answer?.values.title ? answer.values : defaults;
  const errors = answer?.fieldErrors ?? {};
  const authors: AuthorRow[] = [...values.authors];
  while (authors.length < Math.max(rows, 1)) authors.push(BLANK_AUTHOR);
  const keyOf = (index: number) => `${index}:${JSON.stringify(values.authors[index] ?? "")}`;

  return (
    <Card className="p-4 sm:p-6">
      <Form method="post" encType="multipart/form-data" className="grid gap-6" noValidate>
        {/* Enter in a text field saves the draft (the first submit button in the form). */}
        <button
          type="submit"
          name="intent"
          value="save"
          className="sr-only"
          tabIndex={-1}
          aria-hidden
        >
          Save Draft
        </button>
        {draftId ? <input type="hidden" name="draftId" value={draftId} /> : null}
        {answer?.formError ? (
          <Alert variant="destructive" role="alert">
            <AlertDescription>{answer.formError}</AlertDescription>
          </Alert>
        ) : null}
        {Object.keys(errors).length > 0 && !answer?.formError ? (
          <Alert variant="destructive" role="alert">
            <AlertDescription>
              Please correct the fields marked below
              {answer?.fileDropped ? " and choose the PDF again" : ""}.
            </AlertDescription>
          </Alert>
        ) : null}

        <Field label="Title" htmlFor="title" errors={errors.title}>
          <Input
            id="title"
            name="title"
            defaultValue={values.title}
            maxLength={300}
            required
            {...errorProps(errors.title, "title")}
          />
        </Field>
        <Field
          label="Abstract"
          htmlFor="abstract"
          errors={errors.abstract}
          hint="150 to 300 words: the question, the method, the main findings and why they matter."
        >
          <Textarea
            id="abstract"
            name="abstract"
            rows={8}
            defaultValue={values.abstract}
            required
            {...errorProps(errors.abstract, "abstract")}
          />
        </Field>
        <div className="grid gap-6 md:grid-cols-2">
          <Field
            label="Keywords"
            htmlFor="keywords"
            errors={errors.keywords}
            hint="Three to six, separated by commas; they become the paper's tags."
          >
            <Input
              id="keywords"
              name="keywords"
              defaultValue={values.keywords}
              {...errorProps(errors.keywords, "keywords")}
            />
          </Field>
          {call.tracks.length > 0 ? (
            <Field label="Track" htmlFor="track" errors={errors.track}>
              <NativeSelect
                id="track"
                name="track"
                defaultValue={values.track}
                {...errorProps(errors.track, "track")}
              >
                <option value="">Choose a track</option>
                {call.tracks.map((track) => (
                  <option key={track} value={track}>
                    {track}
                  </option>
                ))}
              </NativeSelect>
            </Field>
          ) : null}
        </div>

        <fieldset id="authors" className="grid scroll-mt-24 gap-4">
          <legend className="mb-1 text-lg font-semibold">Authors</legend>
          <p className="text-sm text-muted-foreground">
            In the order they appear on the paper. Choose one corresponding author with an e-mail
            address; the ORCID iD is optional.
          </p>
          {errors.authors ? (
            <p id="authors-error" className="text-sm text-destructive">
              {errors.authors.join(" ")}
            </p>
          ) : null}
          <ol className="grid gap-4">
            {authors.map((author, index) => {
              const base = `authors[${index}]`;
              const id = (field: string) => `author-${index}-${field}`;
              const err = (field: string) => errors[`${base}.${field}`];
              return (
                <li
                  key={keyOf(index)}
                  id={`author-${index}`}
                  className="grid scroll-mt-24 gap-3 rounded-lg border border-border p-4"
                >
                  <h3 className="font-medium">Author {index + 1}</h3>
                  <div className="grid gap-3 sm:grid-cols-2">
                    <Field label="Name" htmlFor={id("name")} errors={err("name")}>
                      <Input
                        id={id("name")}
                        name={`${base}.name`}
                        defaultValue={author.name}
                        autoComplete="off"
                        {...errorProps(err("name"), id("name"))}
                      />
                    </Field>
                    <Field label="Affiliation" htmlFor={id("affiliation")}>
                      <Input
                        id={id("affiliation")}
                        name={`${base}.affiliation`}
                        defaultValue={author.affiliation}
                        autoComplete="off"
                      />
                    </Field>
                    <Field label="E-mail" htmlFor={id("email")} errors={err("email")}>
                      <Input
                        id={id("email")}
                        type="email"
                        name={`${base}.email`}
                        defaultValue={author.email}
                        autoComplete="off"
                        {...errorProps(err("email"), id("email"))}
                      />
                    </Field>
                    <Field
                      label="ORCID iD"
                      htmlFor={id("orcid")}
                      errors={err("orcid")}
                      hint="Optional, e.g. 0000-0002-1825-0097"
                    >
                      <Input
                        id={id("orcid")}
                        name={`${base}.orcid`}
                        defaultValue={author.orcid}
                        autoComplete="off"
                        {...errorProps(err("orcid"), id("orcid"))}
                      />
                    </Field>
                  </div>
                  <div className="flex flex-wrap items-center gap-2">
                    <label className="mr-auto inline-flex items-center gap-2 text-sm">
                      <input
                        type="radio"
                        name="corresponding"
                        value={String(index)}
                        defaultChecked={
                          author.corresponding ||
                          (index === 0 && !authors.some((a) => a.corresponding))
                        }
                        className="size-4 accent-primary"
                      />
                      Corresponding author
                    </label>
                    <Button
                      type="submit"
                      name="intent"
                      value={`up:${index}`}
                      variant="outline"
                      size="sm"
                      disabled={index === 0 || busy}
                      aria-label={`Move author ${index + 1} up`}
                    >
                      <ArrowUp aria-hidden />
                      Up
                    </Button>
                    <Button
                      type="submit"
                      name="intent"
                      value={`down:${index}`}
                      variant="outline"
                      size="sm"
                      disabled={index === authors.length - 1 || busy}
                      aria-label={`Move author ${index + 1} down`}
                    >
                      <ArrowDown aria-hidden />
                      Down
                    </Button>
                    <Button
                      type="submit"
                      name="intent"
                      value={`remove:${index}`}
                      variant="outline"
                      size="sm"
                      disabled={authors.length === 1 || busy}
                      aria-label={`Remove author ${index + 1}`}
                    >
                      <Trash2 aria-hidden />
                      Remove
                    </Button>
                  </div>
                </li>
              );
            })}
          </ol>
          <div>
            <Button type="submit" name="intent" value="add" variant="outline" disabled={busy}>
              <Plus aria-hidden />
              Add author
            </Button>
          </div>
        </fieldset>

        <Field
          label="Manuscript (PDF)"
          htmlFor="manuscript"
          errors={errors.manuscript}
          hint={
            <>
              One text-based PDF (not scanned) of at most 10 MB.
              {call.blindMode === "double"
                ? " This call is double-blind: remove the authors' names, affiliations and acknowledgements from the manuscript."
                : ""}
              {manuscript?.bytes
                ? ` A PDF of ${(manuscript.bytes / 1_048_576).toFixed(1)} MB is saved; choose another file only to replace it.`
                : ""}
            </>
          }
        >
          <Input
            id="manuscript"
            name="manuscript"
            type="file"
            accept="application/pdf,.pdf"
            className="h-auto py-1.5"
            {...errorProps(errors.manuscript, "manuscript")}
          />
        </Field>

        <div className="grid gap-2">
          <label className="flex items-start gap-3 text-sm">
            <input
              type="checkbox"
              name="declaration"
              defaultChecked={values.declaration}
              className="mt-0.5 size-4 shrink-0 accent-primary"
              {...errorProps(errors.declaration, "declaration")}
            />
            <span>
              <span className="font-medium">Declaration.</span> {DECLARATION_TEXT}
            </span>
          </label>
          {errors.declaration ? (
            <p id="declaration-error" className="text-sm text-destructive">
              {errors.declaration.join(" ")}
            </p>
          ) : null}
        </div>

        {answer?.mentions?.length ? (
          <Alert role="alert" className="border-yellow-300 bg-yellow-50 text-yellow-950">
            <AlertTitle>Is the manuscript anonymised?</AlertTitle>
            <AlertDescription>
              <p>
                This call is double-blind, and the manuscript's text mentions{" "}
                {answer.mentions.join(", ")}. Reviewers must not learn who the authors are: remove
                the names (and affiliations, acknowledgements, self-citations written in the first
                person) and upload the PDF again, or confirm below that the mentions are fine (for
                example, citations of your earlier work in the third person).
              </p>
              <label className="mt-3 flex items-start gap-3">
                <input
                  type="checkbox"
                  name="confirmAnonymous"
                  value="yes"
                  className="mt-0.5 size-4 shrink-0 accent-primary"
                />
                <span>I have checked the manuscript: submit it as it is.</span>
              </label>
            </AlertDescription>
          </Alert>
        ) : null}

        <div className="flex flex-wrap gap-3 border-t border-border pt-4">
          <Button type="submit" name="intent" value="submit" disabled={busy}>
            Submit Paper
          </Button>
          <Button type="submit" name="intent" value="save" variant="outline" disabled={busy}>
            Save Draft
          </Button>
          <p className="basis-full text-sm text-muted-foreground">
            Submissions to {call.title} close on {call.deadline} at 23:59 Nairobi time. A saved
            draft waits under My submissions on your profile.
          </p>
        </div>
      </Form>
    </Card>
  );
}
