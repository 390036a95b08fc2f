import { lazy, Suspense, useEffect, useRef, useState } from "react";
import { NavLink, useLocation } from "react-router";
import { ChevronDown, Menu, UserRound } from "~/components/icons";
import { Link } from "~/components/link";
import { EventsNavItem } from "~/components/mega-menu";
import { type AccountUser, type HeaderUser, MAIN_NAV } from "~/components/site-nav";
import { buttonVariants } from "~/components/ui/button";
import { useMenuOnIntent } from "~/components/ui/menu-on-intent";
import { ORGANISATION_NAME } from "~/lib/constants";
import { cn } from "~/lib/utils";
import type { MegaMenuData } from "~/models/site/navigation.server";

// Both are split out of the first-load bundle: the dropdown is only for signed-in users, and
// the mobile panel loads when its button is first touched.
// The Account dropdown (Radix menu, ~25 KB brotli) loads when someone reaches for it, not with
// every signed-in page: staff pages run on phones at the door (issue 30 item 8, decision 0095).
const loadAccountMenu = () => import("./account-menu");
const AccountMenu = lazy(loadAccountMenu);
const loadMobileNav = () => import("./mobile-nav");
const MobileNav = lazy(loadMobileNav);

const navLinkClass = ({ isActive }: { isActive: boolean }) =>
  cn(
    "rounded-md px-3 py-2 text-sm font-medium text-slate-700 transition-colors hover:bg-muted hover:text-foreground",
    isActive && "text-primary",
  );

export function SiteHeader({ user, megaMenu }: { user: HeaderUser; megaMenu: MegaMenuData }) {
  return (
    <header className="sticky top-0 z-40 border-b border-border bg-background">
      <div className="relative mx-auto flex h-16 max-w-7xl items-center justify-between gap-4 px-4 sm:px-6">
        <Link to="/" className="flex items-center gap-2 rounded-md font-bold text-foreground">
          <span
            aria-hidden
            className="flex size-8 items-center justify-center rounded-lg bg-primary text-primary-foreground"
          >
            K
          </span>
          <span className="text-lg tracking-tight">{ORGANISATION_NAME}</span>
        </Link>

        <nav aria-label="Main" className="hidden lg:block">
          <ul className="flex items-center gap-1">
            {MAIN_NAV.map((item) =>
              item.to === "/events" ? (
                <EventsNavItem key={item.to} data={megaMenu} />
              ) : (
                <li key={item.to}>
                  <NavLink to={item.to} end={item.to === "/"} className={navLinkClass}>
                    {item.label}
                  </NavLink>
                </li>
              ),
            )}
          </ul>
        </nav>

        <div className="hidden items-center gap-2 lg:flex">
          <Link to="/membership" className={buttonVariants()}>
            Join Network
          </Link>
          {user ? (
            <AccountMenuOnIntent user={user} />
          ) : (
            <Link to="/auth" className={buttonVariants({ variant: "outline" })}>
              Sign In
            </Link>
          )}
        </div>

        <MobileNavButton user={user} />
      </div>
    </header>
  );
}

/**
 * The Account button until the menu is wanted: the same look as the dropdown's trigger. Pointing
 * at it or focusing it fetches the menu; pressing it (or ArrowDown) opens the menu as soon as it
 * has arrived, already open, with focus inside as the dropdown does.
 */
function AccountMenuOnIntent({ user }: { user: AccountUser }) {
  const { wanted, triggerProps } = useMenuOnIntent(loadAccountMenu);
  const trigger = (
    <button
      type="button"
      className="inline-flex h-10 items-center gap-2 rounded-md border border-input px-3 text-sm font-medium hover:bg-muted"
      {...triggerProps}
    >
      <UserRound aria-hidden className="size-4" />
      Account
      <ChevronDown aria-hidden className="size-4" />
    </button>
  );
  if (!wanted) return trigger;
  return (
    <Suspense fallback={trigger}>
      <AccountMenu user={user} defaultOpen />
    </Suspense>
  );
}

function MobileNavButton({ user }: { user: HeaderUser }) {
  const [open, setOpen] = useState(false);
  const [wanted, setWanted] = useState(false);
  const location = useLocation();
  const buttonRef = useRef<HTMLButtonElement>(null);
  // Closed by a route change: focus belongs to the new page, not to the menu button.
  const navigated = useRef(false);

  // biome-ignore lint/correctness/useExhaustiveDependencies: the panel closes on every route change
  useEffect(() => {
    setOpen((wasOpen) => {
      if (wasOpen) navigated.current = true;
      return false;
    });
  }, [location.pathname, location.search]);

  const prefetch = () => {
    void loadMobileNav();
  };
  return (
    <>
      <button
        ref={buttonRef}
        type="button"
        className="inline-flex size-10 items-center justify-center rounded-md text-slate-700 hover:bg-muted lg:hidden"
        aria-label="Open menu"
        aria-haspopup="dialog"
        aria-expanded={open}
        onPointerEnter={prefetch}
        onTouchStart={prefetch}
        onFocus={prefetch}
        onClick={() => {
          setWanted(true);
          setOpen(true);
        }}
      >
        <Menu aria-hidden className="size-6" />
      </button>
      {wanted ? (
        <Suspense fallback={null}>
          <MobileNav
            open={open}
            onOpenChange={setOpen}
            user={user}
            onCloseAutoFocus={(event) => {
              event.preventDefault();
              if (!navigated.current) buttonRef.current?.focus();
              navigated.current = false;
            }}
          />
        </Suspense>
      ) : null}
    </>
  );
}
