/**
 * Checks every request passes before it reaches the app (issue 13 §3, §4, §6): the Host it names,
 * the shape of its URL, where a state change comes from, and the size and type of its body.
 * Each refusal is a short plain-text 4xx, never cached.
 */
import type { NextFunction, Request, Response } from "express";
import { sessionTokenOf } from "~/lib/auth.server";
import { benchedSession } from "~/lib/rate-limit.server";
import { MAX_PDF_BYTES } from "~/lib/uploads.server";
import { MAX_MANUSCRIPT_BYTES } from "~/models/cfp/manuscripts.server";
import { MAX_PROOF_BYTES } from "~/models/orders/payment-proof.server";

/** Form and JSON bodies (every action but the uploads): far above any real form, far below harm. */
export const MAX_FORM_BODY_BYTES = 1024 * 1024;
/**
 * The upload routes read their bodies as streams with their own per-kind limits; this ceiling
 * only refuses a declared size no upload can have (the largest file plus the form around it).
 */
export const MAX_UPLOAD_BODY_BYTES = MAX_PDF_BYTES + 1024 * 1024;

/** The upload endpoint: a raw file of any declared type (the route decides by the bytes). */
const RAW_UPLOAD = /^\/admin\/uploads$/;
/** A form with a payment or student proof: the file (at most 5 MB) and the form around it. */
export const MAX_PROOF_FORM_BYTES = MAX_PROOF_BYTES + 64 * 1024;
/** A paper submission or revision form (issue 32): a manuscript of at most 10 MB and its form. */
export const MAX_MANUSCRIPT_FORM_BYTES = MAX_MANUSCRIPT_BYTES + 512 * 1024;
/**
 * A proof form over its cap is read to the end (and thrown away) up to this size, so the browser
 * still uploading gets the form's answer instead of a reset connection; beyond it, a bare 413.
 */
const PROOF_DRAIN_BYTES = 32 * 1024 * 1024;
/**
 * Forms that may carry a file (with their single-fetch `.data` twins): a larger cap, and the
 * paper form streams its PDF in itself (its route counts the bytes). A proof form over its cap
 * reaches its action with an empty body and its real size in Content-Length, and the action
 * answers with the form's message ("The proof file must be at most 5 MB.") and 400.
 */
const FILE_FORMS: Array<{ path: RegExp; limit: number; stream: boolean; oversizeToAction?: true }> =
  [
    { path: RAW_UPLOAD, limit: MAX_UPLOAD_BODY_BYTES, stream: true },
    {
      path: /^\/admin\/papers\/(new|[^/]+\/edit)(\.data)?$/,
      limit: MAX_UPLOAD_BODY_BYTES,
      stream: true,
    },
    {
      path: /^\/admin\/payments(\.data)?$/,
      limit: MAX_PROOF_FORM_BYTES,
      stream: false,
      oversizeToAction: true,
    },
    {
      // The author's submission, draft and revision forms; over the cap the action says so.
      path: /^\/(papers\/calls\/[^/]+\/submit|profile\/submissions\/[^/]+(\/edit)?)(\.data)?$/,
      limit: MAX_MANUSCRIPT_FORM_BYTES,
      stream: false,
      oversizeToAction: true,
    },
    {
      path: /^\/membership\/apply\/[^/]+$/,
      limit: MAX_PROOF_FORM_BYTES,
      stream: false,
      oversizeToAction: true,
    },
  ];
/** better-auth answers its own endpoints (content types, origin of cookie-bearing requests). */
const AUTH_API = /^\/api\/auth(\/|$)/;
/**
 * Daraja's callbacks (issue 34): JSON from a server, with no Origin; small bodies only. Their
 * route treats every one as a hint to confirm with Daraja, never as proof.
 */
const PAYMENT_HOOKS = /^\/api\/payments\/hooks\//;
export const MAX_HOOK_BODY_BYTES = 16 * 1024;
/** What the app's forms send (React Router submits urlencoded or multipart, never JSON). */
const FORM_TYPES = new Set(["application/x-www-form-urlencoded", "multipart/form-data"]);
const LOOPBACK_HOSTS = ["localhost", "127.0.0.1", "[::1]"];

