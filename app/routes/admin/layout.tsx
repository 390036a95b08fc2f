import { Outlet, useLoaderData, useLocation, useNavigation } from "react-router";
import { AdminSidebar } from "~/components/admin/admin-sidebar";
import { Spinner } from "~/components/ui/spinner";
import { requireRole } from "~/lib/permissions.server";
import type { Route } from "./+types/layout";

// The back office's frame (spec §2.15). Each page checks the role again in its own loader and
// action; this guard only decides what the sidebar shows.
export async function loader({ request }: Route.LoaderArgs) {
  const { pathname } = new URL(request.url);
  // Spec §2.15: the dashboard sends anonymous visitors to /auth; other admin screens to /.
  const isDashboard = pathname.replace(/\/+$/, "") === "/admin";
  const user = await requireRole(request, "editor", isDashboard ? { anonymousTo: "/auth" } : {});
  return { user: { name: user.name, role: user.role } };
}

// Back-office pages are personal and never cached by shared caches.
export function headers() {
  return { "Cache-Control": "private, no-store" };
}

/** 'Verifying permissions...' while a client navigation to another screen waits for its
 * loaders (which re-check the role); 'Loading...' while the same screen reloads. */
function NavigationStatus() {
  const navigation = useNavigation();
  const location = useLocation();
  if (navigation.state !== "loading" || !navigation.location) return null;
  const target = navigation.location.pathname;
  if (!target.startsWith("/admin")) return null;
  const label = target === location.pathname ? "Loading..." : "Verifying permissions...";
  return (
    <Spinner
      label={label}
      className="fixed inset-x-0 top-0 z-40 justify-center border-b border-border bg-background py-2 text-sm text-foreground shadow-sm"
    />
  );
}

export default function AdminLayout() {
  const { user } = useLoaderData<typeof loader>();
  const navigation = useNavigation();
  const busy = navigation.state === "loading" && !navigation.formMethod;
  return (
    <div className="mx-auto w-full max-w-7xl px-4 py-6 md:flex md:gap-8 md:py-8">
      <AdminSidebar role={user.role} userName={user.name} />
      <main id="main" aria-busy={busy || undefined} className="min-w-0 flex-1">
        <NavigationStatus />
        <Outlet />
      </main>
    </div>
  );
}
