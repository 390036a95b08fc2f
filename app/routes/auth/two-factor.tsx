import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { data, Form, Link, redirect, useNavigation, useSearchParams } from "react-router";
import { z } from "zod";
import { type AuthActionData, SubmitButton, useAuthToast } from "~/components/auth-shared";
import { ArrowLeft, ShieldCheck } from "~/components/icons";
import { Alert, AlertDescription, AlertTitle } from "~/components/ui/alert";
import { Card, CardContent, CardDescription, CardHeader } from "~/components/ui/card";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import {
  appendSetCookies,
  authCookieName,
  authErrorCode,
  authErrorMessage,
  authErrorStatus,
  getAuth,
  safeRedirectPath,
} from "~/lib/auth.server";
import { env } from "~/lib/env.server";
import { getOptionalUser } from "~/lib/permissions.server";
import { pageMeta } from "~/lib/seo";
import { redirectWithToast } from "~/lib/toast.server";
import type { Route } from "./+types/two-factor";

export const TwoFactorSchema = z.object({
  method: z.enum(["totp", "recovery"]),
  code: z
    .string({ error: "Please enter the code" })
    .transform((v) => v.replace(/\s+/g, ""))
    .pipe(z.string().min(1, "Please enter the code").max(32, "That code is too long")),
  redirectTo: z.string().optional(),
});

export const meta: Route.MetaFunction = ({ loaderData }) =>
  pageMeta({
    title: "Two-factor authentication",
    description: "Confirm your sign-in with a code from your authenticator app.",
    origin: loaderData?.origin ?? "",
    path: "/auth/two-factor",
    noindex: true,
  });

/** A sign-in waiting for its second factor carries better-auth's signed two_factor cookie. */
function hasPendingSignIn(request: Request) {
  const name = authCookieName(env(), "two_factor");
  return (request.headers.get("cookie") ?? "").split(/;\s*/).some((c) => c.startsWith(`${name}=`));
}

export async function loader({ request }: Route.LoaderArgs) {
  if (await getOptionalUser(request)) throw redirect("/");
  if (!hasPendingSignIn(request)) throw redirect("/auth");
  return { origin: new URL(request.url).origin };
}

export async function action({ request }: Route.ActionArgs) {
  if (await getOptionalUser(request)) throw redirect("/");
  const formData = await request.formData();
  const submission = parseWithZod(formData, { schema: TwoFactorSchema });
  if (submission.status !== "success") {
    return data<AuthActionData>(
      { intent: "two-factor", result: submission.reply({ hideFields: ["code"] }) },
      { status: 400 },
    );
  }
  const { method, code } = submission.value;
  const redirectTo = safeRedirectPath(submission.value.redirectTo);
  try {
    const call =
      method === "totp"
        ? getAuth().api.verifyTOTP({
            body: { code },
            headers: request.headers,
            returnHeaders: true,
          })
        : getAuth().api.verifyBackupCode({
            body: { code },
            headers: request.headers,
            returnHeaders: true,
          });
    const { headers } = await call;
    return await redirectWithToast(
      redirectTo,
      {
        type: "success",
        title: "Welcome back!",
        description: "You have been signed in successfully.",
      },
      { headers: appendSetCookies(new Headers(), headers) },
    );
  } catch (error) {
    const message = authErrorMessage(error);
    const expired = ["INVALID_TWO_FACTOR_COOKIE", "TOO_MANY_ATTEMPTS_REQUEST_NEW_CODE"];
    if (expired.includes(authErrorCode(error) ?? "")) {
      throw await redirectWithToast("/auth", {
        type: "error",
        title: "Sign in failed",
        description: message,
      });
    }
    return data<AuthActionData>(
      {
        intent: "two-factor",
        result: submission.reply({ formErrors: [message], hideFields: ["code"] }),
        toast: { type: "error", title: "Sign in failed", description: message },
      },
      { status: authErrorStatus(error) },
    );
  }
}

export default function TwoFactorPage({ actionData }: Route.ComponentProps) {
  const [searchParams] = useSearchParams();
  const navigation = useNavigation();
  useAuthToast(actionData);
  const method = searchParams.get("method") === "recovery" ? "recovery" : "totp";
  const redirectTo = searchParams.get("redirectTo") ?? "/";
  const [form, fields] = useForm({
    id: `two-factor-${method}`,
    lastResult: actionData?.result,
    constraint: getZodConstraint(TwoFactorSchema),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: TwoFactorSchema }),
  });
  const otherMethod = new URLSearchParams(searchParams);
  if (method === "totp") otherMethod.set("method", "recovery");
  else otherMethod.delete("method");

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
          <ShieldCheck aria-hidden className="mx-auto size-8 text-primary" />
          <h1 className="text-2xl font-semibold">Two-factor authentication</h1>
          <CardDescription>
            {method === "totp"
              ? "Enter the 6-digit code from your authenticator app."
              : "Enter one of the recovery codes you saved when you set up two-factor authentication. Each code works once."}
          </CardDescription>
        </CardHeader>
        <CardContent className="grid gap-4">
          <Form method="post" {...getFormProps(form)} className="grid gap-4">
            <input type="hidden" name="method" value={method} />
            <input type="hidden" name="redirectTo" value={redirectTo} />
            {form.errors?.length ? (
              <Alert variant="destructive" id={form.errorId}>
                <AlertTitle>Sign in failed</AlertTitle>
                {form.errors.map((error) => (
                  <AlertDescription key={error}>{error}</AlertDescription>
                ))}
              </Alert>
            ) : null}
            <Field
              label={method === "totp" ? "Authentication code" : "Recovery code"}
              htmlFor={fields.code.id}
              errors={fields.code.errors}
            >
              <Input
                {...getInputProps(fields.code, { type: "text" })}
                key={`${method}-${fields.code.key}`}
                autoComplete="one-time-code"
                inputMode={method === "totp" ? "numeric" : "text"}
                autoFocus
              />
            </Field>
            <SubmitButton
              className="w-full"
              pending={navigation.state === "submitting"}
              label="Verify"
              pendingLabel="Verifying..."
            />
          </Form>
          <Link
            to={`?${otherMethod.toString()}`}
            replace
            className="text-sm text-primary underline underline-offset-4"
          >
            {method === "totp"
              ? "Use a recovery code instead"
              : "Use your authenticator app instead"}
          </Link>
        </CardContent>
      </Card>
    </main>
  );
}
