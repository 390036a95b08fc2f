import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { createStaticHandler, type RouteObject } from "react-router";
import { describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "..");
const reactRouter = path.join(root, "node_modules", "react-router");
const { version } = JSON.parse(readFileSync(path.join(reactRouter, "package.json"), "utf8"));
const patchFile = path.join(root, "patches", `react-router+${version}.patch`);

/** The patch as patch-package wrote it: each file it changes, with the lines it adds. */
function patchedFiles() {
  const files = new Map<string, string[]>();
  let added: string[] = [];
  for (const line of readFileSync(patchFile, "utf8").split("\n")) {
    const target = line.match(/^\+\+\+ b\/(.+)$/);
    if (target) {
      added = [];
      files.set(target[1], added);
    } else if (line.startsWith("+")) added.push(line.slice(1));
  }
  return files;
}

describe("React Router's route-match memo (patches/, decisions 0071 and 0077)", () => {
  it("is a patch for the installed version, carried by every build of its route matching", () => {
    // patch-package names the patch after the version it was made for; a new version needs a new patch.
    const files = patchedFiles();
    const matching = ["development", "production"].flatMap((build) =>
      readdirSync(path.join(reactRouter, "dist", build))
        .filter((name) => /^chunk-.*\.m?js$/.test(name))
        .map((name) => path.join("dist", build, name))
        .filter((file) =>
          readFileSync(path.join(reactRouter, file), "utf8").includes("function matchRoutesImpl("),
        ),
    );
    // ESM and CommonJS, development and production builds.
    expect(matching).toHaveLength(4);
    expect([...files.keys()].sort()).toEqual(
      matching.map((file) => `node_modules/react-router/${file}`).sort(),
    );
    for (const [file, added] of files) {
      const installed = readFileSync(path.join(root, file), "utf8");
      expect(added.length, file).toBeGreaterThan(10);
      for (const line of added) expect(installed, file).toContain(line);
    }
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
    expect((await matchesOf("/papers/open-data"))[1].params).toEqual({ slug: "open-data" });
    expect((await matchesOf("/uploads/a/b.png"))[1].params).toEqual({ "*": "a/b.png" });
    expect((await matchesOf("/"))[1].id).toBe("home");
    expect((await matchesOf("/events"))[1].id).toBe("events");
    expect((await matchesOf("/events"))[1].id).toBe("events");
  });

  it("gives every caller its own params: changing one result does not change the next", async () => {
    const first = await matchesOf("/admin/events/42/edit");
    const params = first[1].params as Record<string, string>;
    params.id = "changed";
    params.extra = "added";
    expect((await matchesOf("/admin/events/42/edit"))[1].params).toEqual({ id: "42" });
  });

  it("answers an unknown path 404, asked once or again", async () => {
    for (let i = 0; i < 2; i++) {
      const context = await handler.query(new Request("http://localhost/no/such/page"));
      expect(context instanceof Response ? context.status : context.statusCode).toBe(404);
    }
  });

  it("still matches correctly after more distinct paths than it keeps", async () => {
    for (let i = 0; i < 1_100; i++) {
      const matches = await matchesOf(`/events/event-${i}`);
      expect(matches[1].params.slug).toBe(`event-${i}`);
    }
    expect((await matchesOf("/events/event-0"))[1].params).toEqual({ slug: "event-0" });
    expect((await matchesOf("/events/event-1099"))[1].params).toEqual({ slug: "event-1099" });
  });
});
