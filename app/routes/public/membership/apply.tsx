import { parseWithZod } from "@conform-to/zod/v4";
import { data, redirect } from "react-router";
import { GeneralErrorBoundary } from "~/components/error-screens";
import { ArrowLeft } from "~/components/icons";
import { Link } from "~/components/link";
import { MembershipApplyForm } from "~/components/membership-apply-form";
import { MembershipApplySchema } from "~/components/membership-apply-schema";
import { buttonVariants } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { formatMinor } from "~/lib/money";
import { getOptionalUser, requireUser } from "~/lib/permissions.server";
import { redirectWithToast } from "~/lib/toast.server";
import { UploadError } from "~/lib/uploads.server";
import {
  applyForMembership,
  MembershipError,
  requestCorporateUpgrade,
} from "~/models/membership/membership.server";
import {
  MEMBERSHIP_CURRENCY,
  PLAN_IDS,
  PLAN_NAMES,
  PLAN_PRICE_MINOR,
} from "~/models/membership/plans";
import { getMembershipOverview } from "~/models/membership/queries.server";
import { MAX_PROOF_BYTES, storePaymentProof } from "~/models/orders/payment-proof.server";
import type { Route } from "./+types/apply";

export const meta: Route.MetaFunction = () => [
  { title: "Apply for Membership | Kongamano" },
  { name: "robots", content: "noindex" },
];

export function headers() {
  return { "Cache-Control": "private, no-store" };
}

function planOf(value: string | undefined) {
  return (PLAN_IDS as readonly string[]).includes(value ?? "")
    ? (value as (typeof PLAN_IDS)[number])
    : null;
}

export async function loader({ request, params }: Route.LoaderArgs) {
  const plan = planOf(params.plan);
  if (!plan) throw data({ message: "There is no such membership plan." }, { status: 404 });
  const user = await getOptionalUser(request);
  if (!user) {
    // Sign in, or create an account, and come back to this application.
    const back = `/membership/apply/${plan}`;
    throw redirect(`/auth?tab=signup&plan=${plan}&redirectTo=${encodeURIComponent(back)}`);
  }
  const overview = await getMembershipOverview(user.id);
  const current = overview?.membership;
  const upgrade =
    plan === "corporate" && upgradableToCorporate(overview) && current
      ? { from: PLAN_NAMES[current.plan] }
      : null;
  const blocking =
    !upgrade && current && !["lapsed", "rejected", "cancelled"].includes(current.state);
  return {
    plan,
    // An upgrade is to Corporate only, with the same form, fields and messages as applying.
    plans: (upgrade ? (["corporate"] as const) : PLAN_IDS).map((id) => ({
      id,
      name: PLAN_NAMES[id],
      priceLabel: formatMinor(PLAN_PRICE_MINOR[id], MEMBERSHIP_CURRENCY),
    })),
    defaults: {
      plan,
      memberName: current?.memberName ?? user.name,
      ...(upgrade && current
        ? {
            organisationName: current.organisationName ?? "",
            taxId: current.taxId ?? "",
            billingContactName: current.billingContactName ?? "",
            billingContactEmail: current.billingContactEmail ?? "",
          }
        : {}),
    },
    email: user.email,
    upgrade,
    existing: blocking
      ? {
          standing: overview.upgradeRequest
            ? "your upgrade to Corporate is waiting for review"
            : overview.standing,
        }
      : null,
  };
}

/** An active, non-Corporate member with no upgrade under way applies for Corporate by upgrading. */
function upgradableToCorporate(overview: Awaited<ReturnType<typeof getMembershipOverview>>) {
  const current = overview?.membership;
  return Boolean(
    current &&
      current.state === "active" &&
      !current.cancelRequestedAt &&
      current.plan !== "corporate" &&
      !overview.upgradeRequest &&
      !overview.openTerms.some((t) => t.kind === "upgrade"),
  );
}

async function readForm(request: Request) {
  const declared = Number(request.headers.get("content-length") ?? 0);
  if (declared > MAX_PROOF_BYTES + 64 * 1024) return null;
  try {
    return await request.formData();
  } catch {
    return null;
  }
}

