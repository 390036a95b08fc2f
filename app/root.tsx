import { lazy, Suspense, useCallback, useEffect, useRef, useState } from "react";
import {
  data,
  isRouteErrorResponse,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useMatches,
  useNavigation,
  useRouteLoaderData,
} from "react-router";
import { ChatWidget } from "~/components/chat-widget";
import { GeneralErrorBoundary } from "~/components/error-screens";
import { type HeadOffice, SiteFooter } from "~/components/site-footer";
import { SiteHeader } from "~/components/site-header";
import { STYLESHEET_PLACEHOLDER } from "~/lib/inline-stylesheet";
import { logger } from "~/lib/logger.server";
import { useNonce } from "~/lib/nonce";
import { loadToasts, useToasterWanted } from "~/lib/notify";
import { getOptionalUser } from "~/lib/permissions.server";
import { HEADQUARTERS } from "~/lib/site-content";
import { getToast, type Toast } from "~/lib/toast.server";
import { cn } from "~/lib/utils";
import { getMegaMenuData, type MegaMenuData } from "~/models/site/navigation.server";
import type { Route } from "./+types/root";
import stylesheetHref from "./app.css?url";

/*
 * The stylesheet (12 KB gzip) is inlined in every document instead of linked: on a phone the
 * first paint then waits for one request, not two (decision 0010). The server renders a
 * placeholder that entry.server.tsx replaces with the stylesheet's bytes, read once at start-up
 * (decision 0066); the client build only emits the file (and its fonts) and never carries its
 * text.
 */
const inlineStylesheet = import.meta.env.SSR ? STYLESHEET_PLACEHOLDER : "";

export const links: Route.LinksFunction = () => [
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
];

export const meta: Route.MetaFunction = ({ error }) => [
  {
    title: error
      ? isRouteErrorResponse(error) && error.status === 404
        ? "Page not found | Kongamano"
        : "Something went wrong | Kongamano"
      : "Kongamano — Global Information Management Network",
  },
  {
    name: "description",
    content:
      "Conferences, research papers and a global network for information-management professionals. Head office: Nairobi, Kenya.",
  },
];

export async function loader({ request }: Route.LoaderArgs) {
  const [user, { toast, headers }, megaMenu] = await Promise.all([
    getOptionalUser(request),
    getToast(request),
    // The shell still renders (without counts) when the menu data cannot be read.
    getMegaMenuData().catch((error): MegaMenuData => {
      logger.error({ err: error }, "mega menu data unavailable");
      return { types: [], categories: [] };
    }),
  ]);
  return data(
    {
      user: user ? { id: user.id, name: user.name, email: user.email, role: user.role } : null,
      toast,
      megaMenu,
      // Footer contact block; sent as data so the page bundle does not carry the site texts.
      headOffice: {
        name: HEADQUARTERS.name,
        city: HEADQUARTERS.city,
        country: HEADQUARTERS.country,
        phone: HEADQUARTERS.phone,
        email: HEADQUARTERS.email,
        hours: HEADQUARTERS.hours,
      } satisfies HeadOffice,
    },
    { headers: headers ?? undefined },
  );
}

/** The signed-in user as the root loader saw it (for components anywhere in the tree). */
export function useOptionalUser() {
  return useRouteLoaderData<typeof loader>("root")?.user ?? null;
}

