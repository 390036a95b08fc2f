import { useFetcher } from "react-router";
import { Check, MoreHorizontal } from "~/components/icons";
import { Button } from "~/components/ui/button";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from "~/components/ui/dropdown-menu";
import { ROLE_LABELS, ROLES_DESCENDING, type Role } from "~/lib/roles";

/** The user row's role dropdown, loaded on demand by UserRoleMenu (users-role-menu.tsx). */
export default function RoleDropdown({
  userId,
  label,
  role,
  defaultOpen,
}: {
  userId: string;
  label: string;
  role: Role;
  defaultOpen?: boolean;
}) {
  const fetcher = useFetcher();
  const busy = fetcher.state !== "idle";
  return (
    <DropdownMenu defaultOpen={defaultOpen}>
      <DropdownMenuTrigger asChild>
        <Button variant="ghost" size="icon" aria-label={label} disabled={busy}>
          <MoreHorizontal aria-hidden />
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end">
        <DropdownMenuLabel>Change role</DropdownMenuLabel>
        <DropdownMenuSeparator />
        {ROLES_DESCENDING.map((target) => (
          <DropdownMenuItem
            key={target}
            disabled={target === role}
            onSelect={() =>
              fetcher.submit({ intent: "change-role", userId, role: target }, { method: "post" })
            }
          >
            {target === role ? <Check aria-hidden /> : <span aria-hidden className="size-4" />}
            Make {ROLE_LABELS[target]}
          </DropdownMenuItem>
        ))}
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
