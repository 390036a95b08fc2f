import { renderToString } from "react-dom/server";
import {
  createStaticHandler,
  createStaticRouter,
  data,
  type LoaderFunction,
  StaticRouterProvider,
} from "react-router";
import { describe, expect, it } from "vitest";
import { errorDetails, GENERIC_ERROR_DETAILS, GeneralErrorBoundary } from "./error-screens";

function FinePage() {
  return <p>fine</p>;
}

/** Server-renders one route whose loader fails, with the shared error boundary. */
async function renderFailingRoute(loader: LoaderFunction) {
  const handler = createStaticHandler([
    {
      id: "page",
      path: "/",
      loader,
      Component: FinePage,
      ErrorBoundary: GeneralErrorBoundary,
    },
  ]);
  const context = await handler.query(new Request("http://localhost/"));
  if (context instanceof Response) throw new Error("unexpected redirect");
  const router = createStaticRouter(handler.dataRoutes, context);
  return renderToString(<StaticRouterProvider router={router} context={context} hydrate={false} />);
}

describe("GeneralErrorBoundary", () => {
  it("shows the error fallback with its texts, details and both buttons", async () => {
    const html = await renderFailingRoute(() => {
      throw new Error("database exploded");
    });
    expect(html).toContain("Something went wrong");
    expect(html).toContain("An unexpected error occurred. This might be a temporary issue.");
    expect(html).toMatch(/<details[^>]*>.*<summary[^>]*>Error details<\/summary>/s);
    expect(html).toContain("Try Again");
    expect(html).toContain("Reload Page");
    expect(html).not.toContain("fine");
  });

  it("shows the not-found screen for a 404", async () => {
    const html = await renderFailingRoute(() => {
      throw new Response("Not Found", { status: 404 });
    });
    expect(html).toContain("Oops! Page not found");
    expect(html).toContain('href="/"');
    expect(html).toContain("Return to Home");
    expect(html).not.toContain("Something went wrong");
  });

  it("shows a refusal (an expired link) as a human page with its next steps, not the error fallback", async () => {
    const html = await renderFailingRoute(() => {
      throw data(
        {
          title: "This renewal link has expired",
          message: "Sign in and renew from your profile, or re-join from the membership page.",
          next: [
            { href: "/profile", label: "Sign in to renew" },
            { href: "/membership", label: "Re-join" },
          ],
        },
        { status: 410 },
      );
    });
    expect(html).toContain("<h1");
    expect(html).toContain("This renewal link has expired");
    expect(html).toContain("Sign in and renew from your profile");
    expect(html).toMatch(/href="\/profile"[^>]*>Sign in to renew/);
    expect(html).toMatch(/href="\/membership"[^>]*>Re-join/);
    expect(html).not.toContain("Something went wrong");
    expect(html).not.toContain("Internal Server Error");
  });

  it("shows a thrown response's own message as the details", async () => {
    const html = await renderFailingRoute(() => {
      throw new Response("Service paused for maintenance", { status: 503 });
    });
    expect(html).toContain("Something went wrong");
    expect(html).toContain("503: Service paused for maintenance");
  });
});

describe("errorDetails", () => {
  const error = new Error("secret connection string postgres://u:p@db");

  it("never shows an exception's message or stack in production", () => {
    expect(errorDetails(error, false)).toBe(GENERIC_ERROR_DETAILS);
    expect(errorDetails("boom", false)).toBe(GENERIC_ERROR_DETAILS);
  });

  it("shows the stack in development", () => {
    expect(errorDetails(error, true)).toContain("secret connection string");
    expect(errorDetails(error, true)).toContain("error-screens.test");
  });
});
