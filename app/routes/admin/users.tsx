import { parseWithZod } from "@conform-to/zod/v4";
import { data, Link, useLoaderData } from "react-router";
import { z } from "zod";
import { EmptyState } from "~/components/admin/empty-state";
import { ListFilters } from "~/components/admin/list-filters";
import { ListPagination } from "~/components/admin/list-pagination";
import { PageHeader } from "~/components/admin/page-header";
import { UsersTable } from "~/components/admin/users-table";
import { UserPlus, Users } from "~/components/icons";
import { buttonVariants } from "~/components/ui/button";
import { logger } from "~/lib/logger.server";
import { requireRole } from "~/lib/permissions.server";
import { isRole, ROLE_LABELS, ROLES } from "~/lib/roles";
import { redirectWithToast } from "~/lib/toast.server";
import { changeUserRole, listUsers, USERS_PAGE_SIZE } from "~/models/users/users.server";
import type { Route } from "./+types/users";

export const meta: Route.MetaFunction = () => [
  { title: "User Management | Admin | Kongamano" },
  { name: "robots", content: "noindex" },
];

function pageNumber(value: string | null) {
  const n = Number.parseInt(value ?? "", 10);
  return Number.isFinite(n) && n > 0 ? n : 1;
}

export async function loader({ request }: Route.LoaderArgs) {
  const admin = await requireRole(request, "admin");
  const url = new URL(request.url);
  const search = url.searchParams.get("search")?.trim() ?? "";
  const roleParam = url.searchParams.get("role");
  const role = isRole(roleParam) ? roleParam : "all";
  const result = await listUsers({
    q: search,
    role: role === "all" ? undefined : role,
    page: pageNumber(url.searchParams.get("page")),
  });
  return { ...result, pageSize: USERS_PAGE_SIZE, search, role, currentUserId: admin.id };
}

const RoleChangeSchema = z.object({
  intent: z.literal("change-role"),
  userId: z.string({ error: "Choose a user" }).min(1, "Choose a user"),
  role: z.enum(ROLES, { error: "Choose a role" }),
});

const FAILED = { title: "Error", description: "Failed to update user role. Please try again." };

export async function action({ request }: Route.ActionArgs) {
  const admin = await requireRole(request, "admin");
  const submission = parseWithZod(await request.formData(), { schema: RoleChangeSchema });
  if (submission.status !== "success") {
    return data({ result: submission.reply(), error: FAILED }, { status: 400 });
  }
  const { userId, role } = submission.value;
  const back = `/admin/users${new URL(request.url).search}`;
  try {
    const result = await changeUserRole(request, { actorId: admin.id, userId, role });
    if (!result.ok) {
      if (result.reason === "last_admin") {
        return redirectWithToast(back, {
          type: "error",
          title: "Cannot change role",
          description:
            "This is the last admin account. Make another user an admin first, so someone can still manage the site.",
        });
      }
      return redirectWithToast(back, { type: "error", ...FAILED });
    }
    // An admin who stepped down can no longer see this page: take them where they still belong.
    const target =
      userId === admin.id && role !== "admin" ? (role === "editor" ? "/admin" : "/") : back;
    return redirectWithToast(target, {
      type: "success",
      title: "Role updated",
      description: `${result.name}'s role has been changed to ${ROLE_LABELS[result.to]}.`,
    });
  } catch (error) {
    logger.error({ err: error, userId }, "role change failed");
    return redirectWithToast(back, { type: "error", ...FAILED });
  }
}

const ROLE_FILTER_OPTIONS = [
  { value: "all", label: "All" },
  { value: "admin", label: "Admin" },
  { value: "editor", label: "Editor" },
  { value: "user", label: "User" },
];

export default function AdminUsers() {
  const { users, total, page, pageSize, search, role, currentUserId } =
    useLoaderData<typeof loader>();
  const filtered = search !== "" || role !== "all";
  return (
    <>
      <PageHeader
        title="User Management"
        description="People with an account, their roles, and who may manage the site. Email addresses are partly hidden."
        actions={
          <Link to="/admin/security?tab=users" className={buttonVariants()}>
            <UserPlus aria-hidden />
            Invite User
          </Link>
        }
      />
      <ListFilters
        searchLabel="Search users"
        searchPlaceholder="Search by name or full email address"
        search={search}
        filters={[{ name: "role", label: "Role", value: role, options: ROLE_FILTER_OPTIONS }]}
      />
      <p className="sr-only" aria-live="polite">
        {total} {total === 1 ? "user" : "users"} found
      </p>
      {users.length === 0 ? (
        <EmptyState
          icon={Users}
          title="No users found"
          hint={
            filtered
              ? "Try another name, the full email address, or a different role."
              : "Invite people from the Security Center."
          }
          action={
            filtered ? (
              <Link to="/admin/users" className={buttonVariants({ variant: "outline" })}>
                Clear filters
              </Link>
            ) : undefined
          }
        />
      ) : (
        <>
          <UsersTable users={users} currentUserId={currentUserId} />
          <ListPagination page={page} pageSize={pageSize} total={total} />
        </>
      )}
    </>
  );
}
