import { parseWithZod } from "@conform-to/zod/v4";
import { lazy, Suspense } from "react";
import { data, Link, redirect, useNavigate, useSearchParams } from "react-router";
import {
  ForgotPasswordSchema,
  ResendVerificationSchema,
  SignInSchema,
  SignUpSchema,
} from "~/components/auth-schemas";
import { type AuthActionData, SIGN_UP_SUCCESS, useAuthToast } from "~/components/auth-shared";
import { ArrowLeft } from "~/components/icons";
import { Card, CardContent, CardDescription, CardHeader } from "~/components/ui/card";
import { Spinner } from "~/components/ui/spinner";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "~/components/ui/tabs";
import {
  appendSetCookies,
  authErrorCode,
  authErrorMessage,
  authErrorStatus,
  getAuth,
  normaliseEmail,
  safeRedirectPath,
} from "~/lib/auth.server";
import { lazyOnInteraction } from "~/lib/lazy-on-interaction";
import { getOptionalUser } from "~/lib/permissions.server";
import { pageMeta } from "~/lib/seo";
import { redirectWithToast } from "~/lib/toast.server";
import { signInPurpose } from "~/models/site/sign-in-purpose.server";
import type { Route } from "./+types/auth";

/*
 * The Sign Up and Forgot Password forms show only on their tab or link, so the browser fetches
 * their code when they show (or, when server-rendered, during hydration) instead of in the first
 * load of the Sign In tab. The Sign In form's code (Conform and the form) is fetched when someone
 * starts to use it (decision 0065). The server renders every form in place, so the page also
 * works without JavaScript (decision 0009).
 */
// The server's copies are imported once, at start-up; the client build drops these lines.
const eagerSignIn = import.meta.env.SSR ? await import("~/components/auth-sign-in-form") : null;
const eagerSignUp = import.meta.env.SSR ? await import("~/components/auth-sign-up-form") : null;
const eagerForgot = import.meta.env.SSR
  ? await import("~/components/auth-forgot-password-form")
  : null;
const SignInForm = lazyOnInteraction(
  eagerSignIn?.SignInForm,
  async () => (await import("~/components/auth-sign-in-form")).SignInForm,
);
const SignUpForm = eagerSignUp
  ? eagerSignUp.SignUpForm
  : lazy(async () => ({
      default: (await import("~/components/auth-sign-up-form")).SignUpForm,
    }));
const ForgotPasswordForm = eagerForgot
  ? eagerForgot.ForgotPasswordForm
  : lazy(async () => ({
      default: (await import("~/components/auth-forgot-password-form")).ForgotPasswordForm,
    }));

const PLANS = ["individual", "professional", "corporate"] as const;

export const meta: Route.MetaFunction = ({ loaderData }) =>
  pageMeta({
    title: "Sign In or Create Account",
    description:
      "Sign in to your Kongamano account, or create one to join the global network of information-management professionals.",
    origin: loaderData?.origin ?? "",
    path: "/auth",
    noindex: true,
  });

export async function loader({ request }: Route.LoaderArgs) {
  if (await getOptionalUser(request)) throw redirect("/");
  const url = new URL(request.url);
  const back = safeRedirectPath(url.searchParams.get("redirectTo"));
  return { origin: url.origin, purpose: back === "/" ? null : await signInPurpose(back) };
}

/**
 * Where the verification link brings a new account back to: the page they came from (the
 * registration, seat invitation or application, with its query kept), else the plan's application.
 */
function verifiedLanding(redirectTo: unknown, plan: string | null) {
  const back = safeRedirectPath(redirectTo);
  if (back !== "/") return back;
  return plan ? `/membership/apply/${plan}` : "/";
}

function planOf(value: unknown) {
  const plan = typeof value === "string" ? value.toLowerCase() : "";
  return (PLANS as readonly string[]).includes(plan) ? plan : null;
}

export async function action({ request }: Route.ActionArgs) {
  if (await getOptionalUser(request)) throw redirect("/");
  const formData = await request.formData();
  switch (formData.get("intent")) {
    case "sign-up":
      return signUp(request, formData);
    case "forgot-password":
      return forgotPassword(request, formData);
    case "resend-verification":
      return resendVerification(request, formData);
    default:
      return signIn(request, formData);
  }
}

