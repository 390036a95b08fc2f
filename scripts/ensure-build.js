// `npm start` on a fresh clone: build once if there is no build (or it is older than the sources).
import { execSync } from "node:child_process";
import { readdirSync, statSync } from "node:fs";
import path from "node:path";

const buildDir = path.resolve(process.env.BUILD_DIR ?? "build");
const marker = path.join(buildDir, "server", "index.js");

function newest(dir) {
  let latest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    latest = Math.max(latest, entry.isDirectory() ? newest(full) : statSync(full).mtimeMs);
  }
  return latest;
}

let builtAt = 0;
try {
  builtAt = statSync(marker).mtimeMs;
} catch {}
const sourcesAt = Math.max(newest("app"), newest("server"), newest("public"));
if (builtAt < sourcesAt) {
  console.log(
    builtAt
      ? "Sources changed since the last build: rebuilding…"
      : "First start: building the app…",
  );
  execSync("npx react-router build", { stdio: "inherit" });
}
