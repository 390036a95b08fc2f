import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { data, Form, Link, useNavigation } from "react-router";
import { z } from "zod";
import { type AuthActionData, SubmitButton, useAuthToast } from "~/components/auth-shared";
import { ArrowLeft } from "~/components/icons";
import { PasswordStrengthMeter } from "~/components/password-strength-meter";
import { Alert, AlertDescription, AlertTitle } from "~/components/ui/alert";
import { Card, CardContent, CardDescription, CardHeader } from "~/components/ui/card";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { authErrorMessage, authErrorStatus, getAuth } from "~/lib/auth.server";
import { PASSWORD_MIN_LENGTH } from "~/lib/password-strength";
import { pageMeta } from "~/lib/seo";
import { redirectWithToast } from "~/lib/toast.server";
import { useTypedValue } from "~/lib/use-typed-value";
import type { Route } from "./+types/reset-password";

export const ResetPasswordSchema = z
  .object({
    token: z.string({ error: "This link is invalid" }).min(1, "This link is invalid"),
    password: z
      .string({ error: "Password is required" })
      .min(
        PASSWORD_MIN_LENGTH,
        `Password must be at least ${PASSWORD_MIN_LENGTH} characters long.`,
      ),
    confirmPassword: z
      .string({ error: "Please confirm your password" })
      .min(1, "Please confirm your password"),
  })
  .refine((v) => v.password === v.confirmPassword, {
    path: ["confirmPassword"],
    message: "Passwords do not match.",
  });

export const meta: Route.MetaFunction = ({ loaderData }) =>
  pageMeta({
    title: "Choose a new password",
    description: "Reset the password of your Kongamano account.",
    origin: loaderData?.origin ?? "",
    path: "/auth/reset-password",
    noindex: true,
  });

export function loader({ request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const token = url.searchParams.get("token");
  return {
    origin: url.origin,
    token: token && !url.searchParams.has("error") ? token : null,
  };
}

export async function action({ request }: Route.ActionArgs) {
  const formData = await request.formData();
  const submission = parseWithZod(formData, { schema: ResetPasswordSchema });
  const hideFields = ["password", "confirmPassword"];
  if (submission.status !== "success") {
    return data<AuthActionData>(
      { intent: "reset-password", result: submission.reply({ hideFields }) },
      { status: 400 },
    );
  }
  try {
    await getAuth().api.resetPassword({
      body: { token: submission.value.token, newPassword: submission.value.password },
      headers: request.headers,
    });
  } catch (error) {
    const message = authErrorMessage(error);
    return data<AuthActionData>(
      {
        intent: "reset-password",
        result: submission.reply({ formErrors: [message], hideFields }),
        toast: { type: "error", title: "Password reset failed", description: message },
      },
      { status: authErrorStatus(error) },
    );
  }
  return redirectWithToast("/auth", {
    type: "success",
    title: "Password updated",
    description: "Your password has been changed. Please sign in with your new password.",
  });
}

export default function ResetPasswordPage({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  useAuthToast(actionData);
  const { value: password, inputProps: passwordInput } = useTypedValue();
  const [form, fields] = useForm({
    id: "reset-password-form",
    lastResult: actionData?.result,
    constraint: getZodConstraint(ResetPasswordSchema),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: ResetPasswordSchema }),
  });

  return (
    <main id="main" className="mx-auto grid w-full max-w-md gap-6 px-4 py-10 sm:py-16">
      <Link
        to="/auth"
        className="inline-flex w-fit items-center gap-2 text-sm text-muted-foreground hover:text-foreground"
      >
        <ArrowLeft aria-hidden className="size-4" />
        Back to sign in
      </Link>
      <Card>
        <CardHeader className="text-center">
          <h1 className="text-2xl font-semibold">Choose a new password</h1>
          <CardDescription>
            Your new password must be at least {PASSWORD_MIN_LENGTH} characters long.
          </CardDescription>
        </CardHeader>
        <CardContent>
          {loaderData.token ? (
            <Form method="post" {...getFormProps(form)} className="grid gap-4">
              <input type="hidden" name="token" value={loaderData.token} />
              {form.errors?.length ? (
                <Alert variant="destructive" id={form.errorId}>
                  <AlertTitle>Password reset failed</AlertTitle>
                  {form.errors.map((error) => (
                    <AlertDescription key={error}>{error}</AlertDescription>
                  ))}
                </Alert>
              ) : null}
              <Field
                label="New Password"
                htmlFor={fields.password.id}
                errors={fields.password.errors}
              >
                <Input
                  {...getInputProps(fields.password, { type: "password" })}
                  key={fields.password.key}
                  autoComplete="new-password"
                  {...passwordInput}
                />
              </Field>
              <PasswordStrengthMeter password={password} />
              <Field
                label="Confirm New Password"
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
                pending={navigation.state === "submitting"}
                label="Reset Password"
                pendingLabel="Resetting..."
              />
            </Form>
          ) : (
            <Alert variant="destructive">
              <AlertTitle>This link is invalid or has expired</AlertTitle>
              <AlertDescription>
                Reset links work once and expire after an hour.{" "}
                <Link to="/auth?forgot=1" className="font-medium underline underline-offset-4">
                  Request a new link
                </Link>
                .
              </AlertDescription>
            </Alert>
          )}
        </CardContent>
      </Card>
    </main>
  );
}
