import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { Form, useNavigation } from "react-router";
import { type AuthActionData, SIGN_UP_SUCCESS, SubmitButton } from "~/components/auth-shared";
import { CheckCircle2 } from "~/components/icons";
import { PasswordStrengthMeter } from "~/components/password-strength-meter";
import { Alert, AlertDescription, AlertTitle } from "~/components/ui/alert";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { useDeferredValidation } from "~/lib/deferred-validation";
import { useTypedValue } from "~/lib/use-typed-value";

/** What getZodConstraint(SignUpSchema) gives (auth-schemas.test.ts keeps them equal). */
export const SIGN_UP_CONSTRAINT = {
  intent: { required: true },
  fullName: { required: true },
  email: { required: true },
  password: { required: true },
  confirmPassword: { required: true },
  plan: { required: false },
  redirectTo: { required: false },
};

function describedBy(...ids: (string | null)[]) {
  return ids.filter(Boolean).join(" ");
}

export function SignUpForm({
  actionData,
  plan,
  redirectTo,
}: {
  actionData: AuthActionData | undefined;
  plan: string | null;
  /** Where the verification link brings them back to. */
  redirectTo: string;
}) {
  const navigation = useNavigation();
  const pending =
    navigation.state === "submitting" && navigation.formData?.get("intent") === "sign-up";
  const mine = actionData?.intent === "sign-up" ? actionData : undefined;
  const { value: password, inputProps: passwordInput } = useTypedValue();
  const validation = useDeferredValidation(
    async () => (await import("~/components/auth-validators")).validateSignUp,
  );
  const [form, fields] = useForm({
    id: "sign-up-form",
    lastResult: mine?.result,
    constraint: SIGN_UP_CONSTRAINT,
    ...validation,
    onSubmit(event, { formData }) {
      // Spec §5: differing passwords stop the submission silently.
      if (formData.get("password") !== formData.get("confirmPassword")) event.preventDefault();
    },
  });

  if (mine?.done) {
    return (
      <Alert variant="success" role="status">
        <AlertTitle className="flex items-center gap-2">
          <CheckCircle2 aria-hidden className="size-4" /> {SIGN_UP_SUCCESS.title}
        </AlertTitle>
        <AlertDescription>{SIGN_UP_SUCCESS.description}</AlertDescription>
      </Alert>
    );
  }

  return (
    <Form method="post" {...getFormProps(form)} className="grid gap-4">
      <input type="hidden" name="intent" value="sign-up" />
      {plan ? <input type="hidden" name="plan" value={plan} /> : null}
      <input type="hidden" name="redirectTo" value={redirectTo} />
      {form.errors?.length ? (
        <Alert variant="destructive" id={form.errorId}>
          <AlertTitle>Sign up failed</AlertTitle>
          {form.errors.map((error) => (
            <AlertDescription key={error}>{error}</AlertDescription>
          ))}
        </Alert>
      ) : null}
      <Field label="Full Name" htmlFor={fields.fullName.id} errors={fields.fullName.errors}>
        <Input
          {...getInputProps(fields.fullName, { type: "text" })}
          key={fields.fullName.key}
          autoComplete="name"
        />
      </Field>
      <Field label="Email" htmlFor={fields.email.id} errors={fields.email.errors}>
        <Input
          {...getInputProps(fields.email, { type: "email" })}
          key={fields.email.key}
          autoComplete="email"
          placeholder="you@example.com"
        />
      </Field>
      <Field label="Password" htmlFor={fields.password.id} errors={fields.password.errors}>
        <Input
          {...getInputProps(fields.password, { type: "password" })}
          key={fields.password.key}
          autoComplete="new-password"
          aria-describedby={describedBy(
            fields.password.errors ? fields.password.errorId : null,
            `${fields.password.id}-strength`,
          )}
          {...passwordInput}
        />
      </Field>
      <PasswordStrengthMeter password={password} id={`${fields.password.id}-strength`} />
      <Field
        label="Confirm Password"
        htmlFor={fields.confirmPassword.id}
        errors={fields.confirmPassword.errors}
      >
        <Input
          {...getInputProps(fields.confirmPassword, { type: "password" })}
          key={fields.confirmPassword.key}
          autoComplete="new-password"
        />
      </Field>
      <SubmitButton
        className="w-full"
        pending={pending}
        label="Create Account"
        pendingLabel="Creating Account..."
      />
    </Form>
  );
}