async function signIn(request: Request, formData: FormData) {
  const submission = parseWithZod(formData, { schema: SignInSchema });
  if (submission.status !== "success") {
    return data<AuthActionData>(
      { intent: "sign-in", result: submission.reply({ hideFields: ["password"] }) },
      { status: 400 },
    );
  }
  const { email, password } = submission.value;
  const redirectTo = safeRedirectPath(submission.value.redirectTo);
  try {
    const { headers, response } = await getAuth().api.signInEmail({
      body: { email, password, rememberMe: true },
      headers: request.headers,
      returnHeaders: true,
    });
    const cookies = appendSetCookies(new Headers(), headers);
    if ("twoFactorRedirect" in response && response.twoFactorRedirect) {
      throw redirect(`/auth/two-factor?redirectTo=${encodeURIComponent(redirectTo)}`, {
        headers: cookies,
      });
    }
    return await redirectWithToast(
      redirectTo,
      {
        type: "success",
        title: "Welcome back!",
        description: "You have been signed in successfully.",
      },
      { headers: cookies },
    );
  } catch (error) {
    if (error instanceof Response) throw error;
    const message = authErrorMessage(error);
    return data<AuthActionData>(
      {
        intent: "sign-in",
        result: submission.reply({ formErrors: [message], hideFields: ["password"] }),
        toast: { type: "error", title: "Sign in failed", description: message },
        // Offered after every wrong-credentials answer, so it says nothing about the account.
        unverifiedEmail:
          authErrorCode(error) === "INVALID_EMAIL_OR_PASSWORD" ? normaliseEmail(email) : undefined,
      },
      { status: authErrorStatus(error), headers: retryAfter(error) },
    );
  }
}

async function signUp(request: Request, formData: FormData) {
  const submission = parseWithZod(formData, { schema: SignUpSchema });
  const hideFields = ["password", "confirmPassword"];
  if (submission.status !== "success") {
    return data<AuthActionData>(
      { intent: "sign-up", result: submission.reply({ hideFields }) },
      { status: 400 },
    );
  }
  const { fullName, email, password, confirmPassword } = submission.value;
  // Spec §5: differing passwords stop silently — no message and no sign-up call.
  if (password !== confirmPassword) {
    return data<AuthActionData>(
      { intent: "sign-up", result: submission.reply({ hideFields }) },
      { status: 400 },
    );
  }
  const plan = planOf(submission.value.plan);
  try {
    await getAuth().api.signUpEmail({
      body: {
        name: fullName,
        email,
        password,
        // The verification link signs the person in and brings them back where they started.
        callbackURL: verifiedLanding(submission.value.redirectTo, plan),
      },
      headers: request.headers,
    });
    // Same answer whether or not the address already had an account (no enumeration).
    return data<AuthActionData>({
      intent: "sign-up",
      result: submission.reply({ resetForm: true }),
      toast: { type: "success", ...SIGN_UP_SUCCESS },
      done: true,
    });
  } catch (error) {
    const message = authErrorMessage(error);
    return data<AuthActionData>(
      {
        intent: "sign-up",
        result: submission.reply({ formErrors: [message], hideFields }),
        toast: { type: "error", title: "Sign up failed", description: message },
      },
      { status: authErrorStatus(error), headers: retryAfter(error) },
    );
  }
}

async function forgotPassword(request: Request, formData: FormData) {
  const submission = parseWithZod(formData, { schema: ForgotPasswordSchema });
  if (submission.status !== "success") {
    return data<AuthActionData>(
      { intent: "forgot-password", result: submission.reply() },
      { status: 400 },
    );
  }
  try {
    await getAuth().api.requestPasswordReset({
      body: { email: submission.value.email, redirectTo: "/auth/reset-password" },
      headers: request.headers,
    });
    return data<AuthActionData>({
      intent: "forgot-password",
      result: submission.reply(),
      done: true,
    });
  } catch (error) {
    const message = authErrorMessage(error);
    return data<AuthActionData>(
      {
        intent: "forgot-password",
        result: submission.reply({ formErrors: [message] }),
        toast: { type: "error", title: "Password reset failed", description: message },
      },
      { status: authErrorStatus(error), headers: retryAfter(error) },
    );
  }
}

