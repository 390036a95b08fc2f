// npm run test:two-instances — two app instances behind nginx, sharing PostgreSQL, Redis and
// S3-compatible storage (s3rver), all on 127.0.0.1. Checks that a session made on one instance
// works on the other, rate limits are shared, an upload made through one is served by the other,
// and a content change on one clears the page cache of the other.
import { execSync, spawn } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import S3rver from "s3rver";
import sharp from "sharp";
import { startBuiltServer } from "../bench/lib";

const work = mkdtempSync(path.join(tmpdir(), "kongamano-two-"));
const dbUrl = "postgres://postgres@127.0.0.1:5432/kongamano_two_instances";
execSync(
  `psql "postgres://postgres@127.0.0.1:5432/postgres" -qc "drop database if exists kongamano_two_instances with (force)" -c "create database kongamano_two_instances"`,
);
const s3 = new S3rver({
  address: "127.0.0.1",
  port: 0,
  silent: true,
  directory: path.join(work, "s3"),
  configureBuckets: [{ name: "kongamano", configs: [] }],
});
const { port: s3Port } = await s3.run();

const proxyPort = 4975;
const proxyUrl = `http://127.0.0.1:${proxyPort}`;
// Requests "on A" and "on B" still pass through nginx with the site's Host, as in production.
const viaA = `http://127.0.0.1:${proxyPort + 1}`;
const viaB = `http://127.0.0.1:${proxyPort + 2}`;
const shared = {
  DATABASE_URL: dbUrl,
  REDIS_URL: "redis://127.0.0.1:6379",
  S3_ENDPOINT: `http://127.0.0.1:${s3Port}`,
  S3_BUCKET: "kongamano",
  S3_ACCESS_KEY_ID: "S3RVER",
  S3_SECRET_ACCESS_KEY: "S3RVER",
  SESSION_SECRET: "two-instances-secret-two-instances-secret",
  SEED_DEMO: "true",
  TRUST_PROXY: "loopback",
  // The editor signs in with a password only here (the MFA set-up would stand in front of /admin).
  REQUIRE_EDITOR_MFA: "false",
  BASE_URL: proxyUrl,
};
execSync(
  "redis-cli --no-raw eval \"for _,k in ipairs(redis.call('keys','ratelimit:*')) do redis.call('del',k) end\" 0",
);
const a = await startBuiltServer({ ...shared, BASE_URL: proxyUrl }, 4971);
const b = await startBuiltServer({ ...shared, BASE_URL: proxyUrl }, 4972);

writeFileSync(
  path.join(work, "nginx.conf"),
  `daemon off; pid ${work}/nginx.pid; error_log ${work}/error.log;
events {}
http {
  access_log off;
  client_body_temp_path ${work}/body; proxy_temp_path ${work}/proxy;
  upstream kongamano { server 127.0.0.1:4971; server 127.0.0.1:4972; }
  server {
    listen 127.0.0.1:${proxyPort};
    client_max_body_size 25m;
    # No X-Forwarded-Proto: the site is plain http here (BASE_URL http://), and an http site never
    # answers a request that came through a TLS proxy from its page cache (server/request-handler.ts).
    location / {
      proxy_pass http://kongamano;
      proxy_set_header Host $http_host;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
    }
  }
  # The same site pinned to one instance, so a check can say which instance served it.
${[viaA, viaB]
  .map(
    (via, i) => `  server {
    listen 127.0.0.1:${new URL(via).port};
    client_max_body_size 25m;
    location / {
      proxy_pass http://127.0.0.1:${4971 + i};
      proxy_set_header Host 127.0.0.1:${proxyPort};
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
    }
  }`,
  )
  .join("\n")}
}`,
);
const nginx = spawn(
  "nginx",
  ["-c", path.join(work, "nginx.conf"), "-e", path.join(work, "error.log")],
  { stdio: "inherit" },
);
// Without nginx the instances would be left running: stop them before failing.
nginx.once("error", async (error) => {
  console.error(
    `nginx did not start (${error.message}); install it, e.g. apt-get install nginx-light`,
  );
  await Promise.all([a.stop(), b.stop()]);
  process.exit(1);
});
await new Promise((r) => setTimeout(r, 500));

const results: Array<[string, boolean, string]> = [];
const check = (name: string, ok: boolean, detail: string) => {
  results.push([name, ok, detail]);
  console.log(`${ok ? "PASS" : "FAIL"}  ${name}: ${detail}`);
};
const cookieOf = (response: Response) =>
  response.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");

