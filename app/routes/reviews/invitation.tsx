import { data, Form, redirect, useActionData, useNavigation } from "react-router";
import { GeneralErrorBoundary } from "~/components/error-screens";
import { Alert, AlertDescription } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { DomainError } from "~/lib/lifecycle.server";
import { requireUser } from "~/lib/permissions.server";
import { acceptReviewerInvitation } from "~/models/cfp/reviews.server";
import { reviewPath } from "~/models/cfp/urls";
import type { Route } from "./+types/invitation";

// Where a reviewer invited by e-mail (no account yet) lands from the mail (issue 32 item 3): once
// signed in with the invited address, they take the assignment and go on to declare conflicts.
// The page shows nothing about the paper until then.
export const meta: Route.MetaFunction = () => [
  { title: "Review invitation | Kongamano" },
  { name: "robots", content: "noindex" },
];

export function headers() {
  // The token is in the URL: no shared cache, and no referrer carries it away.
  return { "Cache-Control": "private, no-store", "Referrer-Policy": "no-referrer" };
}

export async function loader({ request }: Route.LoaderArgs) {
  await requireUser(request);
  return null;
}

export async function action({ request, params }: Route.ActionArgs) {
  const user = await requireUser(request);
  try {
    const assignment = await acceptReviewerInvitation(
      { id: user.id, role: user.role, request },
      params.token,
    );
    return redirect(reviewPath(assignment.id));
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    return data({ error: error.message }, { status: error.status });
  }
}

export default function ReviewInvitation() {
  const answer = useActionData<typeof action>() as { error?: string } | undefined;
  const busy = useNavigation().state === "submitting";
  return (
    <main id="main" className="mx-auto grid w-full max-w-xl gap-6 px-4 py-10">
      <h1 className="text-3xl font-semibold">Review invitation</h1>
      <p>
        An editor has asked you to review a paper. Accept the request to see its title and abstract,
        and to tell the editor about any conflict of interest before the paper opens.
      </p>
      {answer?.error ? (
        <Alert variant="destructive">
          <AlertDescription>{answer.error}</AlertDescription>
        </Alert>
      ) : null}
      <Form method="post">
        <Button type="submit" disabled={busy}>
          Accept the review request
        </Button>
      </Form>
    </main>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
