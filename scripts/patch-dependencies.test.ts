import { readFileSync } from "node:fs";
import path from "node:path";
import { createStaticHandler, type RouteObject } from "react-router";
import { describe, expect, it } from "vitest";
import {
  MARKER,
  ORIGINAL,
  patchReactRouterSource,
  reactRouterFiles,
  SIGNATURE,
} from "./patch-dependencies.js";

const root = path.resolve(import.meta.dirname, "..");

describe("React Router's route-match memo (decision 0071)", () => {
  it("is applied to every installed build of React Router's route matching", () => {
    const files = reactRouterFiles(root);
    // ESM and CommonJS, development and production builds.
    expect(files.length).toBeGreaterThanOrEqual(4);
    for (const file of files) {
      expect(readFileSync(file, "utf8"), path.relative(root, file)).toContain(MARKER);
    }
  });

  it("patches the original text once and refuses text it does not know", () => {
    // React Router 7.18's function as it ships: its first lines, then the text the patch replaces.
    const original = `${SIGNATURE}
  let location = typeof locationArg === "string" ? parsePath(locationArg) : locationArg;
  let pathname = stripBasename(location.pathname || "/", basename);
  if (pathname == null) {
    return null;
  }
  let branches = precomputedBranches ?? flattenAndRankRoutes(routes);
${ORIGINAL}`;
    const patched = patchReactRouterSource(original);
    expect(patched).toContain(MARKER);
    expect(patchReactRouterSource(patched as string)).toBe(patched);
    expect(patchReactRouterSource(original.replace("matches == null &&", "!matches &&"))).toBe(
      undefined,
    );
  });

  const routes: RouteObject[] = [
    {
      id: "root",
      path: "/",
      children: [
        { id: "home", index: true },
        { id: "events", path: "events" },
        { id: "event", path: "events/:slug" },
        { id: "paper", path: "papers/:slug/:file?" },
        { id: "admin-event", path: "admin/events/:id/edit" },
        { id: "uploads", path: "uploads/*" },
      ],
    },
  ];
  const handler = createStaticHandler(routes);
  const matchesOf = async (url: string) => {
    const context = await handler.query(new Request(`http://localhost${url}`));
    if (context instanceof Response) throw new Error(`unexpected response for ${url}`);
    return context.matches.map((m) => ({ id: m.route.id, params: m.params, path: m.pathname }));
  };

  it("matches a path asked again exactly as the first time, and others by their own params", async () => {
    const first = await matchesOf("/events/nairobi-summit");
    expect(first).toEqual([
      { id: "root", params: { slug: "nairobi-summit" }, path: "/" },
      { id: "event", params: { slug: "nairobi-summit" }, path: "/events/nairobi-summit" },
    ]);
    expect(await matchesOf("/events/nairobi-summit")).toEqual(first);
    expect((await matchesOf("/events/kampala-forum"))[1].params).toEqual({ slug: "kampala-forum" });
    expect((await matchesOf("/papers/open-data/pdf"))[1].params).toEqual({
      slug: "open-data",
      file: "pdf",
    });
    expect((await matchesOf("/uploads/a/b.png"))[1].params).toEqual({ "*": "a/b.png" });
    expect((await matchesOf("/"))[1].id).toBe("home");
    expect((await matchesOf("/events"))[1].id).toBe("events");
  });

  it("gives every caller its own params: changing one result does not change the next", async () => {
    const first = await matchesOf("/admin/events/42/edit");
    const params = first[1].params as Record<string, string>;
    params.id = "changed";
    params.extra = "added";
    expect((await matchesOf("/admin/events/42/edit"))[1].params).toEqual({ id: "42" });
  });

  it("still matches correctly after more distinct paths than it keeps", async () => {
    for (let i = 0; i < 1_100; i++) {
      const matches = await matchesOf(`/events/event-${i}`);
      expect(matches[1].params.slug).toBe(`event-${i}`);
    }
    expect((await matchesOf("/events/event-0"))[1].params).toEqual({ slug: "event-0" });
    const context = await handler.query(new Request("http://localhost/no/such/page"));
    expect(context instanceof Response ? context.status : context.statusCode).toBe(404);
  });
});