function refuse(res: Response, status: number, text: string, close = false) {
  res.status(status).setHeader("Cache-Control", "no-store");
  if (close) res.setHeader("Connection", "close");
  res.type("text/plain").send(text);
}

export function hostnameOf(host: string | undefined) {
  if (!host) return undefined;
  try {
    return new URL(`http://${host}`).hostname;
  } catch {
    return undefined;
  }
}

/**
 * The host names this instance answers to: BASE_URL's, and when that is a loopback name the
 * other loopback names too (a developer's browser on 127.0.0.1 with BASE_URL http://localhost).
 */
export function acceptedHostnames(baseUrl: string) {
  const { hostname } = new URL(baseUrl);
  return LOOPBACK_HOSTS.includes(hostname) ? LOOPBACK_HOSTS : [hostname];
}

/** The origins a state-changing request may come from (same rule as the host names). */
export function acceptedOrigins(baseUrl: string) {
  const base = new URL(baseUrl);
  return acceptedHostnames(baseUrl).map((hostname) => {
    const url = new URL(base.origin);
    url.hostname = hostname;
    return url.origin;
  });
}

/**
 * 421 Misdirected Request for a Host that is not ours. X-Forwarded-Host is never read: the
 * proxy in front forwards the visitor's Host, and nothing the app builds depends on it anyway.
 * The port is not compared (proxies differ in forwarding it; absolute URLs come from BASE_URL).
 */
export function requireOwnHost(baseUrl: string) {
  const accepted = new Set(acceptedHostnames(baseUrl));
  return (req: Request, res: Response, next: NextFunction) => {
    const hostname = hostnameOf(req.headers.host);
    if (hostname && accepted.has(hostname)) return next();
    refuse(res, 421, "Misdirected Request: this server does not answer for that host");
  };
}

/**
 * 400 for a URL no page can have: absolute-form request targets (`GET http://other/ HTTP/1.1`),
 * undecodable percent-encoding in the path, and NUL bytes anywhere (PostgreSQL refuses them in
 * text, so they would otherwise surface as database errors).
 */
export function requireWellFormedUrl(req: Request, res: Response, next: NextFunction) {
  const url = req.url;
  if (!url.startsWith("/") || url.startsWith("//")) {
    return refuse(res, 400, "Bad Request: malformed request target");
  }
  const queryAt = url.indexOf("?");
  const path = queryAt === -1 ? url : url.slice(0, queryAt);
  let decodedPath: string;
  try {
    decodedPath = decodeURIComponent(path);
  } catch {
    return refuse(res, 400, "Bad Request: malformed URL encoding");
  }
  const query = queryAt === -1 ? "" : url.slice(queryAt + 1);
  if (decodedPath.includes("\0") || /%00/i.test(query) || query.includes("\0")) {
    return refuse(res, 400, "Bad Request: NUL byte in URL");
  }
  next();
}

/**
 * State changes only from our own pages: a foreign Origin is refused, and so is a request with
 * neither Origin nor Referer (browsers send Origin on every POST; see decision 0019). better-auth
 * keeps its own rule for requests without either (it refuses those carrying cookies).
 */
export function requireOwnOrigin(baseUrl: string) {
  const accepted = new Set(acceptedOrigins(baseUrl));
  return (req: Request, res: Response, next: NextFunction) => {
    if (req.method === "GET" || req.method === "HEAD" || req.method === "OPTIONS") return next();
    const origin = req.get("origin");
    const referer = req.get("referer");
    let source: string | undefined = origin;
    if (!source && referer) {
      try {
        source = new URL(referer).origin;
      } catch {
        source = "invalid";
      }
    }
    if (source === undefined && (AUTH_API.test(req.path) || PAYMENT_HOOKS.test(req.path))) {
      return next();
    }
    if (source !== undefined && accepted.has(source)) return next();
    refuse(res, 403, "Cross-origin request refused");
  };
}

