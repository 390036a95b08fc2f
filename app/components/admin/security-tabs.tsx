import { Link } from "react-router";
import { cn } from "~/lib/utils";

export const SECURITY_TABS = [
  { id: "dashboard", label: "Dashboard" },
  { id: "users", label: "User Management" },
  { id: "activity", label: "Activity Log" },
] as const;
export type SecurityTab = (typeof SECURITY_TABS)[number]["id"];

export function securityTab(value: string | null): SecurityTab {
  return SECURITY_TABS.some((t) => t.id === value) ? (value as SecurityTab) : "dashboard";
}

/**
 * The Security Center's tabs (spec §2.15) as links: the tab lives in the URL (`?tab=activity`),
 * so it can be bookmarked, works without JavaScript and loads only its own data.
 */
export function SecurityTabs({ current }: { current: SecurityTab }) {
  return (
    <nav aria-label="Security Center sections" className="mb-6 overflow-x-auto">
      <ul className="inline-flex h-10 items-center rounded-lg bg-muted p-1 text-muted-foreground">
        {SECURITY_TABS.map((tab) => {
          const active = tab.id === current;
          return (
            <li key={tab.id}>
              <Link
                to={tab.id === "dashboard" ? "/admin/security" : `/admin/security?tab=${tab.id}`}
                aria-current={active ? "page" : undefined}
                preventScrollReset
                className={cn(
                  "inline-flex items-center rounded-md px-3 py-1.5 text-sm font-medium whitespace-nowrap focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring",
                  active
                    ? "bg-background text-foreground shadow-sm"
                    : "text-slate-700 hover:text-foreground",
                )}
              >
                {tab.label}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
