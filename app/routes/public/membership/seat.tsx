import { data, Form, redirect } from "react-router";
import { GeneralErrorBoundary } from "~/components/error-screens";
import { Button } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { getOptionalUser, requireUser } from "~/lib/permissions.server";
import { redirectWithToast } from "~/lib/toast.server";
import { acceptSeat, MembershipError } from "~/models/membership/membership.server";
import type { Route } from "./+types/seat";

export const meta: Route.MetaFunction = () => [
  { title: "Join Your Team's Membership | Kongamano" },
  { name: "robots", content: "noindex, nofollow" },
];

export function headers() {
  return { "Cache-Control": "private, no-store", "Referrer-Policy": "no-referrer" };
}

export async function loader({ request, params }: Route.LoaderArgs) {
  if (!(await getOptionalUser(request))) {
    const back = `/membership/seat/${params.token}`;
    throw redirect(`/auth?redirectTo=${encodeURIComponent(back)}`);
  }
  return null;
}

export async function action({ request, params }: Route.ActionArgs) {
  const user = await requireUser(request);
  try {
    await acceptSeat(params.token, user);
  } catch (error) {
    if (error instanceof MembershipError) {
      // Not valid (404), not this account (403, never naming the invited address), expired (410).
      const status = [403, 404, 410].includes(error.status) ? error.status : 400;
      return data({ error: error.message }, { status });
    }
    throw error;
  }
  return redirectWithToast("/profile#membership", {
    type: "success",
    title: "You are a member",
    description: "Your organisation's Corporate membership now includes you.",
  });
}

export default function SeatPage({ actionData }: Route.ComponentProps) {
  return (
    <main id="main" className="mx-auto grid w-full max-w-md gap-6 px-4 py-10">
      <h1 className="text-3xl font-semibold">Join your team's membership</h1>
      <Card className="grid gap-4 p-6">
        <p>Your organisation invited you to a seat of its Corporate membership.</p>
        {actionData?.error ? (
          <p role="alert" className="text-destructive">
            {actionData.error}
          </p>
        ) : null}
        <Form method="post">
          <Button type="submit">Accept Seat</Button>
        </Form>
      </Card>
    </main>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
