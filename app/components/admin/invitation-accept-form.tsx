import { getFormProps, getInputProps, type SubmissionResult, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Form, useNavigation } from "react-router";
import { PasswordStrengthMeter } from "~/components/password-strength-meter";
import { Alert, AlertDescription } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { useTypedValue } from "~/lib/use-typed-value";
import { AcceptInvitationSchema } from "./invitation-schema";

/** Creating the invited account: the e-mail comes from the invitation and cannot be changed. */
export function InvitationAcceptForm({
  email,
  lastResult,
}: {
  email: string;
  lastResult?: SubmissionResult<string[]>;
}) {
  const navigation = useNavigation();
  const creating = navigation.state === "submitting";
  const { value: password, inputProps: passwordInput } = useTypedValue();
  const [form, fields] = useForm({
    id: "accept-invitation-form",
    lastResult: navigation.state === "idle" ? lastResult : undefined,
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: AcceptInvitationSchema }),
  });
  const meterId = "invite-password-strength";

  return (
    <Form method="post" {...getFormProps(form)} className="grid gap-4">
      {form.errors?.length ? (
        <Alert variant="destructive" id={form.errorId}>
          <AlertDescription>{form.errors.join(" ")}</AlertDescription>
        </Alert>
      ) : null}
      <Field label="Email" htmlFor="invite-email" hint="The address this invitation was sent to.">
        <Input id="invite-email" type="email" value={email} readOnly aria-readonly="true" />
      </Field>
      <Field
        label="Full name"
        htmlFor={fields.fullName.id}
        errors={fields.fullName.errors}
        errorId={fields.fullName.errorId}
      >
        <Input {...getInputProps(fields.fullName, { type: "text" })} autoComplete="name" />
      </Field>
      <Field
        label="Password"
        htmlFor={fields.password.id}
        errors={fields.password.errors}
        errorId={fields.password.errorId}
        hint="At least 8 characters."
      >
        <Input
          {...getInputProps(fields.password, { type: "password" })}
          autoComplete="new-password"
          aria-describedby={[fields.password.errors ? fields.password.errorId : null, meterId]
            .filter(Boolean)
            .join(" ")}
          {...passwordInput}
        />
      </Field>
      <PasswordStrengthMeter password={password} id={meterId} />
      <Field
        label="Confirm password"
        htmlFor={fields.confirmPassword.id}
        errors={fields.confirmPassword.errors}
        errorId={fields.confirmPassword.errorId}
      >
        <Input
          {...getInputProps(fields.confirmPassword, { type: "password" })}
          autoComplete="new-password"
        />
      </Field>
      <Button type="submit" disabled={creating}>
        {creating ? "Creating Account..." : "Create Account"}
      </Button>
    </Form>
  );
}
