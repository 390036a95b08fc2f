import { lazy, Suspense } from "react";
import { Form } from "react-router";
import { MoreHorizontal } from "~/components/icons";
import { Button, buttonVariants } from "~/components/ui/button";
import { useMenuOnIntent } from "~/components/ui/menu-on-intent";
import { ROLE_LABELS, ROLES_DESCENDING, type Role } from "~/lib/roles";
import { useHydrated } from "~/lib/use-hydrated";
import { cn } from "~/lib/utils";

// The Radix dropdown (~25 KB brotli) loads when someone reaches for a row's menu, not with the
// page: staff pages stay within their JavaScript budget on phones (decision 0095).
const loadRoleDropdown = () => import("./users-role-dropdown");
const RoleDropdown = lazy(loadRoleDropdown);

/**
 * The row menu of the user table (spec §2.15): Make Admin / Make Editor / Make User, the current
 * role disabled. A dropdown once the page is interactive, fetched when the button is pointed at
 * or focused and opened by the press that wanted it; before that (or without JavaScript) a
 * native disclosure holding a plain form, so the action still works.
 */
export function UserRoleMenu({ userId, name, role }: { userId: string; name: string; role: Role }) {
  const hydrated = useHydrated();
  const { wanted, triggerProps } = useMenuOnIntent(loadRoleDropdown);
  const label = `Actions for ${name}`;

  if (!hydrated) return <NoScriptRoleMenu userId={userId} label={label} role={role} />;

  const trigger = (
    <Button variant="ghost" size="icon" aria-label={label} {...triggerProps}>
      <MoreHorizontal aria-hidden />
    </Button>
  );
  if (!wanted) return trigger;
  return (
    <Suspense fallback={trigger}>
      <RoleDropdown userId={userId} label={label} role={role} defaultOpen />
    </Suspense>
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
