import { getFormProps, getInputProps, getTextareaProps, useForm } from "@conform-to/react";
import { Form, Link } from "react-router";
import { Required, SaveButton, useFailureToast } from "~/components/admin/entity-form-parts";
import { FormErrorAlert } from "~/components/admin/form-error-alert";
import { ImageUploader } from "~/components/admin/image-uploader";
import { buttonVariants } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { Field, FieldErrors } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { Textarea } from "~/components/ui/textarea";
import { useDeferredSchema } from "~/lib/deferred-validation";
import type { EntityActionData } from "~/models/shared/entity-actions.server";

export type SpeakerFormDefaults = {
  name: string;
  title: string | null;
  organization: string | null;
  bio: string | null;
  imageUrl: string | null;
};

/** The speaker form (spec §2.15, §5): name (required), title, organisation, bio and a photo. */
export function SpeakerForm({
  mode,
  defaultValue,
  actionData,
}: {
  mode: "create" | "edit";
  defaultValue?: SpeakerFormDefaults;
  actionData?: EntityActionData;
}) {
  const validation = useDeferredSchema(
    async () => (await import("~/lib/forms/speaker-schema")).SpeakerFormSchema,
    "onSubmit",
  );
  const [form, fields] = useForm({
    id: "speaker-form",
    lastResult: actionData?.result,
    defaultValue: {
      name: defaultValue?.name ?? "",
      title: defaultValue?.title ?? "",
      organization: defaultValue?.organization ?? "",
      bio: defaultValue?.bio ?? "",
      imageUrl: defaultValue?.imageUrl ?? "",
    },
    ...validation,
  });
  useFailureToast(actionData);

  return (
    <Card className="p-6">
      <Form method="post" {...getFormProps(form)} className="grid gap-5">
        <FormErrorAlert
          title={actionData?.error?.title ?? ""}
          message={actionData?.error?.description}
          token={actionData}
        />
        <Field
          label={
            <>
              Name
              <Required />
            </>
          }
          htmlFor={fields.name.id}
          errors={fields.name.errors}
          errorId={fields.name.errorId}
        >
          <Input {...getInputProps(fields.name, { type: "text" })} autoComplete="off" />
        </Field>
        <div className="grid gap-5 sm:grid-cols-2">
          <Field
            label="Title"
            htmlFor={fields.title.id}
            errors={fields.title.errors}
            errorId={fields.title.errorId}
            hint="e.g. Chief Data Officer"
          >
            <Input {...getInputProps(fields.title, { type: "text" })} />
          </Field>
          <Field
            label="Organization"
            htmlFor={fields.organization.id}
            errors={fields.organization.errors}
            errorId={fields.organization.errorId}
          >
            <Input {...getInputProps(fields.organization, { type: "text" })} />
          </Field>
        </div>
        <Field
          label="Bio"
          htmlFor={fields.bio.id}
          errors={fields.bio.errors}
          errorId={fields.bio.errorId}
        >
          <Textarea {...getTextareaProps(fields.bio)} rows={5} />
        </Field>
        <div className="grid gap-2 sm:max-w-md">
          <ImageUploader
            key={fields.imageUrl.key}
            name={fields.imageUrl.name}
            label="Photo"
            defaultValue={
              typeof fields.imageUrl.initialValue === "string" ? fields.imageUrl.initialValue : ""
            }
            recommendation="Recommended: a square photo, at least 400x400px"
          />
          <FieldErrors id={fields.imageUrl.errorId} errors={fields.imageUrl.errors} />
        </div>
        <div className="flex flex-wrap gap-3">
          <SaveButton mode={mode} label={mode === "create" ? "Create Speaker" : "Update Speaker"} />
          <Link to="/admin/speakers" className={buttonVariants({ variant: "outline" })}>
            Cancel
          </Link>
        </div>
      </Form>
    </Card>
  );
}