const bodies = new WeakMap<Request, Buffer>();

/** The body requireAcceptableBody read into memory, if it did (else the stream is unread). */
export function bufferedBody(req: Request) {
  return bodies.get(req);
}

/**
 * Bodies of state-changing requests: 413 before reading when the declared length is over the
 * cap; a chunked body is counted as it arrives and cut off at the cap; 415 for a content type
 * no action reads, 400 for a multipart body that does not parse. Form bodies are read here (at
 * most 1 MB, 5 MB with a payment or student proof), cleaned of control characters and handed on
 * as bytes; the upload endpoint and the paper form keep their streams and their own limits.
 */
export async function requireAcceptableBody(req: Request, res: Response, next: NextFunction) {
  if (req.method === "GET" || req.method === "HEAD" || req.method === "OPTIONS") return next();
  const rawUpload = RAW_UPLOAD.test(req.path);
  const fileForm = FILE_FORMS.find((form) => form.path.test(req.path));
  const hook = PAYMENT_HOOKS.test(req.path);
  const limit = hook ? MAX_HOOK_BODY_BYTES : (fileForm?.limit ?? MAX_FORM_BODY_BYTES);
  const drainTo = fileForm?.oversizeToAction ? PROOF_DRAIN_BYTES : 0;
  if (Number(req.headers["content-length"] ?? 0) > Math.max(limit, drainTo)) {
    return refuse(res, 413, "Payload Too Large", true);
  }
  const contentType = req.headers["content-type"] ?? "";
  const mediaType = contentType.split(";")[0].trim().toLowerCase();
  if (hook && mediaType !== "application/json") {
    return refuse(res, 415, "Unsupported Media Type: send JSON");
  }
  const appForm = !rawUpload && !AUTH_API.test(req.path) && !hook;
  // An action reads request.formData(), which throws (a 500) on anything but a form.
  if (appForm && !FORM_TYPES.has(mediaType)) {
    return refuse(res, 415, "Unsupported Media Type: send a form");
  }
  if (fileForm?.stream) return next();

  let read: { body: Buffer; size: number };
  try {
    read = await readWithLimit(req, limit, drainTo);
  } catch (error) {
    if (error instanceof BodyTooLarge) return refuse(res, 413, "Payload Too Large", true);
    return refuse(res, 400, "Bad Request: the body could not be read", true);
  }
  if (read.size > limit) {
    // Only a proof form gets here: its action sees the size and answers with the form's message.
    req.headers["content-length"] = String(read.size);
    bodies.set(req, Buffer.alloc(0));
    return next();
  }
  let form: FormData | undefined;
  if (mediaType === "multipart/form-data" && appForm) {
    try {
      form = await new Response(new Uint8Array(read.body), {
        headers: { "content-type": contentType },
      }).formData();
    } catch {
      return refuse(res, 400, "Bad Request: the form could not be read");
    }
  }
  const cleaned = await withoutControlCharacters(read.body, mediaType, form);
  if (cleaned) {
    if (cleaned.contentType) req.headers["content-type"] = cleaned.contentType;
    req.headers["content-length"] = String(cleaned.body.length);
  }
  bodies.set(req, cleaned?.body ?? read.body);
  next();
}

/**
 * C0 control characters other than tab, line feed and carriage return, and DEL. Nobody types
 * them; PostgreSQL refuses NUL in text (a 500 wherever a field is stored), and the others only
 * hide things in names and messages.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: removing control characters is the point
const CONTROL_CHARACTERS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/g;

export function stripControlCharacters(text: string) {
  return text.replace(CONTROL_CHARACTERS, "");
}

const CONTROL_CHARACTER = new RegExp(CONTROL_CHARACTERS.source);

function hasControlCharacters(text: string) {
  return CONTROL_CHARACTER.test(text);
}

/**
 * A form (urlencoded or multipart) or JSON body with control characters removed from every text
 * value, field name and file name (file contents are left as they are), or undefined when it has
 * none. One rule for every action and better-auth's endpoints: the action then validates what is
 * left, and answers a field emptied this way with its own message (issue 26 §7).
 */