export async function action({ request }: Route.ActionArgs) {
  const user = await requireUser(request);
  const form = await readForm(request);
  if (!form) {
    return data(
      { result: null, formError: "The proof file must be at most 5 MB." },
      { status: 400 },
    );
  }
  const submission = parseWithZod(form, { schema: MembershipApplySchema });
  if (submission.status !== "success") {
    return data({ result: submission.reply(), formError: null }, { status: 400 });
  }
  const value = submission.value;
  const proof = form.get("studentProof");
  const hasProof = proof instanceof Blob && proof.size > 0;
  if (value.student && !hasProof) {
    return data(
      {
        result: submission.reply({
          fieldErrors: { student: ["Attach your proof of student status"] },
        }),
        formError: null,
      },
      { status: 400 },
    );
  }
  try {
    // The server decides: an active member's Corporate application is an upgrade request.
    const overview = await getMembershipOverview(user.id);
    const current = overview?.membership;
    if (value.plan === "corporate" && current?.state === "active") {
      await requestCorporateUpgrade(current.id, value, { id: user.id, role: user.role, request });
      return redirectWithToast("/profile#membership", {
        type: "success",
        title: "Upgrade request received",
        description:
          "Our staff review it and e-mail you the invoice for the prorated difference or the reason.",
      });
    }
    const studentProofKey = value.student && hasProof ? await storePaymentProof(proof) : null;
    const result = await applyForMembership(
      { id: user.id, name: user.name, email: user.email, request },
      { ...value, studentProofKey },
    );
    if (result.orderId) {
      return redirectWithToast(`/orders/${result.orderId}`, {
        type: "success",
        title: "Application received",
        description: `Invoice ${result.invoiceNumber} is on its way to you; your membership starts when it is paid.`,
      });
    }
    return redirectWithToast("/profile#membership", {
      type: "success",
      title: "Application received",
      description: "Our staff review it and e-mail you the invoice or the reason.",
    });
  } catch (error) {
    if (error instanceof UploadError) {
      return data(
        {
          result: submission.reply({ fieldErrors: { student: [error.message] } }),
          formError: null,
        },
        { status: 400 },
      );
    }
    if (!(error instanceof MembershipError) || error.status === 403 || error.status === 404)
      throw error;
    const reply = error.field
      ? submission.reply({ fieldErrors: { [error.field]: [error.message] } })
      : submission.reply({ formErrors: [error.message] });
    return data({ result: reply, formError: null }, { status: 400 });
  }
}

export default function ApplyPage({ loaderData, actionData }: Route.ComponentProps) {
  const { plans, defaults, email, existing, plan, upgrade } = loaderData;
  return (
    <main id="main" className="mx-auto grid w-full max-w-2xl gap-6 px-4 py-10">
      <Link
        to="/membership"
        className="inline-flex items-center gap-1 text-sm font-medium text-primary-700 hover:underline"
      >
        <ArrowLeft aria-hidden className="size-4" />
        Back to membership plans
      </Link>
      <div className="grid gap-1">
        <h1 className="text-3xl font-semibold">
          {upgrade ? "Upgrade to Corporate Membership" : `Apply for ${PLAN_NAMES[plan]} Membership`}
        </h1>
        <p className="text-muted-foreground">
          {upgrade
            ? `Your ${upgrade.from} membership continues while our staff review your organisation's details; once approved, you pay the prorated difference and your plan changes the day it is paid.`
            : "One year of membership, renewed only when you choose."}
        </p>
      </div>
      <Card className="p-6">
        {existing ? (
          <div className="grid gap-4">
            <p>You already have a membership: {existing.standing}.</p>
            <Link to="/profile#membership" className={buttonVariants({ variant: "outline" })}>
              See your membership
            </Link>
          </div>
        ) : (
          <MembershipApplyForm
            plans={plans}
            defaults={defaults}
            email={email}
            lastResult={actionData?.result}
            formError={actionData?.formError}
          />
        )}
      </Card>
    </main>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