async function resendVerification(request: Request, formData: FormData) {
  const submission = parseWithZod(formData, { schema: ResendVerificationSchema });
  if (submission.status !== "success") {
    return data<AuthActionData>(
      { intent: "resend-verification", result: submission.reply() },
      { status: 400 },
    );
  }
  const email = normaliseEmail(submission.value.email);
  try {
    await getAuth().api.sendVerificationEmail({
      body: { email, callbackURL: verifiedLanding(submission.value.redirectTo, null) },
      headers: request.headers,
    });
    return data<AuthActionData>({
      intent: "resend-verification",
      result: submission.reply(),
      unverifiedEmail: email,
      done: true,
      toast: {
        type: "success",
        title: "Verification email sent",
        description: "Please check your email to verify your account.",
      },
    });
  } catch (error) {
    const message = authErrorMessage(error);
    return data<AuthActionData>(
      {
        intent: "resend-verification",
        result: submission.reply({ formErrors: [message] }),
        unverifiedEmail: email,
        toast: { type: "error", title: "Verification email not sent", description: message },
      },
      { status: authErrorStatus(error), headers: retryAfter(error) },
    );
  }
}

function retryAfter(error: unknown): HeadersInit | undefined {
  const status = authErrorStatus(error);
  if (status !== 429) return undefined;
  const header = (error as { headers?: HeadersInit }).headers;
  const value = header ? new Headers(header).get("Retry-After") : null;
  return value ? { "Retry-After": value } : undefined;
}

export default function AuthPage({ actionData, loaderData }: Route.ComponentProps) {
  const [searchParams] = useSearchParams();
  const navigate = useNavigate();
  useAuthToast(actionData);
  const tab = searchParams.get("tab") === "signup" ? "signup" : "signin";
  const forgot = tab === "signin" && searchParams.get("forgot") === "1";
  const redirectTo = searchParams.get("redirectTo") ?? "/";
  const plan = planOf(searchParams.get("plan"));

  const hrefFor = (changes: Record<string, string | null>) => {
    const next = new URLSearchParams(searchParams);
    for (const [key, value] of Object.entries(changes)) {
      if (value === null) next.delete(key);
      else next.set(key, value);
    }
    const query = next.toString();
    return query ? `?${query}` : "?";
  };

  return (
    <main id="main" className="mx-auto grid w-full max-w-md gap-6 px-4 py-10 sm:py-16">
      <Link
        to="/"
        className="inline-flex w-fit items-center gap-2 text-sm text-muted-foreground hover:text-foreground"
      >
        <ArrowLeft aria-hidden className="size-4" />
        Back to Home
      </Link>
      <Card>
        <CardHeader className="text-center">
          <h1 className="text-2xl font-semibold">Welcome to Kongamano</h1>
          <CardDescription>
            {loaderData.purpose
              ? tab === "signup"
                ? loaderData.purpose.signUp
                : loaderData.purpose.signIn
              : "Sign in to your account, or create one to join the network."}
          </CardDescription>
        </CardHeader>
        <CardContent>
          <Tabs
            value={tab}
            onValueChange={(value) =>
              navigate(hrefFor({ tab: value === "signup" ? "signup" : null, forgot: null }), {
                replace: true,
                preventScrollReset: true,
              })
            }
          >
            <TabsList className="grid w-full grid-cols-2">
              {/* Links, so the tabs also work without JavaScript. */}
              <TabsTrigger value="signin" asChild>
                <Link to={hrefFor({ tab: null, forgot: null })} replace preventScrollReset>
                  Sign In
                </Link>
              </TabsTrigger>
              <TabsTrigger value="signup" asChild>
                <Link to={hrefFor({ tab: "signup", forgot: null })} replace preventScrollReset>
                  Sign Up
                </Link>
              </TabsTrigger>
            </TabsList>
            <TabsContent value="signin">
              {forgot ? (
                <Suspense fallback={<FormLoading />}>
                  <ForgotPasswordForm
                    actionData={actionData}
                    backHref={hrefFor({ forgot: null })}
                  />
                </Suspense>
              ) : (
                <SignInForm
                  fallback={<FormLoading />}
                  now={Boolean(actionData)}
                  actionData={actionData}
                  redirectTo={redirectTo}
                  forgotHref={hrefFor({ forgot: "1" })}
                />
              )}
            </TabsContent>
            <TabsContent value="signup">
              {plan ? (
                <p className="mb-4 rounded-lg bg-muted px-3 py-2 text-sm">
                  You are joining with the <strong className="capitalize">{plan}</strong> membership
                  plan.
                </p>
              ) : null}
              <Suspense fallback={<FormLoading />}>
                <SignUpForm actionData={actionData} plan={plan} redirectTo={redirectTo} />
              </Suspense>
            </TabsContent>
          </Tabs>
        </CardContent>
      </Card>
    </main>
  );
}

function FormLoading() {
  return <Spinner label="Loading the form..." className="py-16" />;
}