export async function withoutControlCharacters(
  body: Buffer,
  mediaType: string,
  parsedForm?: FormData,
): Promise<{ body: Buffer; contentType?: string } | undefined> {
  if (mediaType === "application/x-www-form-urlencoded") {
    const params = new URLSearchParams(body.toString("utf8"));
    if (![...params].some(([name, value]) => hasControlCharacters(name + value))) return;
    const cleaned = new URLSearchParams();
    for (const [name, value] of params) {
      cleaned.append(stripControlCharacters(name), stripControlCharacters(value));
    }
    return { body: Buffer.from(cleaned.toString()) };
  }
  if (mediaType === "multipart/form-data" && parsedForm) {
    const entries = [...parsedForm];
    const dirty = entries.some(([name, value]) =>
      hasControlCharacters(name + (typeof value === "string" ? value : value.name)),
    );
    if (!dirty) return;
    const cleaned = new FormData();
    for (const [name, value] of entries) {
      if (typeof value === "string") {
        cleaned.append(stripControlCharacters(name), stripControlCharacters(value));
      } else {
        cleaned.append(stripControlCharacters(name), value, stripControlCharacters(value.name));
      }
    }
    const encoded = new Response(cleaned);
    return {
      body: Buffer.from(await encoded.arrayBuffer()),
      contentType: encoded.headers.get("content-type") ?? undefined,
    };
  }
  if (mediaType === "application/json") {
    const text = body.toString("utf8");
    // JSON writes them as \u escapes, so the parsed values are what is checked.
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      return; // better-auth answers malformed JSON itself
    }
    const cleaned = JSON.stringify(value, (_key, v) =>
      typeof v === "string" ? stripControlCharacters(v) : v,
    );
    if (cleaned === JSON.stringify(value)) return;
    return { body: Buffer.from(cleaned) };
  }
}

class BodyTooLarge extends Error {}

/**
 * Reads the request body, stopping (and pausing the socket) as soon as it passes `limit`. With
 * `drainTo`, a body over the limit is read on to its end and thrown away (its size returned),
 * unless it passes `drainTo` too.
 */
function readWithLimit(
  req: Request,
  limit: number,
  drainTo = 0,
): Promise<{ body: Buffer; size: number }> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const cleanup = () => {
      req.off("data", onData);
      req.off("end", onEnd);
      req.off("error", onError);
      req.off("aborted", onError);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > Math.max(limit, drainTo)) {
        cleanup();
        req.pause();
        reject(new BodyTooLarge());
        return;
      }
      if (size <= limit) chunks.push(chunk);
      else chunks.length = 0;
    };
    const onEnd = () => {
      cleanup();
      resolve({ body: size <= limit ? Buffer.concat(chunks, size) : Buffer.alloc(0), size });
    };
    const onError = (error?: Error) => {
      cleanup();
      reject(error ?? new Error("request aborted"));
    };
    req.on("data", onData);
    req.on("end", onEnd);
    req.on("error", onError);
    req.on("aborted", onError);
  });
}

/** The registration form's posts (document and data requests). */
const REGISTRATION_POST = /^\/events\/[^/]+\/register(\.data)?$/;

/**
 * An account that kept posting the registration form after being told to wait (decision 0116) is
 * answered 429 here, before the app reads or renders anything, until its window ends: the first
 * refusals were shown in the form, with everything typed kept.
 */
export function refuseBenchedRegistrations(req: Request, res: Response, next: NextFunction) {
  if (req.method !== "POST" || !REGISTRATION_POST.test(req.path)) return next();
  const refused = benchedSession(sessionTokenOf(req.headers.cookie));
  if (!refused) return next();
  res
    .status(429)
    .set("Retry-After", String(refused.retryAfterSeconds))
    .set("Cache-Control", "no-store")
    .type("text/plain; charset=utf-8")
    .send(refused.message);
}
