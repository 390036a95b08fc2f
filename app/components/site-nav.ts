import { LayoutDashboard, ShieldCheck, UserRound } from "~/components/icons";
import { hasRole, type Role } from "~/lib/roles";

// The header, the account dropdown and the mobile panel all read these; they live below all three
// so the lazily loaded pieces never import the header back.
export type AccountUser = { name: string; email: string; role: Role };
export type HeaderUser = AccountUser | null;

/** Top navigation items (spec §2.2); 'Events' also opens the mega menu on wide screens. */
export const MAIN_NAV = [
  { to: "/", label: "Home" },
  { to: "/events", label: "Events" },
  { to: "/papers", label: "Research Papers" },
  { to: "/about", label: "About" },
  { to: "/offices", label: "Global Offices" },
  { to: "/contact", label: "Contact" },
] as const;

/** The account items a role sees (spec §2.2), in the dropdown and in the mobile panel. */
export function accountLinks(role: Role) {
  return [
    { to: "/profile", label: "Profile Settings", icon: UserRound },
    ...(hasRole(role, "editor")
      ? [{ to: "/admin", label: "Admin Dashboard", icon: LayoutDashboard }]
      : []),
    ...(hasRole(role, "admin")
      ? [{ to: "/admin/security", label: "Security Center", icon: ShieldCheck }]
      : []),
  ];
}
