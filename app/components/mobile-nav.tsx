import { Form, NavLink } from "react-router";
import { LogIn, LogOut } from "~/components/icons";
import { Link } from "~/components/link";
import { QUICK_ACCESS_LINKS } from "~/components/mega-menu";
import { type AccountUser, accountLinks, MAIN_NAV } from "~/components/site-nav";
import { buttonVariants } from "~/components/ui/button";
import { Sheet, SheetContent, SheetDescription, SheetTitle } from "~/components/ui/sheet";
import { cn } from "~/lib/utils";

const itemClass = ({ isActive }: { isActive: boolean }) =>
  cn(
    "block rounded-md px-3 py-2 text-base font-medium text-slate-800 hover:bg-muted",
    isActive && "bg-accent text-accent-foreground",
  );

/**
 * The mobile navigation: a 300px panel sliding in from the right with the same items as the
 * top navigation (spec §2.2). Loaded on first use, so pages do not ship it up front.
 */
export default function MobileNav({
  open,
  onOpenChange,
  onCloseAutoFocus,
  user,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** Where focus goes when the panel closes (the panel has no Radix trigger to return to). */
  onCloseAutoFocus?: (event: Event) => void;
  user: AccountUser | null;
}) {
  return (
    <Sheet open={open} onOpenChange={onOpenChange}>
      <SheetContent side="right" data-testid="mobile-nav" onCloseAutoFocus={onCloseAutoFocus}>
        <SheetTitle className="text-lg font-semibold">Menu</SheetTitle>
        <SheetDescription className="sr-only">Site navigation</SheetDescription>
        <nav aria-label="Mobile">
          <ul className="space-y-1">
            {MAIN_NAV.map((item) => (
              <li key={item.to}>
                <NavLink to={item.to} end={item.to === "/"} className={itemClass}>
                  {item.label}
                </NavLink>
                {item.to === "/events" ? (
                  <ul className="mt-1 mb-2 ml-3 space-y-1 border-l border-border pl-3">
                    {QUICK_ACCESS_LINKS.slice(1).map(({ to, label }) => (
                      <li key={to}>
                        <Link
                          to={to}
                          className="block rounded-md px-2 py-1.5 text-sm text-slate-700 hover:bg-muted"
                        >
                          {label}
                        </Link>
                      </li>
                    ))}
                  </ul>
                ) : null}
              </li>
            ))}
          </ul>
        </nav>
        <div className="mt-2 space-y-2 border-t border-border pt-4">
          <Link to="/membership" className={cn(buttonVariants(), "w-full")}>
            Join Network
          </Link>
          {user ? (
            <section aria-label="Account" className="space-y-1 pt-2">
              <p className="px-3 text-xs font-semibold tracking-wide text-muted-foreground uppercase">
                Account
              </p>
              {accountLinks(user.role).map(({ to, label, icon: Icon }) => (
                <NavLink key={to} to={to} end className={itemClass}>
                  <span className="flex items-center gap-2">
                    <Icon aria-hidden className="size-4" />
                    {label}
                  </span>
                </NavLink>
              ))}
              <Form method="post" action="/auth/sign-out">
                <button
                  type="submit"
                  className="flex w-full items-center gap-2 rounded-md px-3 py-2 text-left text-base font-medium text-slate-800 hover:bg-muted"
                >
                  <LogOut aria-hidden className="size-4" />
                  Sign Out
                </button>
              </Form>
            </section>
          ) : (
            <Link to="/auth" className={cn(buttonVariants({ variant: "outline" }), "w-full")}>
              <LogIn aria-hidden />
              Sign In
            </Link>
          )}
        </div>
      </SheetContent>
    </Sheet>
  );
}
