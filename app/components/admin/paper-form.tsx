import {
  getFormProps,
  getInputProps,
  getSelectProps,
  getTextareaProps,
  useForm,
} from "@conform-to/react";
import { Form, Link } from "react-router";
import type { z } from "zod";
import { Required, SaveButton, useFailureToast } from "~/components/admin/entity-form-parts";
import { FormErrorAlert } from "~/components/admin/form-error-alert";
import { TagsInput } from "~/components/admin/tags-input";
import { FileText } from "~/components/icons";
import { buttonVariants } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { Field, FieldErrors } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { NativeSelect } from "~/components/ui/native-select";
import { Textarea } from "~/components/ui/textarea";
import { ADMIN_PAPER_STATUSES, type PAPER_STATUSES, statusLabel } from "~/lib/constants";
import { useDeferredSchema } from "~/lib/deferred-validation";
import type { PaperFormSchema } from "~/lib/forms/paper-schema";
import type { EntityActionData } from "~/models/shared/entity-actions.server";

type PaperStatus = (typeof PAPER_STATUSES)[number];

export type PaperFormDefaults = {
  title: string;
  authors: string[];
  abstract: string | null;
  category: string | null;
  tags: string[] | null;
  status: string;
  publishedDate: string | null;
  pdfUrl: string | null;
};

/**
 * The paper form (spec §2.15 'Paper form: a single form', §5): title, authors separated by
 * commas, abstract, category, tags, status, published date and the PDF — a file uploaded with
 * the form (checked by content on the server, 20 MB at most) or a link.
 */
