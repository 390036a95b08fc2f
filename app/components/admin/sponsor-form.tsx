import { getFormProps, getInputProps, getSelectProps, useForm } from "@conform-to/react";
import { Form, Link } from "react-router";
import { Required, SaveButton, useFailureToast } from "~/components/admin/entity-form-parts";
import { FormErrorAlert } from "~/components/admin/form-error-alert";
import { ImageUploader } from "~/components/admin/image-uploader";
import { buttonVariants } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { Field, FieldErrors } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { NativeSelect } from "~/components/ui/native-select";
import { SPONSOR_TIERS, statusLabel } from "~/lib/constants";
import { useDeferredSchema } from "~/lib/deferred-validation";
import type { EntityActionData } from "~/models/shared/entity-actions.server";

export type SponsorFormDefaults = {
  name: string;
  tier: string;
  websiteUrl: string | null;
  logoUrl: string | null;
};

/** The sponsor form (spec §2.15, §5): name, tier (bronze by default), website and logo. */
export function SponsorForm({
  mode,
  defaultValue,
  actionData,
}: {
  mode: "create" | "edit";
  defaultValue?: SponsorFormDefaults;
  actionData?: EntityActionData;
}) {
  const validation = useDeferredSchema(
    async () => (await import("~/lib/forms/sponsor-schema")).SponsorFormSchema,
    "onSubmit",
  );
  const [form, fields] = useForm({
    id: "sponsor-form",
    lastResult: actionData?.result,
    defaultValue: {
      name: defaultValue?.name ?? "",
      tier: defaultValue?.tier ?? "bronze",
      websiteUrl: defaultValue?.websiteUrl ?? "",
      logoUrl: defaultValue?.logoUrl ?? "",
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
            label={
              <>
                Tier
                <Required />
              </>
            }
            htmlFor={fields.tier.id}
            errors={fields.tier.errors}
            errorId={fields.tier.errorId}
          >
            <NativeSelect {...getSelectProps(fields.tier)}>
              {SPONSOR_TIERS.map((tier) => (
                <option key={tier} value={tier}>
                  {statusLabel(tier)}
                </option>
              ))}
            </NativeSelect>
          </Field>
          <Field
            label="Website"
            htmlFor={fields.websiteUrl.id}
            errors={fields.websiteUrl.errors}
            errorId={fields.websiteUrl.errorId}
            hint="https://..."
          >
            <Input {...getInputProps(fields.websiteUrl, { type: "url" })} />
          </Field>
        </div>
        <div className="grid gap-2 sm:max-w-md">
          <ImageUploader
            key={fields.logoUrl.key}
            name={fields.logoUrl.name}
            label="Logo"
            defaultValue={
              typeof fields.logoUrl.initialValue === "string" ? fields.logoUrl.initialValue : ""
            }
            recommendation="Recommended: a logo on a white or transparent background"
          />
          <FieldErrors id={fields.logoUrl.errorId} errors={fields.logoUrl.errors} />
        </div>
        <div className="flex flex-wrap gap-3">
          <SaveButton mode={mode} label={mode === "create" ? "Create Sponsor" : "Update Sponsor"} />
          <Link to="/admin/sponsors" className={buttonVariants({ variant: "outline" })}>
            Cancel
          </Link>
        </div>
      </Form>
    </Card>
  );
}
