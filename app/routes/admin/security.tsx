import { parseWithZod } from "@conform-to/zod/v4";
import { data, Link, useActionData, useLoaderData } from "react-router";
import { z } from "zod";
import { ActivityFiltersForm, ActivityLogTable } from "~/components/admin/activity-log";
import { InvitationForm, type InviteActionData } from "~/components/admin/invitation-form";
import { InvitationList } from "~/components/admin/invitation-list";
import { InviteFormSchema } from "~/components/admin/invitation-schema";
import { PageHeader } from "~/components/admin/page-header";
import { SecurityDashboardPanel } from "~/components/admin/security-dashboard";
import { SecurityTabs, securityTab } from "~/components/admin/security-tabs";
import { Users } from "~/components/icons";
import { buttonVariants } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { logger } from "~/lib/logger.server";
import { requireRole } from "~/lib/permissions.server";
import { redirectWithToast } from "~/lib/toast.server";
import {
  ACTIVITY_PAGE_SIZE,
  activityFilterOptions,
  activityFiltersFrom,
  listActivity,
} from "~/models/security/audit-log.server";
import { securityDashboard } from "~/models/security/security.server";
import {
  createInvitation,
  listPendingInvitations,
  revokeInvitation,
} from "~/models/users/invitations.server";
import type { Route } from "./+types/security";

export const meta: Route.MetaFunction = () => [
  { title: "Security Center | Admin | Kongamano" },
  { name: "robots", content: "noindex" },
];

function pageNumber(value: string | null) {
  const n = Number.parseInt(value ?? "", 10);
  return Number.isFinite(n) && n > 0 ? n : 1;
}

export async function loader({ request }: Route.LoaderArgs) {
  await requireRole(request, "admin");
  const url = new URL(request.url);
  const tab = securityTab(url.searchParams.get("tab"));
  if (tab === "users") {
    return { tab, invitations: await listPendingInvitations() } as const;
  }
  if (tab === "activity") {
    const filters = activityFiltersFrom(url.searchParams);
    const [log, options] = await Promise.all([
      listActivity(filters, pageNumber(url.searchParams.get("page"))),
      activityFilterOptions(),
    ]);
    const exportParams = new URLSearchParams(
      Object.entries(filters).filter((e): e is [string, string] => Boolean(e[1])),
    );
    const query = exportParams.toString();
    return {
      tab,
      filters,
      log,
      pageSize: ACTIVITY_PAGE_SIZE,
      options,
      exportHref: `/admin/security/activity.csv${query ? `?${query}` : ""}`,
    } as const;
  }
  return { tab, dashboard: await securityDashboard() } as const;
}

const RevokeSchema = z.object({
  intent: z.literal("revoke"),
  invitationId: z.uuid({ error: "Unknown invitation" }),
});

const INVITE_FAILED = {
  title: "Error",
  description: "Failed to send invitation. Please try again.",
};

export async function action({ request }: Route.ActionArgs) {
  const admin = await requireRole(request, "admin");
  const formData = await request.formData();
  const intent = formData.get("intent");

  if (intent === "revoke") {
    const submission = parseWithZod(formData, { schema: RevokeSchema });
    if (submission.status !== "success") {
      return data(
        { error: { title: "Error", description: "Failed to revoke the invitation." } },
        { status: 400 },
      );
    }
    const revoked = await revokeInvitation(request, submission.value.invitationId, admin.id);
    if (!revoked) {
      return data(
        { error: { title: "Error", description: "This invitation is no longer pending." } },
        { status: 404 },
      );
    }
    return redirectWithToast("/admin/security?tab=users", {
      type: "success",
      title: "Invitation revoked",
      description: "The invitation link no longer works.",
    });
  }

  if (intent !== "invite") {
    return data({ error: { title: "Error", description: "Unknown action." } }, { status: 400 });
  }
  const submission = parseWithZod(formData, { schema: InviteFormSchema });
  if (submission.status !== "success") {
    return data({ result: submission.reply() } satisfies InviteActionData, { status: 400 });
  }
  const { email, role } = submission.value;
  try {
    const result = await createInvitation(request, {
      email,
      role,
      invitedBy: admin.id,
      inviterName: admin.name,
    });
    if (result.ok) {
      return redirectWithToast("/admin/security?tab=users", {
        type: "success",
        title: "Invitation sent",
        description: `An invitation has been sent to ${result.email}.`,
      });
    }
    if (result.reason === "user_exists") {
      return data(
        {
          result: submission.reply({
            fieldErrors: { email: ["A user with this email address already exists."] },
          }),
        } satisfies InviteActionData,
        { status: 409 },
      );
    }
  } catch (error) {
    logger.error({ err: error }, "invitation failed");
  }
  return data({ result: submission.reply(), error: INVITE_FAILED } satisfies InviteActionData, {
    status: 502,
  });
}

export default function SecurityCenter() {
  const loaderData = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>() as InviteActionData | undefined;
  return (
    <>
      <PageHeader
        title="Security Center"
        description="Sign-in activity, system health, invitations and the audit trail of every change."
      />
      <SecurityTabs current={loaderData.tab} />
      {loaderData.tab === "dashboard" ? (
        <SecurityDashboardPanel dashboard={loaderData.dashboard} />
      ) : null}
      {loaderData.tab === "users" ? (
        <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_minmax(0,1fr)]">
          <Card className="p-6">
            <h2 className="mb-4 text-lg font-semibold">Invite User</h2>
            <InvitationForm key={loaderData.invitations[0]?.id ?? "none"} actionData={actionData} />
          </Card>
          <section aria-labelledby="pending-heading" className="grid content-start gap-4">
            <div className="flex flex-wrap items-center justify-between gap-2">
              <h2 id="pending-heading" className="text-lg font-semibold">
                Pending invitations
              </h2>
              <Link
                to="/admin/users"
                className={buttonVariants({ variant: "outline", size: "sm" })}
              >
                <Users aria-hidden />
                Manage roles
              </Link>
            </div>
            <InvitationList invitations={loaderData.invitations} />
          </section>
        </div>
      ) : null}
      {loaderData.tab === "activity" ? (
        <>
          <ActivityFiltersForm
            filters={loaderData.filters}
            actions={loaderData.options.actions}
            entities={loaderData.options.entities}
          />
          <ActivityLogTable
            entries={loaderData.log.entries}
            total={loaderData.log.total}
            page={loaderData.log.page}
            pageSize={loaderData.pageSize}
            exportHref={loaderData.exportHref}
            filtered={Object.values(loaderData.filters).some(Boolean)}
          />
        </>
      ) : null}
    </>
  );
}