export function PaperForm({
  mode,
  defaultValue,
  categories,
  actionData,
}: {
  mode: "create" | "edit";
  defaultValue?: PaperFormDefaults;
  categories: string[];
  actionData?: EntityActionData;
}) {
  // Stored values as the form shows them: authors as one comma-separated text, no nulls.
  const initial = defaultValue
    ? {
        title: defaultValue.title,
        status: defaultValue.status as PaperStatus,
        authors: defaultValue.authors.join(", "),
        tags: defaultValue.tags ?? [],
        abstract: defaultValue.abstract ?? "",
        category: defaultValue.category ?? "",
        publishedDate: defaultValue.publishedDate ?? "",
        pdfUrl: defaultValue.pdfUrl ?? "",
      }
    : { status: "draft" as const };
  const validation = useDeferredSchema<
    z.input<typeof PaperFormSchema>,
    z.output<typeof PaperFormSchema>
  >(async () => (await import("~/lib/forms/paper-schema")).PaperFormSchema, "onSubmit");
  const [form, fields] = useForm<z.input<typeof PaperFormSchema>, z.output<typeof PaperFormSchema>>(
    {
      id: "paper-form",
      lastResult: actionData?.result,
      defaultValue: initial,
      ...validation,
    },
  );
  useFailureToast(actionData);

  // A stored status outside the form's three (e.g. 'accepted') stays selectable, so saving
  // the form never changes it silently.
  const current = defaultValue?.status;
  const statuses: readonly string[] =
    current && !(ADMIN_PAPER_STATUSES as readonly string[]).includes(current)
      ? [...ADMIN_PAPER_STATUSES, current]
      : ADMIN_PAPER_STATUSES;
  const tagValues = fields.tags.initialValue;
  const initialTags = Array.isArray(tagValues)
    ? tagValues.filter((t): t is string => typeof t === "string")
    : typeof tagValues === "string"
      ? [tagValues]
      : [];
  const currentPdf = defaultValue?.pdfUrl;

  return (
    <Card className="p-6">
      <Form
        method="post"
        encType="multipart/form-data"
        {...getFormProps(form)}
        className="grid gap-5"
      >
        <FormErrorAlert
          title={actionData?.error?.title ?? ""}
          message={actionData?.error?.description}
          token={actionData}
        />
        <Field
          label={
            <>
              Title
              <Required />
            </>
          }
          htmlFor={fields.title.id}
          errors={fields.title.errors}
          errorId={fields.title.errorId}
        >
          <Input {...getInputProps(fields.title, { type: "text" })} />
        </Field>

        <Field
          label={
            <>
              Authors
              <Required />
            </>
          }
          htmlFor={fields.authors.id}
          errors={fields.authors.errors}
          errorId={fields.authors.errorId}
          hint="Separate authors with commas, e.g. Amina Wanjiru, Daniel Otieno"
        >
          <Input {...getInputProps(fields.authors, { type: "text" })} />
        </Field>

        <Field
          label="Abstract"
          htmlFor={fields.abstract.id}
          errors={fields.abstract.errors}
          errorId={fields.abstract.errorId}
        >
          <Textarea {...getTextareaProps(fields.abstract)} rows={6} />
        </Field>

        <div className="grid gap-5 sm:grid-cols-2">
          <Field
            label="Category"
            htmlFor={fields.category.id}
            errors={fields.category.errors}
            errorId={fields.category.errorId}
          >
            <Input
              {...getInputProps(fields.category, { type: "text" })}
              list="paper-category-suggestions"
              autoComplete="off"
            />
            <datalist id="paper-category-suggestions">
              {categories.map((category) => (
                <option key={category} value={category} />
              ))}
            </datalist>
          </Field>

          <Field
            label="Status"
            htmlFor={fields.status.id}
            errors={fields.status.errors}
            errorId={fields.status.errorId}
          >
            <NativeSelect {...getSelectProps(fields.status)}>
              {statuses.map((status) => (
                <option key={status} value={status}>
                  {statusLabel(status)}
                </option>
              ))}
            </NativeSelect>
          </Field>
        </div>

        <div className="grid gap-2">
          <Label htmlFor={fields.tags.id}>Tags</Label>
          <TagsInput
            id={fields.tags.id}
            name={fields.tags.name}
            defaultValue={initialTags}
            describedBy={`${fields.tags.id}-hint ${fields.tags.errorId}`}
            invalid={Boolean(fields.tags.errors?.length)}
          />
          <p id={`${fields.tags.id}-hint`} className="text-xs text-muted-foreground">
            Press Enter to add a tag; Backspace in the empty box removes the last one.
          </p>
          <FieldErrors id={fields.tags.errorId} errors={fields.tags.errors} />
        </div>

        <Field
          label="Published Date"
          htmlFor={fields.publishedDate.id}
          errors={fields.publishedDate.errors}
          errorId={fields.publishedDate.errorId}
          hint="Left empty, a paper saved as Published is dated today."
          className="sm:max-w-xs"
        >
          <Input {...getInputProps(fields.publishedDate, { type: "date" })} />
        </Field>

        <fieldset className="grid gap-4 rounded-lg border border-border p-4">
          <legend className="px-1 text-sm font-medium">PDF</legend>
          {currentPdf ? (
            <p className="flex items-center gap-2 text-sm">
              <FileText aria-hidden className="size-4 text-muted-foreground" />
              <a
                href={currentPdf}
                target="_blank"
                rel="noopener noreferrer"
                className="text-primary underline underline-offset-4"
              >
                Current PDF
              </a>
            </p>
          ) : null}
          <Field
            label="Upload a PDF"
            htmlFor={fields.pdfFile.id}
            errors={fields.pdfFile.errors}
            errorId={fields.pdfFile.errorId}
            hint="PDF (max 20MB). An uploaded file replaces the link below."
          >
            <Input
              {...getInputProps(fields.pdfFile, { type: "file" })}
              accept="application/pdf,.pdf"
              className="h-auto py-1.5 file:mr-3 file:rounded file:border-0 file:bg-muted file:px-3 file:py-1 file:text-sm file:font-medium"
            />
          </Field>
          <Field
            label="Or a link to the PDF"
            htmlFor={fields.pdfUrl.id}
            errors={fields.pdfUrl.errors}
            errorId={fields.pdfUrl.errorId}
            hint="https://... Leave both empty for no PDF."
          >
            <Input {...getInputProps(fields.pdfUrl, { type: "text" })} inputMode="url" />
          </Field>
        </fieldset>

        <div className="flex flex-wrap gap-3">
          <SaveButton mode={mode} label={mode === "create" ? "Create Paper" : "Update Paper"} />
          <Link to="/admin/papers" className={buttonVariants({ variant: "outline" })}>
            Cancel
          </Link>
        </div>
      </Form>
    </Card>
  );
}
