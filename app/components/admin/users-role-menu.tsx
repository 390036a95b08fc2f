import { useEffect, useState } from "react";
import { Form, useFetcher } from "react-router";
import { Check, MoreHorizontal } from "~/components/icons";
import { Button, buttonVariants } from "~/components/ui/button";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from "~/components/ui/dropdown-menu";
import { ROLE_LABELS, ROLES_DESCENDING, type Role } from "~/lib/roles";
import { cn } from "~/lib/utils";

function useHydrated() {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return hydrated;
}

/**
 * The row menu of the user table (spec §2.15): Make Admin / Make Editor / Make User, the current
 * role disabled. A dropdown once the page is interactive; before that (or without JavaScript) a
 * native disclosure holding a plain form, so the action still works.
 */
export function UserRoleMenu({ userId, name, role }: { userId: string; name: string; role: Role }) {
  const hydrated = useHydrated();
  const fetcher = useFetcher();
  const busy = fetcher.state !== "idle";
  const label = `Actions for ${name}`;

  if (!hydrated) return <NoScriptRoleMenu userId={userId} label={label} role={role} />;

  return (
    <DropdownMenu>
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

function NoScriptRoleMenu({ userId, label, role }: { userId: string; label: string; role: Role }) {
  return (
    <details className="relative inline-block">
      <summary
        aria-label={label}
        className={cn(
          buttonVariants({ variant: "ghost", size: "icon" }),
          "cursor-pointer list-none [&::-webkit-details-marker]:hidden",
        )}
      >
        <MoreHorizontal aria-hidden />
      </summary>
      <Form
        method="post"
        className="absolute right-0 z-20 mt-1 grid min-w-44 gap-1 rounded-md border border-border bg-background p-1 shadow-md"
      >
        <input type="hidden" name="intent" value="change-role" />
        <input type="hidden" name="userId" value={userId} />
        {ROLES_DESCENDING.map((target) => (
          <button
            key={target}
            type="submit"
            name="role"
            value={target}
            disabled={target === role}
            className="rounded-sm px-2 py-1.5 text-left text-sm hover:bg-muted disabled:opacity-50"
          >
            Make {ROLE_LABELS[target]}
          </button>
        ))}
      </Form>
    </details>
  );
}
