import { useSubmit } from "react-router";
import { ChevronDown, LogOut, UserRound } from "~/components/icons";
import { Link } from "~/components/link";
import { type AccountUser, accountLinks } from "~/components/site-nav";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from "~/components/ui/dropdown-menu";

/** Signed-in 'Account' dropdown (spec §2.2). Loaded when wanted: no page ships it up front. */
export default function AccountMenu({
  user,
  defaultOpen = false,
}: {
  user: AccountUser;
  /** Opened by the press that loaded it (site-header's AccountMenuOnIntent). */
  defaultOpen?: boolean;
}) {
  const submit = useSubmit();
  return (
    <DropdownMenu modal={false} defaultOpen={defaultOpen}>
      <DropdownMenuTrigger className="inline-flex h-10 items-center gap-2 rounded-md border border-input px-3 text-sm font-medium hover:bg-muted">
        <UserRound aria-hidden className="size-4" />
        Account
        <ChevronDown aria-hidden className="size-4" />
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end" className="w-60">
        <DropdownMenuLabel className="font-normal">
          <span className="block truncate font-semibold">{user.name || "Signed in"}</span>
          <span className="block truncate text-xs text-muted-foreground">{user.email}</span>
        </DropdownMenuLabel>
        <DropdownMenuSeparator />
        {accountLinks(user.role).map(({ to, label, icon: Icon }) => (
          <DropdownMenuItem key={to} asChild>
            <Link to={to}>
              <Icon aria-hidden />
              {label}
            </Link>
          </DropdownMenuItem>
        ))}
        <DropdownMenuSeparator />
        <DropdownMenuItem
          onSelect={() => submit(null, { method: "post", action: "/auth/sign-out" })}
        >
          <LogOut aria-hidden />
          Sign Out
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
