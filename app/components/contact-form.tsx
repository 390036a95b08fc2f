import {
  getFormProps,
  getInputProps,
  getSelectProps,
  getTextareaProps,
  parse,
  type SubmissionResult,
  useForm,
} from "@conform-to/react";
import { useEffect } from "react";
import { Form, useNavigation } from "react-router";
import { CheckCircle2, Send } from "~/components/icons";
import { Alert, AlertDescription, AlertTitle } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { NativeSelect } from "~/components/ui/native-select";
import { Textarea } from "~/components/ui/textarea";
import { CONTACT_REGIONS } from "~/lib/constants";
import {
  CONTACT_LIMITS,
  CONTACT_SUCCESS,
  checkContactFields,
  HONEYPOT_FIELD,
  NO_REGION,
} from "~/lib/forms/contact-form-rules";
import { notify } from "~/lib/notify";
import { useFirstErrorFocus } from "./first-error-focus";

// The browser checks the form with the same rules and messages as the action's Zod schema
// (contact-form-rules.ts) without shipping Zod to this public page (JS budget, design.md §5).
const constraint = {
  name: { required: true, maxLength: CONTACT_LIMITS.name },
  email: { required: true, maxLength: CONTACT_LIMITS.email },
  subject: { required: true, maxLength: CONTACT_LIMITS.subject },
  message: { required: true, maxLength: CONTACT_LIMITS.message },
  region: { required: false },
};

type ContactFields = {
  name: string;
  email: string;
  subject: string;
  message: string;
  region?: string;
  [HONEYPOT_FIELD]?: string;
};

export type ContactActionData = {
  result: SubmissionResult<string[]>;
  outcome: "sent" | "invalid" | "rate-limited" | "failed";
};

export function ContactForm({
  defaultSubject,
  sender,
  actionData,
}: {
  defaultSubject: string;
  /** A signed-in person's name and e-mail, filled in for them (still editable). */
  sender?: { name: string; email: string } | null;
  actionData: ContactActionData | undefined;
}) {
  const navigation = useNavigation();
  const sending = navigation.state === "submitting" && navigation.formMethod === "POST";
  const [form, fields] = useForm({
    id: "contact-form",
    lastResult: actionData?.result,
    defaultValue: {
      subject: defaultSubject,
      region: NO_REGION,
      name: sender?.name ?? "",
      email: sender?.email ?? "",
    },
    constraint,
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) =>
      parse<ContactFields, string[]>(formData, {
        resolve: (payload) => {
          const error = checkContactFields(payload);
          return error ? { error } : { value: payload as ContactFields };
        },
      }),
  });
  useFirstErrorFocus(form.id, actionData?.result);
  const sent = actionData?.outcome === "sent";

  useEffect(() => {
    if (actionData?.outcome === "sent") {
      notify("success", CONTACT_SUCCESS.title, { description: CONTACT_SUCCESS.description });
    }
  }, [actionData]);

  return (
    <Form method="post" {...getFormProps(form)} className="grid gap-5">
      {sent ? (
        <Alert variant="success" role="status">
          <AlertTitle className="flex items-center gap-2">
            <CheckCircle2 aria-hidden className="size-4" /> {CONTACT_SUCCESS.title}
          </AlertTitle>
          <AlertDescription>{CONTACT_SUCCESS.description}</AlertDescription>
        </Alert>
      ) : null}
      {form.errors?.length ? (
        <Alert variant="destructive" id={form.errorId}>
          <AlertTitle>Your message was not sent</AlertTitle>
          {form.errors.map((error) => (
            <AlertDescription key={error}>{error}</AlertDescription>
          ))}
        </Alert>
      ) : null}

      <div className="grid gap-5 sm:grid-cols-2">
        <Field label="Name" htmlFor={fields.name.id} errors={fields.name.errors}>
          <Input
            {...getInputProps(fields.name, { type: "text" })}
            key={fields.name.key}
            autoComplete="name"
          />
        </Field>
        <Field label="Email" htmlFor={fields.email.id} errors={fields.email.errors}>
          <Input
            {...getInputProps(fields.email, { type: "email" })}
            key={fields.email.key}
            autoComplete="email"
          />
        </Field>
      </div>
      <Field label="Subject" htmlFor={fields.subject.id} errors={fields.subject.errors}>
        <Input {...getInputProps(fields.subject, { type: "text" })} key={fields.subject.key} />
      </Field>
      <Field
        label={
          <>
            Region <span className="font-normal text-muted-foreground">(optional)</span>
          </>
        }
        htmlFor={fields.region.id}
        errors={fields.region.errors}
      >
        <NativeSelect {...getSelectProps(fields.region)} key={fields.region.key}>
          <option value={NO_REGION}>Select a region</option>
          {CONTACT_REGIONS.map((region) => (
            <option key={region.value} value={region.value}>
              {region.label}
            </option>
          ))}
        </NativeSelect>
      </Field>
      <Field label="Message" htmlFor={fields.message.id} errors={fields.message.errors}>
        <Textarea {...getTextareaProps(fields.message)} key={fields.message.key} rows={6} />
      </Field>

      {/* Honeypot: off-screen and out of the tab order; a filled-in value marks a bot. */}
      <div aria-hidden="true" className="absolute -left-[10000px] h-px w-px overflow-hidden">
        <label htmlFor="contact-website">Website (leave this field empty)</label>
        <input
          id="contact-website"
          type="text"
          name={HONEYPOT_FIELD}
          tabIndex={-1}
          autoComplete="off"
          defaultValue=""
        />
      </div>

      <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <p className="text-sm text-muted-foreground">We'll get back to you within 24 hours.</p>
        <Button type="submit" size="lg" disabled={sending}>
          <Send aria-hidden />
          {sending ? "Sending..." : "Send Message"}
        </Button>
      </div>
    </Form>
  );
}
