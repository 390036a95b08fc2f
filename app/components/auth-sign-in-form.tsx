import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { Form, useNavigation } from "react-router";
import { type AuthActionData, SubmitButton } from "~/components/auth-shared";
import { Link } from "~/components/link";
import { Alert, AlertDescription, AlertTitle } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { useDeferredValidation } from "~/lib/deferred-validation";
import { useFirstErrorFocus } from "./first-error-focus";

/** What getZodConstraint(SignInSchema) gives (auth-schemas.test.ts keeps them equal). */
export const SIGN_IN_CONSTRAINT = {
  intent: { required: true },
  email: { required: true },
  password: { required: true },
  redirectTo: { required: false },
};

export function SignInForm({
  actionData,
  redirectTo,
  forgotHref,
}: {
  actionData: AuthActionData | undefined;
  redirectTo: string;
  forgotHref: string;
}) {
  const navigation = useNavigation();
  const pendingIntent =
    navigation.state === "submitting" ? navigation.formData?.get("intent") : null;
  const lastResult = actionData?.intent === "sign-in" ? actionData.result : undefined;
  const validation = useDeferredValidation(
    async () => (await import("~/components/auth-validators")).validateSignIn,
  );
  const [form, fields] = useForm({
    id: "sign-in-form",
    lastResult,
    constraint: SIGN_IN_CONSTRAINT,
    ...validation,
  });
  useFirstErrorFocus(form.id, lastResult);
  const unverifiedEmail =
    actionData?.intent === "sign-in" || actionData?.intent === "resend-verification"
      ? actionData.unverifiedEmail
      : undefined;

  return (
    <div className="grid gap-4">
      <Form method="post" {...getFormProps(form)} className="grid gap-4">
        <input type="hidden" name="intent" value="sign-in" />
        <input type="hidden" name="redirectTo" value={redirectTo} />
        {form.errors?.length ? (
          <Alert variant="destructive" id={form.errorId}>
            <AlertTitle>Sign in failed</AlertTitle>
            {form.errors.map((error) => (
              <AlertDescription key={error}>{error}</AlertDescription>
            ))}
          </Alert>
        ) : null}
        <Field label="Email" htmlFor={fields.email.id} errors={fields.email.errors}>
          <Input
            {...getInputProps(fields.email, { type: "email" })}
            key={fields.email.key}
            autoComplete="username"
            placeholder="you@example.com"
          />
        </Field>
        <Field label="Password" htmlFor={fields.password.id} errors={fields.password.errors}>
          <Input
            {...getInputProps(fields.password, { type: "password" })}
            key={fields.password.key}
            autoComplete="current-password"
          />
        </Field>
        <div className="flex justify-end">
          <Link to={forgotHref} className="text-sm text-primary underline underline-offset-4">
            Forgot password?
          </Link>
        </div>
        <SubmitButton
          className="w-full"
          pending={pendingIntent === "sign-in"}
          label="Sign In"
          pendingLabel="Signing In..."
        />
      </Form>
      {unverifiedEmail ? (
        <Form method="post" className="grid gap-2 rounded-lg border border-border p-4 text-sm">
          <input type="hidden" name="intent" value="resend-verification" />
          <input type="hidden" name="email" value={unverifiedEmail} />
          <input type="hidden" name="redirectTo" value={redirectTo} />
          <p>Just signed up? Open the link in the verification email, or ask for a new one.</p>
          {actionData?.intent === "resend-verification" && actionData.done ? (
            <p role="status" className="font-medium text-green-700">
              If this address still needs verifying, a new link is on its way.
            </p>
          ) : null}
          <Button
            type="submit"
            variant="outline"
            aria-disabled={pendingIntent === "resend-verification" || undefined}
          >
            {pendingIntent === "resend-verification" ? "Sending..." : "Resend verification email"}
          </Button>
        </Form>
      ) : null}
    </div>
  );
}
