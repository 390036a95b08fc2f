import { randomBytes, randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import path from "node:path";
import compression from "compression";
import express, { type NextFunction, type Request, type Response } from "express";
import expressStaticGzip from "express-static-gzip";
import pinoHttp from "pino-http";
import type { ServerBuild } from "react-router";
import type { ServeStaticOptions } from "serve-static";
import { type DatabaseHandle, openDatabase, setDatabase } from "~/db/client.server";
import { CLIENT_IP_HEADER } from "~/lib/auth.server";
import { onContentChanged, startContentChangeRelay } from "~/lib/content-version.server";
import { type Env, EnvError, parseEnv, setEnv } from "~/lib/env.server";
import { logger, redactHeaders, redactUrl } from "~/lib/logger.server";
import { paypalApprovalOrigin } from "~/lib/payments/paypal.server";
import { paystackCheckoutOrigin } from "~/lib/payments/paystack.server";
import { REQUEST_KEY_HEADER } from "~/lib/response-cookies.server";
import { startJobWorker } from "~/models/jobs.server";
import { enqueuePaybillRegistration } from "~/models/orders/mpesa-paybill.server";
import { startQueueRelay } from "~/models/registrations/queue.server";
import { seedIfEmpty } from "~/models/seed/seed.server";
import { wireProcess } from "~/models/wiring.server";
import { PER_REQUEST_BROTLI_PARAMS } from "./compress";
import { frameworkProblems, readiness } from "./framework-checks";
import {
  acceptedHostnames,
  refuseBenchedRegistrations,
  requireAcceptableBody,
  requireOwnHost,
  requireOwnOrigin,
  requireWellFormedUrl,
} from "./http-guards";
import { PageCache } from "./page-cache";
import { RenderGate } from "./render-gate";
import { createRequestHandler, pageCacheHits } from "./request-handler";
import { countRequest, siteIsBusy } from "./request-load";

declare module "react-router" {
  interface AppLoadContext {
    cspNonce: string;
    requestId: string;
  }
}

export interface AppOptions {
  env: Env;
  database: DatabaseHandle;
  /** Production: the built server bundle; development: a loader through Vite. */
  build: ServerBuild | (() => Promise<ServerBuild>);
  /** Directory of the built client assets (production only). */
  clientDir?: string;
  /** Development: Vite's middlewares, mounted before the React Router handler. */
  devMiddleware?: express.RequestHandler;
  /** What the start-up checks found wrong with the framework (shown on /readyz). */
  frameworkProblems?: readonly string[];
}

/**
 * Content-Security-Policy. `scriptSources` is a fresh per-response nonce, or for a page served
 * from the page cache the SHA-256 hashes of its inline scripts (decision 0036). Every exception
 * is explained.
 */
export function contentSecurityPolicy(scriptSources: string[], env: Env) {
  const images = ["'self'", "data:", "blob:"];
  if (env.S3_PUBLIC_URL) images.push(new URL(env.S3_PUBLIC_URL).origin); // uploads served by S3/CDN
  const forms = ["'self'"];
  // "Pay with PayPal" posts to our action, which redirects to PayPal's approval page (issue 31).
  if (env.PAYPAL_CLIENT_ID && env.PAYPAL_CLIENT_SECRET && env.PAYPAL_WEBHOOK_ID) {
    forms.push(paypalApprovalOrigin(env.PAYPAL_BASE_URL));
  }
  // "Pay by card" likewise redirects to Paystack's checkout page (issue 31).
  if (env.PAYSTACK_SECRET_KEY) forms.push(paystackCheckoutOrigin(env.PAYSTACK_BASE_URL));
  return [
    "default-src 'self'",
    // Scripts only with this response's nonce (or the cached page's hashes); 'strict-dynamic'
    // lets those load the route chunks.
    `script-src ${[...scriptSources, "'strict-dynamic'"].join(" ")}`,
    // Radix and our components set inline style attributes (positioning, progress widths).
    "style-src 'self' 'unsafe-inline'",
    `img-src ${images.join(" ")}`,
    "font-src 'self'",
    "connect-src 'self'",
    `form-action ${forms.join(" ")}`,
    "frame-ancestors 'none'",
    "object-src 'none'",
    "base-uri 'none'",
    "manifest-src 'self'",
    "worker-src 'self' blob:",
  ].join("; ");
}

const LOGGED_RESPONSE_HEADERS = new Set([
  "location",
  "content-type",
  "content-length",
  "content-encoding",
  "cache-control",
  "x-cache",
]);

type SerializedRequest = {
  id?: unknown;
  method?: string;
  url?: string;
  headers?: Record<string, unknown>;
  remoteAddress?: string;
};

/** Shared between the Express app and the shutdown handler. */
const lifecycle = { draining: false };

/** The headers every response carries, with the given Content-Security-Policy. */
function securityHeaders(csp: string, secure: boolean): Array<[string, string]> {
  return [
    ["Content-Security-Policy", csp],
    ["X-Content-Type-Options", "nosniff"],
    ["Referrer-Policy", "strict-origin-when-cross-origin"],
    ["X-Frame-Options", "DENY"],
    ["Cross-Origin-Opener-Policy", "same-origin"],
    // The camera only for our own pages: the check-in screen scans tickets with it (decision
    // 0049). A policy per path would not do: after a client-side navigation the document, and so
    // its policy, is still the one first loaded.
    ["Permissions-Policy", "camera=(self), microphone=(), geolocation=(), payment=()"],
    ...(secure
      ? [["Strict-Transport-Security", "max-age=63072000; includeSubDomains"] as [string, string]]
      : []),
  ];
}

export function createApp({
  env,
  database,
  build,
  clientDir,
  devMiddleware,
  frameworkProblems = [],
}: AppOptions) {
  const app = express();
  app.disable("x-powered-by");
  const https = env.BASE_URL.startsWith("https://");
  // Only addresses named in TRUST_PROXY may set X-Forwarded-For; otherwise req.ip is the socket's.
  app.set(
    "trust proxy",
    env.TRUST_PROXY
      ? env.TRUST_PROXY.split(",")
          .map((s) => s.trim())
          .filter(Boolean)
      : false,
  );

  // Rendered public pages for anonymous visitors, dropped on any content change.
  const cache = env.PAGE_CACHE ? new PageCache() : undefined;
  if (cache) onContentChanged(() => cache.clear());

  app.use(
    pinoHttp({
      logger,
      genReqId: (_req, res) => {
        const id = randomUUID();
        res.setHeader("X-Request-Id", id);
        return id;
      },
      customLogLevel: (_req, res, err) =>
        err || res.statusCode >= 500 ? "error" : res.statusCode >= 400 ? "warn" : "info",
      autoLogging: { ignore: (req) => req.url === "/healthz" || req.url === "/readyz" },
      // Only what an operator needs, never the query (`req.query` held reset tokens) and never a
      // URL-bearing header unredacted (Referer, Location).
      serializers: {
        req: (req: SerializedRequest) => ({
          id: req.id,
          method: req.method,
          url: redactUrl(req.url),
          headers: redactHeaders(req.headers),
          remoteAddress: req.remoteAddress,
        }),
        // The response headers that say what was sent (not the security headers every line repeats).
        res: (res: { statusCode?: number; headers?: Record<string, unknown> }) => ({
          statusCode: res.statusCode,
          headers: redactHeaders(
            Object.fromEntries(
              Object.entries(res.headers ?? {}).filter(([name]) =>
                LOGGED_RESPONSE_HEADERS.has(name),
              ),
            ),
          ),
        }),
      },
    }),
  );

  // Security headers on every response.
  app.use((req: Request, res: Response, next: NextFunction) => {
    // While shutting down, clients must not reuse this connection for another request.
    if (lifecycle.draining) res.setHeader("Connection", "close");
    const nonce = randomBytes(16).toString("base64");
    res.locals.cspNonce = nonce;
    const csp = contentSecurityPolicy([`'nonce-${nonce}'`], env);
    for (const [name, value] of securityHeaders(csp, req.secure || https)) {
      res.setHeader(name, value);
    }
    next();
  });

  app.get("/healthz", (_req, res) => {
    res.type("text/plain").send("ok");
  });
  app.get("/readyz", async (_req, res) => {
    if (lifecycle.draining) {
      res.status(503).type("text/plain").send("shutting down");
      return;
    }
    const { status, text } = readiness(await database.ping(), frameworkProblems);
    res.status(status).type("text/plain").send(text);
  });

  // Everything but the load balancer's probes (which may name the machine by its address).
  app.use(requireOwnHost(env.BASE_URL));
  app.use(requireWellFormedUrl);
  // Non-GET requests must come from our own origin (CSRF defence in depth beside SameSite=Lax).
  app.use(requireOwnOrigin(env.BASE_URL));
  app.use(requireAcceptableBody);

  if (clientDir && !devMiddleware) {
    // Built assets are sent as stored: the brotli or gzip copy made at build time when the
    // browser accepts it (decision 0035), never compressed per request (this comes before
    // compression). Fingerprinted assets never change: cache them for a year.
    const precompressed = (dir: string, serveStatic: ServeStaticOptions) =>
      expressStaticGzip(dir, { enableBrotli: true, orderPreference: ["br", "gzip"], serveStatic });
    app.use(
      "/assets",
      precompressed(path.join(clientDir, "assets"), {
        immutable: true,
        maxAge: "1y",
        index: false,
      }),
    );
    // Files at the root (favicon.svg) all have an extension; page paths skip the disk lookup.
    const rootFiles = precompressed(clientDir, { maxAge: "1h", index: false });
    app.use((req: Request, res: Response, next: NextFunction) =>
      path.extname(req.path) ? rootFiles(req, res, next) : next(),
    );
  }

  // Responses made per request and sent in pieces (streamed documents, data): compressed as
  // they go, brotli at quality 1 with a 64 KB window (decision 0068). A document rendered
  // whole is compressed in one call by the request handler instead, and cached pages are sent
  // as their stored brotli-11 copies; this middleware leaves both alone.
  app.use(compression({ brotli: { params: PER_REQUEST_BROTLI_PARAMS } }));
  if (devMiddleware) app.use(devMiddleware);

  // The client address better-auth and our rate limiters see: never a header the client sent.
  app.use((req: Request, _res: Response, next: NextFunction) => {
    req.headers[CLIENT_IP_HEADER] = req.ip ?? req.socket.remoteAddress ?? "unknown";
    req.headers[REQUEST_KEY_HEADER] = randomUUID();
    next();
  });

  app.use(refuseBenchedRegistrations);
  app.use(countRequest);
  app.use(
    createRequestHandler({
      build,
      origin: new URL(env.BASE_URL).origin,
      cache,
      cachePolicy: (scriptHashes) => contentSecurityPolicy(scriptHashes, env),
      databaseDown: async () => !(await database.ping()),
      renderGate:
        env.RENDER_CONCURRENCY > 0 ? new RenderGate(env.RENDER_CONCURRENCY, 1000) : undefined,
      mode: env.NODE_ENV === "production" ? "production" : "development",
      getLoadContext: (_req, res) => ({
        cspNonce: res.locals.cspNonce as string,
        requestId: String(res.getHeader("X-Request-Id") ?? ""),
      }),
    }),
  );

  if (!cache) return app;
  // A page-cache hit is answered before Express (decision 0036): stored compressed bytes with
  // the entry's own policy. Anything else, and everything while draining, goes to the app.
  const answerHit = pageCacheHits(cache, {
    ownHostnames: new Set(acceptedHostnames(env.BASE_URL)),
    https,
    securityHeaders: (csp) => securityHeaders(csp, https),
  });
  return (req: IncomingMessage, res: ServerResponse) => {
    if (lifecycle.draining || !answerHit(req, res)) app(req, res);
  };
}

export interface StartOptions {
  build: AppOptions["build"];
  clientDir?: string;
  devMiddleware?: express.RequestHandler;
}

/** Validates the environment, opens and migrates the database, seeds demo content, listens. */
export async function start(options: StartOptions) {
  let env: Env;
  try {
    env = parseEnv();
  } catch (error) {
    if (error instanceof EnvError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  setEnv(env);

  let database: DatabaseHandle;
  try {
    database = await openDatabase(
      env.DATABASE_URL ? { databaseUrl: env.DATABASE_URL, log: logger } : { dataDir: env.DATA_DIR },
    );
  } catch (error) {
    console.error((error as Error).message);
    process.exit(1);
  }
  setDatabase(database);
  await database.migrate();
  const seedDemo = env.SEED_DEMO ?? !env.DATABASE_URL;
  if (seedDemo) await seedIfEmpty({ demoAccounts: true });
  // With Redis, a content change on one instance clears the page caches of all instances.
  const relay = env.REDIS_URL ? await startContentChangeRelay(env.REDIS_URL) : undefined;
  // With Redis, a place freed in a registration waiting room wakes those waiting on every instance.
  const queueRelay = env.REDIS_URL ? await startQueueRelay(env.REDIS_URL) : undefined;
  // Jobs (decision 0020) and the reactions between domains, registered by name (style rule 12).
  wireProcess();
  const jobWorker = env.JOBS_WORKER
    ? startJobWorker({ pollMs: env.JOBS_POLL_MS, busy: siteIsBusy })
    : undefined;
  // M-Pesa online: register the Paybill's confirmation URLs with Daraja (a job, retried).
  if (env.JOBS_WORKER) {
    enqueuePaybillRegistration().catch((error) =>
      logger.warn({ err: error }, "could not schedule the M-Pesa URL registration"),
    );
  }

  // A framework patch that is missing slows pages but breaks none: said once here and on /readyz.
  const problems = frameworkProblems();
  for (const problem of problems) logger.error(problem);
  const app = createApp({ env, database, ...options, frameworkProblems: problems });
  const server: Server = createServer(app).listen(env.PORT, env.HOST, () => {
    logger.info(
      { port: env.PORT, database: database.kind, baseUrl: env.BASE_URL },
      `Kongamano is listening on ${env.BASE_URL}`,
    );
  });
  server.keepAliveTimeout = 65_000;
  installGracefulShutdown(
    server,
    async () => {
      await jobWorker?.stop(env.SHUTDOWN_TIMEOUT_MS);
      await relay?.close();
      await queueRelay?.close();
      await database.close();
    },
    env.SHUTDOWN_TIMEOUT_MS,
    env.SHUTDOWN_DRAIN_MS,
  );
  return { app, server, database, env };
}

/** SIGTERM/SIGINT: stop accepting, finish in-flight requests, close the database, exit 0. */
function installGracefulShutdown(
  server: Server,
  closeResources: () => Promise<void>,
  timeoutMs: number,
  drainMs: number,
) {
  let shuttingDown = false;
  const shutdown = async (signal: string) => {
    if (shuttingDown) return;
    shuttingDown = true;
    logger.info({ signal }, "shutting down: draining in-flight requests");
    // Readiness fails at once so a load balancer stops sending; requests already queued on the
    // listening socket are still accepted and served during the drain window.
    lifecycle.draining = true;
    await new Promise((r) => setTimeout(r, drainMs));
    const force = setTimeout(() => {
      logger.error("shutdown timed out; closing remaining connections");
      server.closeAllConnections();
    }, timeoutMs);
    force.unref();
    server.close(async () => {
      clearTimeout(force);
      try {
        await closeResources();
        logger.info("database closed; bye");
        process.exit(0);
      } catch (error) {
        logger.error({ err: error }, "error while closing the database");
        process.exit(1);
      }
    });
    server.closeIdleConnections();
    // Keep-alive sockets that finish a request are closed instead of waiting for their timeout.
    const idleSweep = setInterval(() => server.closeIdleConnections(), 100);
    idleSweep.unref();
  };
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
  process.on("SIGINT", () => void shutdown("SIGINT"));
}

/** The React Router build of this bundle (production: resolved once at start-up). */
export async function loadProductionBuild(): Promise<ServerBuild> {
  return import("virtual:react-router/server-build");
}
