import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { Form, useNavigation } from "react-router";
import { type AuthActionData, SubmitButton } from "~/components/auth-shared";
import { MailCheck } from "~/components/icons";
import { Link } from "~/components/link";
import { Alert, AlertDescription, AlertTitle } from "~/components/ui/alert";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { useDeferredValidation } from "~/lib/deferred-validation";

/** What getZodConstraint(ForgotPasswordSchema) gives (auth-schemas.test.ts keeps them equal). */
export const FORGOT_PASSWORD_CONSTRAINT = { intent: { required: true }, email: { required: true } };

export const RESET_MAIL_SENT =
  "If an account exists for that address, we have sent it a link to choose a new password. The link works once and expires in one hour.";

/** 'Forgot password?' on the Sign In tab: the same answer whether or not the account exists. */
export function ForgotPasswordForm({
  actionData,
  backHref,
}: {
  actionData: AuthActionData | undefined;
  backHref: string;
}) {
  const navigation = useNavigation();
  const pending =
    navigation.state === "submitting" && navigation.formData?.get("intent") === "forgot-password";
  const mine = actionData?.intent === "forgot-password" ? actionData : undefined;
  const validation = useDeferredValidation(
    async () => (await import("~/components/auth-validators")).validateForgotPassword,
  );
  const [form, fields] = useForm({
    id: "forgot-password-form",
    lastResult: mine?.result,
    constraint: FORGOT_PASSWORD_CONSTRAINT,
    ...validation,
  });

  return (
    <div className="grid gap-4">
      <div className="grid gap-1">
        <h2 className="text-lg font-semibold">Reset your password</h2>
        <p className="text-sm text-muted-foreground">
          Enter the email address of your account and we will send you a link to choose a new
          password.
        </p>
      </div>
      {mine?.done ? (
        <Alert variant="success" role="status">
          <AlertTitle className="flex items-center gap-2">
            <MailCheck aria-hidden className="size-4" /> Check your email
          </AlertTitle>
          <AlertDescription>{RESET_MAIL_SENT}</AlertDescription>
        </Alert>
      ) : (
        <Form method="post" {...getFormProps(form)} className="grid gap-4">
          <input type="hidden" name="intent" value="forgot-password" />
          {form.errors?.length ? (
            <Alert variant="destructive" id={form.errorId}>
              {form.errors.map((error) => (
                <AlertDescription key={error}>{error}</AlertDescription>
              ))}
            </Alert>
          ) : null}
          <Field label="Email" htmlFor={fields.email.id} errors={fields.email.errors}>
            <Input
              {...getInputProps(fields.email, { type: "email" })}
              key={fields.email.key}
              autoComplete="email"
            />
          </Field>
          <SubmitButton
            className="w-full"
            pending={pending}
            label="Send reset link"
            pendingLabel="Sending..."
          />
        </Form>
      )}
      <Link to={backHref} className="text-sm text-primary underline underline-offset-4">
        Back to sign in
      </Link>
    </div>
  );
}