try {
  // Both instances answer through the proxy.
  const seen = new Set<string>();
  for (let i = 0; i < 6; i++)
    seen.add((await fetch(`${proxyUrl}/readyz`)).status === 200 ? `ok${i % 2}` : "bad");
  check("proxy", !seen.has("bad"), "both upstreams ready behind nginx");

  // A session made on A works on B.
  const signIn = await fetch(`${viaA}/api/auth/sign-in/email`, {
    method: "POST",
    headers: {
      "Content-Type": "application/json",
      "X-Forwarded-For": "10.1.1.1",
      Origin: proxyUrl,
    },
    body: JSON.stringify({ email: "editor@kongamano.org", password: "Kongamano-demo-2026" }),
  });
  const cookie = cookieOf(signIn);
  const adminOnB = await fetch(`${viaB}/admin`, { headers: { cookie }, redirect: "manual" });
  check(
    "session",
    signIn.ok && adminOnB.status === 200,
    `sign-in on A ${signIn.status}, /admin on B ${adminOnB.status}`,
  );

  // Rate limits are shared: failures on A count on B.
  const attempt = (url: string) =>
    fetch(`${url}/api/auth/sign-in/email`, {
      method: "POST",
      headers: {
        "Content-Type": "application/json",
        "X-Forwarded-For": "10.2.2.2",
        Origin: proxyUrl,
      },
      body: JSON.stringify({ email: "member@kongamano.org", password: "wrong-password" }),
    }).then((r) => r.status);
  const statuses = [
    await attempt(viaA),
    await attempt(viaB),
    await attempt(viaA),
    await attempt(viaB),
  ];
  check("rate limit", statuses[3] === 429, `attempts A,B,A,B → ${statuses.join(", ")}`);

  // An upload made through A is served by B.
  const png = await sharp({ create: { width: 40, height: 30, channels: 3, background: "#0B5FFF" } })
    .png()
    .toBuffer();
  const upload = await fetch(`${viaA}/admin/uploads?kind=image`, {
    method: "POST",
    headers: { cookie, "Content-Type": "image/png", Origin: proxyUrl },
    body: png,
  });
  const { url = "" } = (await upload.json().catch(() => ({}))) as { url?: string };
  const served = await fetch(`${viaB}${url}`);
  check(
    "upload",
    upload.status === 201 && served.status === 200,
    `POST on A ${upload.status} → ${url}; GET on B ${served.status} ${served.headers.get("content-type")}`,
  );

  // A content change on A clears B's page cache. Entries are stored after the response is sent
  // (server/request-handler.ts), so the warm-up asks again until B answers from its cache.
  const cachedOnB = async (want: "HIT" | "MISS", withinMs: number) => {
    const deadline = Date.now() + withinMs;
    let seen: string | null = null;
    let html = "";
    do {
      const response = await fetch(`${viaB}/events`);
      seen = response.headers.get("x-cache");
      html = await response.text();
      if (seen === want) break;
      await new Promise((r) => setTimeout(r, 100));
    } while (Date.now() < deadline);
    return { seen, html };
  };
  const warm = await cachedOnB("HIT", 5_000);
  const hitAgain = (await fetch(`${viaB}/events`)).headers.get("x-cache");
  const name = `Two Instance Category ${Date.now()}`;
  const create = await fetch(`${viaA}/admin/event-categories/new`, {
    method: "POST",
    headers: { cookie, "Content-Type": "application/x-www-form-urlencoded", Origin: proxyUrl },
    body: new URLSearchParams({ name, color: "#0B5FFF" }),
    redirect: "manual",
  });
  if (create.status >= 400) console.error((await create.text()).slice(0, 2000));
  // B hears of the change through Redis (pub/sub): its next answers stop being the old entry.
  // Without the notice B would keep answering HIT for the entry's whole TTL (60 s).
  const started = Date.now();
  const after = await cachedOnB("MISS", 3_000);
  const noticeMs = Date.now() - started;
  check(
    "cache invalidation",
    warm.seen === "HIT" && hitAgain === "HIT" && create.status < 400 && after.seen === "MISS",
    `B before: ${warm.seen}, ${hitAgain}; change on A: ${create.status}; B after: ${after.seen} within ${noticeMs} ms`,
  );
  // The page B renders after the notice is the new one: B re-read what A changed.
  const fresh = await cachedOnB("HIT", 5_000);
  check(
    "fresh page on B",
    after.html.includes(name) && fresh.seen === "HIT" && fresh.html.includes(name),
    `B's next /events lists the category made on A (${after.html.includes(name)}) and is cached again (${fresh.seen})`,
  );
} finally {
  nginx.kill("SIGQUIT");
  await Promise.all([a.stop(), b.stop()]);
  await s3.close();
}
const failed = results.filter(([, ok]) => !ok);
if (failed.length) {
  console.error(`${failed.length} check(s) failed`);
  process.exit(1);
}
