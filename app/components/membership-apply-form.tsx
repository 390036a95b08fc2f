import {
  getFormProps,
  getInputProps,
  getSelectProps,
  type SubmissionResult,
  useForm,
} from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Form, useNavigation } from "react-router";
import { Alert, AlertDescription } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { Field, FieldErrors, fieldWiring } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { NativeSelect } from "~/components/ui/native-select";
import { MembershipApplySchema, type MembershipApplyValues } from "./membership-apply-schema";

export type ApplyPlan = { id: string; name: string; priceLabel: string };

/** Plan, the person's details (pre-filled), organisation, student discount with proof. */
export function MembershipApplyForm({
  plans,
  defaults,
  email,
  lastResult,
  formError,
}: {
  plans: ApplyPlan[];
  defaults: { plan: string; memberName: string };
  email: string;
  lastResult?: SubmissionResult<string[]> | null;
  formError?: string | null;
}) {
  const navigation = useNavigation();
  const submitting = navigation.state === "submitting";
  const [form, fields] = useForm<MembershipApplyValues>({
    id: "membership-apply",
    lastResult: navigation.state === "idle" ? lastResult : undefined,
    defaultValue: defaults,
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: MembershipApplySchema }),
  });
  const corporate = fields.plan.value === "corporate";
  return (
    <Form
      method="post"
      encType="multipart/form-data"
      {...getFormProps(form)}
      className="grid gap-5"
    >
      {form.errors?.length || formError ? (
        <Alert variant="destructive" id={form.errorId}>
          <AlertDescription>
            {[...(form.errors ?? []), formError].filter(Boolean).join(" ")}
          </AlertDescription>
        </Alert>
      ) : null}
      <Field label="Plan" {...fieldWiring(fields.plan)}>
        <NativeSelect {...getSelectProps(fields.plan)}>
          {plans.map((plan) => (
            <option key={plan.id} value={plan.id}>
              {plan.name} — {plan.priceLabel} per year
            </option>
          ))}
        </NativeSelect>
      </Field>
      <Field
        label="Name on your membership card"
        {...fieldWiring(fields.memberName)}
        hint={`We write to you at ${email} (your account's e-mail address).`}
      >
        <Input {...getInputProps(fields.memberName, { type: "text" })} autoComplete="name" />
      </Field>
      <fieldset className="grid gap-4 rounded-lg border border-border p-4">
        <legend className="px-1 text-sm font-medium">
          {corporate ? "Organisation (required for Corporate)" : "Organisation (optional)"}
        </legend>
        <Field label="Organisation name" {...fieldWiring(fields.organisationName)}>
          <Input
            {...getInputProps(fields.organisationName, { type: "text" })}
            autoComplete="organization"
          />
        </Field>
        <Field label="KRA PIN or VAT number" {...fieldWiring(fields.taxId)}>
          <Input {...getInputProps(fields.taxId, { type: "text" })} />
        </Field>
        <Field label="Billing contact name" {...fieldWiring(fields.billingContactName)}>
          <Input {...getInputProps(fields.billingContactName, { type: "text" })} />
        </Field>
        <Field
          label="Billing contact e-mail"
          {...fieldWiring(fields.billingContactEmail)}
          hint="Invoices and renewal reminders go here; leave empty to use your own address."
        >
          <Input
            {...getInputProps(fields.billingContactEmail, { type: "email" })}
            autoComplete="email"
          />
        </Field>
      </fieldset>
      {corporate ? null : (
        <fieldset className="grid gap-3 rounded-lg border border-border p-4">
          <legend className="px-1 text-sm font-medium">Student discount (50%)</legend>
          <div className="flex items-start gap-2">
            <input
              {...getInputProps(fields.student, { type: "checkbox" })}
              className="mt-1 size-4 accent-primary"
            />
            <label htmlFor={fields.student.id} className="text-sm">
              I am a student and attach proof (student card or enrolment letter). Our staff check it
              before the invoice is issued.
            </label>
          </div>
          <FieldErrors id={fields.student.errorId} errors={fields.student.errors} />
          <Field
            label="Proof of student status (PDF, JPG, PNG or WEBP, max 5 MB)"
            htmlFor="studentProof"
          >
            <Input
              id="studentProof"
              name="studentProof"
              type="file"
              accept=".pdf,image/jpeg,image/png,image/webp"
            />
          </Field>
        </fieldset>
      )}
      <Button type="submit" size="lg" disabled={submitting}>
        {submitting ? "Submitting..." : "Submit Application"}
      </Button>
      <p className="text-sm text-muted-foreground">
        You receive an invoice by e-mail (M-Pesa or bank transfer); your membership starts the day
        it is paid and runs for one year. Nothing is charged automatically.
      </p>
    </Form>
  );
}
