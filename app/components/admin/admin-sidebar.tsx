import { Link, NavLink, useLocation } from "react-router";
import {
  ArrowLeft,
  Award,
  CalendarDays,
  Clock,
  FileText,
  Handshake,
  type IconComponent,
  Inbox,
  LayoutDashboard,
  MapPin,
  Menu,
  Mic,
  Send,
  ShieldCheck,
  Tags,
  Users,
  Wallet,
} from "~/components/icons";
import type { Role } from "~/lib/roles";
import { cn } from "~/lib/utils";

type NavItem = {
  to: string;
  label: string;
  icon: IconComponent;
  adminOnly?: boolean;
  end?: boolean;
};

/** The back-office sections (spec §2.15); admin-only ones are left out for editors. */
export const ADMIN_NAV: readonly NavItem[] = [
  { to: "/admin", label: "Dashboard", icon: LayoutDashboard, end: true },
  { to: "/admin/events", label: "Events", icon: CalendarDays },
  { to: "/admin/event-categories", label: "Categories & Types", icon: Tags },
  { to: "/admin/papers", label: "Papers", icon: FileText },
  { to: "/admin/calls", label: "Calls for Papers", icon: Send },
  { to: "/admin/speakers", label: "Speakers", icon: Mic },
  { to: "/admin/sponsors", label: "Sponsors", icon: Handshake },
  { to: "/admin/messages", label: "Messages", icon: Inbox },
  { to: "/admin/payments", label: "Payments", icon: Wallet },
  { to: "/admin/offices", label: "Offices", icon: MapPin, adminOnly: true },
  { to: "/admin/members", label: "Members", icon: Award, adminOnly: true },
  { to: "/admin/users", label: "Users", icon: Users, adminOnly: true },
  { to: "/admin/security", label: "Security Center", icon: ShieldCheck, adminOnly: true },
  { to: "/admin/jobs", label: "Scheduled Jobs", icon: Clock, adminOnly: true },
];

export function adminNavItems(role: Role) {
  return ADMIN_NAV.filter((item) => !item.adminOnly || role === "admin");
}

function AdminNav({ role }: { role: Role }) {
  return (
    <nav aria-label="Back office" className="grid gap-1">
      <Link
        to="/"
        className="mb-2 inline-flex items-center gap-2 rounded-md px-3 py-2 text-sm font-medium text-muted-foreground hover:bg-muted hover:text-foreground"
      >
        <ArrowLeft aria-hidden className="size-4" />
        Back to Site
      </Link>
      <ul className="grid gap-1">
        {adminNavItems(role).map(({ to, label, icon: Icon, end }) => (
          <li key={to}>
            <NavLink
              to={to}
              end={end}
              prefetch="intent"
              className={({ isActive }) =>
                cn(
                  "flex items-center gap-3 rounded-md px-3 py-2 text-sm font-medium transition-colors",
                  isActive
                    ? "bg-accent text-accent-foreground"
                    : "text-slate-700 hover:bg-muted hover:text-foreground",
                )
              }
            >
              <Icon aria-hidden className="size-4" />
              {label}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/**
 * The back-office sidebar: a fixed column from the `md` breakpoint, a collapsible menu above it
 * (a native <details>, so it also opens without JavaScript; it closes again on navigation).
 */
export function AdminSidebar({ role, userName }: { role: Role; userName: string }) {
  const location = useLocation();
  const who = (
    <p className="px-3 text-xs text-muted-foreground">
      Signed in as <span className="font-medium text-foreground">{userName}</span> ({role})
    </p>
  );
  return (
    <>
      <aside className="hidden w-60 shrink-0 md:block">
        <div className="sticky top-4 grid gap-4">
          <p className="px-3 text-xs font-semibold tracking-wide text-muted-foreground uppercase">
            Admin
          </p>
          <AdminNav role={role} />
          {who}
        </div>
      </aside>
      <details
        key={location.pathname}
        className="group mb-4 rounded-lg border border-border bg-card md:hidden"
      >
        <summary className="flex cursor-pointer list-none items-center gap-2 px-4 py-3 text-sm font-medium [&::-webkit-details-marker]:hidden">
          <Menu aria-hidden className="size-4" />
          Admin menu
        </summary>
        <div className="grid gap-3 border-t border-border p-3">
          <AdminNav role={role} />
          {who}
        </div>
      </details>
    </>
  );
}
