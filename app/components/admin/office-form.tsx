import {
  getFormProps,
  getInputProps,
  getSelectProps,
  getTextareaProps,
  useForm,
} from "@conform-to/react";
import { Form, Link } from "react-router";
import { Required, SaveButton, useFailureToast } from "~/components/admin/entity-form-parts";
import { FormErrorAlert } from "~/components/admin/form-error-alert";
import { TagsInput } from "~/components/admin/tags-input";
import { buttonVariants } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { Field, FieldErrors } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { NativeSelect } from "~/components/ui/native-select";
import { Textarea } from "~/components/ui/textarea";
import { OFFICE_STATUSES, statusLabel } from "~/lib/constants";
import { useDeferredSchema } from "~/lib/deferred-validation";
import type { EntityActionData } from "~/models/shared/entity-actions.server";

export type OfficeFormDefaults = {
  region: string;
  city: string;
  country: string;
  address: string | null;
  email: string | null;
  phone: string | null;
  latitude: number | null;
  longitude: number | null;
  openingHours: string | null;
  services: string[] | null;
  status: string;
};

/** What staff see as suggestions for services (free text is accepted too). */
const SERVICE_SUGGESTIONS = ["Conferences", "Training", "Consulting", "Membership desk"];

/** The office form (spec §2.15, §5), admin only. */
export function OfficeForm({
  mode,
  defaultValue,
  regions,
  actionData,
}: {
  mode: "create" | "edit";
  defaultValue?: OfficeFormDefaults;
  /** Regions other offices use, offered as suggestions. */
  regions: string[];
  actionData?: EntityActionData;
}) {
  const validation = useDeferredSchema(
    async () => (await import("~/lib/forms/office-schema")).OfficeFormSchema,
    "onSubmit",
  );
  const [form, fields] = useForm({
    id: "office-form",
    lastResult: actionData?.result,
    defaultValue: {
      region: defaultValue?.region ?? "",
      city: defaultValue?.city ?? "",
      country: defaultValue?.country ?? "",
      address: defaultValue?.address ?? "",
      email: defaultValue?.email ?? "",
      phone: defaultValue?.phone ?? "",
      latitude: defaultValue?.latitude != null ? String(defaultValue.latitude) : "",
      longitude: defaultValue?.longitude != null ? String(defaultValue.longitude) : "",
      openingHours: defaultValue?.openingHours ?? "",
      services: defaultValue?.services ?? [],
      status: defaultValue?.status ?? "active",
    },
    ...validation,
  });
  useFailureToast(actionData);
  const serviceValues = fields.services.initialValue;
  const initialServices = Array.isArray(serviceValues)
    ? serviceValues.filter((s): s is string => typeof s === "string")
    : typeof serviceValues === "string"
      ? [serviceValues]
      : [];

  return (
    <Card className="p-6">
      <Form method="post" {...getFormProps(form)} className="grid gap-5">
        <FormErrorAlert
          title={actionData?.error?.title ?? ""}
          message={actionData?.error?.description}
          token={actionData}
        />
        <div className="grid gap-5 sm:grid-cols-3">
          <Field
            label={
              <>
                Region
                <Required />
              </>
            }
            htmlFor={fields.region.id}
            errors={fields.region.errors}
            errorId={fields.region.errorId}
          >
            <Input
              {...getInputProps(fields.region, { type: "text" })}
              list="office-region-suggestions"
              autoComplete="off"
            />
            <datalist id="office-region-suggestions">
              {regions.map((region) => (
                <option key={region} value={region} />
              ))}
            </datalist>
          </Field>
          <Field
            label={
              <>
                City
                <Required />
              </>
            }
            htmlFor={fields.city.id}
            errors={fields.city.errors}
            errorId={fields.city.errorId}
          >
            <Input {...getInputProps(fields.city, { type: "text" })} />
          </Field>
          <Field
            label={
              <>
                Country
                <Required />
              </>
            }
            htmlFor={fields.country.id}
            errors={fields.country.errors}
            errorId={fields.country.errorId}
          >
            <Input {...getInputProps(fields.country, { type: "text" })} />
          </Field>
        </div>
        <Field
          label="Address"
          htmlFor={fields.address.id}
          errors={fields.address.errors}
          errorId={fields.address.errorId}
        >
          <Textarea {...getTextareaProps(fields.address)} rows={2} />
        </Field>
        <div className="grid gap-5 sm:grid-cols-2">
          <Field
            label="Email"
            htmlFor={fields.email.id}
            errors={fields.email.errors}
            errorId={fields.email.errorId}
          >
            <Input {...getInputProps(fields.email, { type: "email" })} autoComplete="off" />
          </Field>
          <Field
            label="Phone"
            htmlFor={fields.phone.id}
            errors={fields.phone.errors}
            errorId={fields.phone.errorId}
          >
            <Input {...getInputProps(fields.phone, { type: "tel" })} autoComplete="off" />
          </Field>
        </div>
        <div className="grid gap-5 sm:grid-cols-3">
          <Field
            label="Latitude"
            htmlFor={fields.latitude.id}
            errors={fields.latitude.errors}
            errorId={fields.latitude.errorId}
            hint="Decimal degrees, e.g. -1.2921"
          >
            <Input {...getInputProps(fields.latitude, { type: "text" })} inputMode="decimal" />
          </Field>
          <Field
            label="Longitude"
            htmlFor={fields.longitude.id}
            errors={fields.longitude.errors}
            errorId={fields.longitude.errorId}
            hint="Decimal degrees, e.g. 36.8219"
          >
            <Input {...getInputProps(fields.longitude, { type: "text" })} inputMode="decimal" />
          </Field>
          <Field
            label="Status"
            htmlFor={fields.status.id}
            errors={fields.status.errors}
            errorId={fields.status.errorId}
          >
            <NativeSelect {...getSelectProps(fields.status)}>
              {OFFICE_STATUSES.map((status) => (
                <option key={status} value={status}>
                  {statusLabel(status)}
                </option>
              ))}
            </NativeSelect>
          </Field>
        </div>
        <div className="grid gap-5 sm:grid-cols-2">
          <Field
            label="Opening hours"
            htmlFor={fields.openingHours.id}
            errors={fields.openingHours.errors}
            errorId={fields.openingHours.errorId}
            hint="One span a line, with the local time zone, e.g. Mon–Fri 08:00–18:00 EAT"
          >
            <Textarea
              {...getTextareaProps(fields.openingHours)}
              rows={3}
              placeholder={"Mon–Fri 08:00–18:00 EAT\nSat 09:00–13:00 EAT"}
            />
          </Field>
          <div className="grid content-start gap-2">
            <Label htmlFor={fields.services.id}>Services</Label>
            <TagsInput
              id={fields.services.id}
              name={fields.services.name}
              defaultValue={initialServices}
              placeholder="Type a service and press Enter"
              listLabel="Selected services"
              removeLabel="Remove service"
              describedBy={`${fields.services.id}-hint ${fields.services.errorId}`}
              invalid={Boolean(fields.services.errors?.length)}
            />
            <p id={`${fields.services.id}-hint`} className="text-xs text-muted-foreground">
              Shown as badges on the office card, e.g. {SERVICE_SUGGESTIONS.join(", ")}. Press Enter
              to add one; Backspace in the empty box removes the last one.
            </p>
            <FieldErrors id={fields.services.errorId} errors={fields.services.errors} />
          </div>
        </div>
        <div className="flex flex-wrap gap-3">
          <SaveButton mode={mode} label={mode === "create" ? "Create Office" : "Update Office"} />
          <Link to="/admin/offices" className={buttonVariants({ variant: "outline" })}>
            Cancel
          </Link>
        </div>
      </Form>
    </Card>
  );
}
