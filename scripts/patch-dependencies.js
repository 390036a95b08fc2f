// npm's postinstall (and `node scripts/patch-dependencies.js` by hand): the small changes we make
// to installed dependencies, applied to the files npm just wrote. Each patch names the exact
// text it replaces; applying it twice changes nothing, and a dependency whose text no longer
// matches (a new version) is left as it is with a warning: the site still works, only without
// the patch, and `scripts/patch-dependencies.test.ts` fails until the patch is brought up to date.
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/**
 * React Router: route matching remembered per route table (decision 0071).
 *
 * Every document request matches its URL against the whole route table three times (the server
 * runtime, the static handler's query, and the partial manifest of `<Scripts>`), each time
 * trying every branch in rank order, with regular expressions and path joins, until one fits:
 * about a fifth of the main thread's time on an uncached page. The result depends only on the
 * table (a fixed, precomputed `branches` array) and the decoded path, so on the server it is
 * remembered: each caller gets its own copy of the match objects and their params, as before.
 * At most 1,000 paths are kept per table (URLs are chosen by visitors); then it starts afresh.
 */
export const MARKER = "/* kongamano: route-match memo (decision 0071) */";

export const ORIGINAL = `  let matches = null;
  let decoded = decodePath(pathname);
  for (let i = 0; matches == null && i < branches.length; ++i) {
    matches = matchRouteBranch(
      branches[i],
      decoded,
      allowPartial
    );
  }
  return matches;
}
`;

const PATCHED = `  let matches = null;
  let decoded = decodePath(pathname);
  ${MARKER}
  let memo = precomputedBranches && typeof document === "undefined" ? routeMatchMemoOf(precomputedBranches) : void 0;
  let memoKey = (allowPartial ? "partial:" : "full:") + decoded;
  if (memo && memo.has(memoKey)) return copyRouteMatches(memo.get(memoKey));
  for (let i = 0; matches == null && i < branches.length; ++i) {
    matches = matchRouteBranch(
      branches[i],
      decoded,
      allowPartial
    );
  }
  if (!memo) return matches;
  if (memo.size >= 1e3) memo.clear();
  memo.set(memoKey, matches);
  return copyRouteMatches(matches);
}
var routeMatchMemos = new WeakMap();
function routeMatchMemoOf(branches) {
  let memo = routeMatchMemos.get(branches);
  if (!memo) {
    memo = new Map();
    routeMatchMemos.set(branches, memo);
  }
  return memo;
}
function copyRouteMatches(matches) {
  if (matches == null) return null;
  let params = matches.length > 0 ? { ...matches[0].params } : {};
  return matches.map((match) => ({ ...match, params }));
}
`;

export const SIGNATURE =
  "function matchRoutesImpl(routes, locationArg, basename, allowPartial, precomputedBranches) {";

/** The source with the patch applied; `undefined` when the text it replaces is not there. */
export function patchReactRouterSource(source) {
  if (source.includes(MARKER)) return source;
  const start = source.indexOf(SIGNATURE);
  if (start === -1) return undefined;
  const body = source.indexOf(ORIGINAL, start);
  // The replaced text must be this function's own body, right after its first lines.
  if (body === -1 || body - start > 400) return undefined;
  return source.slice(0, body) + PATCHED + source.slice(body + ORIGINAL.length);
}

/** React Router's built files that define route matching (ESM and CommonJS, both builds). */
export function reactRouterFiles(root) {
  const dist = path.join(root, "node_modules", "react-router", "dist");
  let builds;
  try {
    builds = readdirSync(dist);
  } catch {
    return [];
  }
  return builds.flatMap((build) =>
    readdirSync(path.join(dist, build))
      .filter((name) => /^chunk-.*\.(m?js)$/.test(name))
      .map((name) => path.join(dist, build, name))
      .filter((file) => readFileSync(file, "utf8").includes(SIGNATURE)),
  );
}

function main() {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
  const files = reactRouterFiles(root);
  if (files.length === 0) {
    console.warn("patch-dependencies: React Router's route matching was not found; not patched");
    return;
  }
  for (const file of files) {
    const source = readFileSync(file, "utf8");
    const patched = patchReactRouterSource(source);
    const name = path.relative(root, file);
    if (patched === undefined) {
      console.warn(`patch-dependencies: ${name} has changed; route-match memo not applied`);
    } else if (patched !== source) {
      writeFileSync(file, patched);
    }
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