export function Layout({ children }: { children: React.ReactNode }) {
  const nonce = useNonce();
  const rootData = useRouteLoaderData<typeof loader>("root");
  // A screen whose controls the floating chat button would cover (the check-in door) docks it
  // after the footer instead: still there, in the same place among the help (WCAG 3.2.6).
  const dockChat = useMatches().some(
    (match) => (match.handle as { dockChat?: boolean } | undefined)?.dockChat,
  );
  // Scripts start after the first paint (decision 0012): this marks the page as interactive.
  useEffect(() => {
    document.documentElement.dataset.hydrated = "";
  }, []);
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#0B5FFF" />
        <Meta />
        <style
          data-href={stylesheetHref}
          // The server's text stays; the browser never re-renders it (it has no copy).
          suppressHydrationWarning
          dangerouslySetInnerHTML={{ __html: inlineStylesheet }}
        />
        <Links />
      </head>
      <body className="flex min-h-screen flex-col">
        <NavigationProgress />
        <FocusFirstError />
        <a
          href="#main"
          className="sr-only focus:not-sr-only focus:fixed focus:left-4 focus:top-4 focus:z-50 focus:rounded focus:bg-primary focus:px-4 focus:py-2 focus:text-primary-foreground"
        >
          Skip to content
        </a>
        <SiteHeader
          user={rootData?.user ?? null}
          megaMenu={rootData?.megaMenu ?? { types: [], categories: [] }}
        />
        <div className="flex-1">{children}</div>
        <SiteFooter headOffice={rootData?.headOffice ?? null} />
        <ChatWidget docked={dockChat} />
        <Toasts toast={rootData?.toast ?? null} />
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

/**
 * After a form submission comes back with errors, the first field with an error gets focus (and
 * so scrolls into view below the sticky header), unless focus is already on a field in error.
 */
function FocusFirstError() {
  const navigation = useNavigation();
  const submitting = useRef(false);
  useEffect(() => {
    if (navigation.state === "submitting") {
      submitting.current = true;
      return;
    }
    if (navigation.state !== "idle" || !submitting.current) return;
    submitting.current = false;
    const frame = requestAnimationFrame(() => {
      const active = document.activeElement;
      if (active?.getAttribute("aria-invalid") === "true") return;
      const first = document.querySelector<HTMLElement>('main [aria-invalid="true"]');
      first?.focus();
    });
    return () => cancelAnimationFrame(frame);
  }, [navigation.state]);
  return null;
}

/**
 * Navigation loading state: a slim bar at the top and a status message for screen readers.
 * Shown only when a navigation takes longer than 150 ms, so quick ones do not flicker.
 */
function NavigationProgress() {
  const busy = useNavigation().state !== "idle";
  const [slow, setSlow] = useState(false);
  useEffect(() => {
    if (!busy) {
      setSlow(false);
      return;
    }
    const timer = setTimeout(() => setSlow(true), 150);
    return () => clearTimeout(timer);
  }, [busy]);
  const showing = busy && slow;
  return (
    <>
      <div
        aria-hidden
        data-testid="navigation-progress"
        data-state={showing ? "loading" : "idle"}
        className={cn(
          "pointer-events-none fixed inset-x-0 top-0 z-[60] h-0.5 origin-left bg-primary transition-[transform,opacity]",
          showing
            ? "scale-x-[0.8] opacity-100 duration-[2000ms] ease-out"
            : busy
              ? "scale-x-0 opacity-0 duration-0"
              : "scale-x-100 opacity-0 duration-300",
        )}
      />
      <div role="status" aria-live="polite" className="sr-only">
        {showing ? "Loading page..." : ""}
      </div>
    </>
  );
}

export default function App() {
  return <Outlet />;
}

// sonner is not needed to render or hydrate a page: its Toaster is mounted after hydration,
// outside the first-load bundle, and only on pages that show a toast (see ~/lib/notify).
// `onReady` fires once it listens for toasts.
const LazyToaster = lazy(async () => {
  const { Toaster } = await import("sonner");
  return {
    default: function ReadyToaster({ onReady }: { onReady: () => void }) {
      useEffect(onReady, [onReady]);
      return <Toaster richColors closeButton position="top-right" />;
    },
  };
});

/**
 * Toasts: the one the server sent with this page (cookie), and any raised by components (all
 * through ~/lib/notify, the back office's too). The Toaster is mounted when there is one of
 * those: a visit without a toast, signed in or not, never loads sonner (decision 0095).
 */
function Toasts({ toast }: { toast: Toast | null }) {
  const [mounted, setMounted] = useState(false);
  const [ready, setReady] = useState(false);
  const wanted = useToasterWanted();
  const onReady = useCallback(() => setReady(true), []);
  useEffect(() => setMounted(true), []);
  useEffect(() => {
    if (!ready || !toast) return;
    void loadToasts().then(({ toast: show }) => {
      const variant =
        toast.type === "error" ? show.error : toast.type === "success" ? show.success : show;
      variant(toast.title, { description: toast.description });
    });
  }, [ready, toast]);
  if (!mounted || !(wanted || toast)) return null;
  return (
    <Suspense fallback={null}>
      <LazyToaster onReady={onReady} />
    </Suspense>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
