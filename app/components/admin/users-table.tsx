import { Badge } from "~/components/ui/badge";
import { TableScroll } from "~/components/ui/table-scroll";
import { formatDate } from "~/lib/format";
import { ROLE_LABELS, type Role } from "~/lib/roles";
import { UserRoleMenu } from "./users-role-menu";

export type UsersTableRow = {
  id: string;
  name: string;
  maskedEmail: string;
  role: Role;
  createdAt: string;
  updatedAt: string;
};

const ROLE_BADGE: Record<Role, "destructive" | "info" | "neutral"> = {
  admin: "destructive",
  editor: "info",
  user: "neutral",
};

function initials(name: string) {
  const parts = name.trim().split(/\s+/).filter(Boolean);
  const letters = parts.length > 1 ? [parts[0][0], parts[parts.length - 1][0]] : [parts[0]?.[0]];
  return letters.join("").toUpperCase() || "?";
}

export function RoleBadge({ role }: { role: Role }) {
  return <Badge variant={ROLE_BADGE[role]}>{ROLE_LABELS[role]}</Badge>;
}

/** The admin user table (spec §2.15): User, Email (masked), Role, Joined, Last Updated, Actions. */
export function UsersTable({
  users,
  currentUserId,
}: {
  users: UsersTableRow[];
  currentUserId: string;
}) {
  return (
    <TableScroll label="Users and their roles" className="rounded-xl border border-border bg-card">
      <table className="w-full text-sm md:min-w-[720px]">
        <caption className="sr-only">Users and their roles</caption>
        <thead className="border-b border-border bg-muted/50 text-left text-slate-700">
          <tr>
            <th scope="col" className="px-4 py-3 font-medium">
              User
            </th>
            <th scope="col" className="hidden px-4 py-3 font-medium md:table-cell">
              Email
            </th>
            <th scope="col" className="px-4 py-3 font-medium">
              Role
            </th>
            <th scope="col" className="hidden px-4 py-3 font-medium md:table-cell">
              Joined
            </th>
            <th scope="col" className="hidden px-4 py-3 font-medium md:table-cell">
              Last Updated
            </th>
            <th scope="col" className="px-4 py-3 text-right font-medium">
              Actions
            </th>
          </tr>
        </thead>
        <tbody>
          {users.map((u) => (
            <tr key={u.id} className="border-b border-border last:border-0">
              <th scope="row" className="px-4 py-3 text-left font-normal">
                <div className="flex items-center gap-3">
                  <span
                    aria-hidden
                    className="hidden size-9 shrink-0 items-center justify-center rounded-full bg-accent text-xs font-semibold text-accent-foreground sm:flex"
                  >
                    {initials(u.name)}
                  </span>
                  <span className="grid gap-0.5">
                    <span className="font-medium text-foreground">
                      {u.name}
                      {u.id === currentUserId ? (
                        <span className="ml-2 text-xs font-normal text-muted-foreground">
                          (you)
                        </span>
                      ) : null}
                    </span>
                    {/* Phones: the hidden columns' facts, under the name. */}
                    <span className="font-mono text-xs break-all text-slate-700 md:hidden">
                      {u.maskedEmail}
                    </span>
                    <span className="text-xs text-muted-foreground md:hidden">
                      Joined {formatDate(u.createdAt)} · Updated {formatDate(u.updatedAt)}
                    </span>
                  </span>
                </div>
              </th>
              <td className="hidden px-4 py-3 font-mono text-xs text-slate-700 md:table-cell">
                {u.maskedEmail}
              </td>
              <td className="px-4 py-3">
                <RoleBadge role={u.role} />
              </td>
              <td className="hidden px-4 py-3 whitespace-nowrap md:table-cell">
                {formatDate(u.createdAt)}
              </td>
              <td className="hidden px-4 py-3 whitespace-nowrap md:table-cell">
                {formatDate(u.updatedAt)}
              </td>
              <td className="px-4 py-3 text-right">
                <UserRoleMenu userId={u.id} name={u.name} role={u.role} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}
