import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { CheckCircle2 } from "lucide-react";
import { useState } from "react";
import { Form, useNavigation } from "react-router";
import { z } from "zod";
import { type AuthActionData, SubmitButton } from "~/components/auth-shared";
import { emailField } from "~/components/auth-sign-in-form";
import { PasswordStrengthMeter } from "~/components/password-strength-meter";
import { Alert, AlertDescription, AlertTitle } from "~/components/ui/alert";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";

export const SIGN_UP_SUCCESS = {
  title: "Account created!",
  description: "Please check your email to verify your account.",
} as const;

/**
 * Sign-up (spec §5): all four fields required. No rule here compares the passwords: when they
 * differ the submission stops silently (no message, no call), see `onSubmit` and the action.
 * The server's minimum length (8) is enforced by better-auth, never by the advisory meter.
 */
export const SignUpSchema = z.object({
  intent: z.literal("sign-up"),
  fullName: z
    .string({ error: "Full name is required" })
    .trim()
    .min(1, "Full name is required")
    .max(100, "Full name must be at most 100 characters"),
  email: emailField,
  password: z.string({ error: "Password is required" }).min(1, "Password is required"),
  confirmPassword: z
    .string({ error: "Please confirm your password" })
    .min(1, "Please confirm your password"),
  plan: z.string().optional(),
});

function describedBy(...ids: (string | null)[]) {
  return ids.filter(Boolean).join(" ");
}

export function SignUpForm({
  actionData,
  plan,
}: {
  actionData: AuthActionData | undefined;
  plan: string | null;
}) {
  const navigation = useNavigation();
  const pending =
    navigation.state === "submitting" && navigation.formData?.get("intent") === "sign-up";
  const mine = actionData?.intent === "sign-up" ? actionData : undefined;
  const [password, setPassword] = useState("");
  const [form, fields] = useForm({
    id: "sign-up-form",
    lastResult: mine?.result,
    constraint: getZodConstraint(SignUpSchema),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: SignUpSchema }),
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
          onChange={(event) => setPassword(event.currentTarget.value)}
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
