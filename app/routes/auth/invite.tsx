import { parseWithZod } from "@conform-to/zod/v4";
import { data, Link, useActionData, useLoaderData } from "react-router";
import { InvitationAcceptForm } from "~/components/admin/invitation-accept-form";
import { AcceptInvitationSchema } from "~/components/admin/invitation-schema";
import { MailX } from "~/components/icons";
import { buttonVariants } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { appendSetCookies } from "~/lib/auth.server";
import { logger } from "~/lib/logger.server";
import { ROLE_LABELS } from "~/lib/roles";
import { redirectWithToast } from "~/lib/toast.server";
import {
  acceptInvitation,
  findInvitation,
  type InvitationState,
} from "~/models/users/invitations.server";
import type { Route } from "./+types/invite";

export const meta: Route.MetaFunction = () => [
  { title: "Accept Invitation | Kongamano" },
  { name: "robots", content: "noindex" },
];

// The token is a credential: never cached, never sent on in a Referer.
export function headers() {
  return { "Cache-Control": "private, no-store", "Referrer-Policy": "no-referrer" };
}

type Unusable = Exclude<InvitationState, "valid">;

/** 404 for a link that never existed, 410 Gone for one that did but cannot be used any more. */
function unusable(state: Unusable) {
  return data({ state } as const, { status: state === "invalid" ? 404 : 410 });
}

export async function loader({ params }: Route.LoaderArgs) {
  const invitation = await findInvitation(params.token);
  if (invitation.state !== "valid") return unusable(invitation.state);
  return { state: "valid", email: invitation.email, role: invitation.role } as const;
}

export async function action({ request, params }: Route.ActionArgs) {
  const submission = parseWithZod(await request.formData(), { schema: AcceptInvitationSchema });
  const hideFields = ["password", "confirmPassword"];
  if (submission.status !== "success") {
    return data({ result: submission.reply({ hideFields }) }, { status: 400 });
  }
  try {
    const result = await acceptInvitation(request, {
      token: params.token,
      name: submission.value.fullName,
      password: submission.value.password,
    });
    if (!result.ok) {
      if (result.state !== "valid") return unusable(result.state);
      return data(
        { result: submission.reply({ formErrors: [result.error], hideFields }) },
        { status: 409 },
      );
    }
    if (!result.headers) {
      return redirectWithToast("/auth", {
        type: "success",
        title: "Account created",
        description: "Please sign in with your new password.",
      });
    }
    // Each of better-auth's cookies stays its own Set-Cookie header.
    const cookies = appendSetCookies(new Headers(), result.headers);
    return redirectWithToast(
      result.role === "user" ? "/" : "/admin",
      {
        type: "success",
        title: "Welcome to Kongamano!",
        description: `Your account has been created with the ${ROLE_LABELS[result.role]} role.`,
      },
      { headers: cookies },
    );
  } catch (error) {
    logger.error({ err: error }, "accepting an invitation failed");
    return data(
      {
        result: submission.reply({
          formErrors: ["Could not create the account. Please try again."],
          hideFields,
        }),
      },
      { status: 500 },
    );
  }
}

const UNUSABLE_COPY: Record<Unusable, { title: string; text: string }> = {
  invalid: {
    title: "Invitation not found",
    text: "This invitation link is not valid. Check that you opened the whole link from the email, or ask an admin to invite you again.",
  },
  expired: {
    title: "Invitation expired",
    text: "Invitation links are valid for 7 days. Ask an admin to send you a new invitation.",
  },
  revoked: {
    title: "Invitation withdrawn",
    text: "This invitation has been revoked or replaced by a newer one. Use the most recent invitation email, or ask an admin to invite you again.",
  },
  accepted: {
    title: "Invitation already used",
    text: "An account has already been created with this invitation. Sign in with its email address and password.",
  },
};

export default function AcceptInvitation() {
  const loaderData = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const state = actionData && "state" in actionData ? actionData.state : loaderData.state;

  return (
    <main id="main" className="mx-auto grid w-full max-w-md gap-6 px-4 py-12">
      {state === "valid" && loaderData.state === "valid" ? (
        <>
          <div className="grid gap-2 text-center">
            <h1 className="text-3xl font-semibold tracking-tight">Join Kongamano</h1>
            <p className="text-muted-foreground">
              You have been invited as {/^[AEIOU]/.test(ROLE_LABELS[loaderData.role]) ? "an" : "a"}{" "}
              <strong className="text-foreground">{ROLE_LABELS[loaderData.role]}</strong>. Choose
              your name and a password to create your account.
            </p>
          </div>
          <Card className="p-6">
            <InvitationAcceptForm
              email={loaderData.email}
              lastResult={actionData && "result" in actionData ? actionData.result : undefined}
            />
          </Card>
        </>
      ) : (
        <Card className="grid justify-items-center gap-4 p-8 text-center">
          <MailX aria-hidden className="size-10 text-slate-400" />
          <h1 className="text-2xl font-semibold">{UNUSABLE_COPY[state as Unusable].title}</h1>
          <p className="text-muted-foreground">{UNUSABLE_COPY[state as Unusable].text}</p>
          <div className="flex flex-wrap justify-center gap-2">
            <Link to="/auth" className={buttonVariants()}>
              Sign In
            </Link>
            <Link to="/" className={buttonVariants({ variant: "outline" })}>
              Back to Home
            </Link>
          </div>
        </Card>
      )}
    </main>
  );
}
