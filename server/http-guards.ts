/**
 * Checks every request passes before it reaches the app (issue 13 §3, §4, §6): the Host it names,
 * the shape of its URL, where a state change comes from, and the size and type of its body.
 * Each refusal is a short plain-text 4xx, never cached.
 */
import type { NextFunction, Request, Response } from "express";
import { MAX_PDF_BYTES } from "~/lib/uploads.server";
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
/**
 * Forms that may carry a file (with their single-fetch `.data` twins): a larger cap, and the
 * paper form streams its PDF in itself (its route counts the bytes).
 */
const FILE_FORMS: Array<{ path: RegExp; limit: number; stream: boolean }> = [
  { path: RAW_UPLOAD, limit: MAX_UPLOAD_BODY_BYTES, stream: true },
  {
    path: /^\/admin\/papers\/(new|[^/]+\/edit)(\.data)?$/,
    limit: MAX_UPLOAD_BODY_BYTES,
    stream: true,
  },
  { path: /^\/admin\/payments(\.data)?$/, limit: MAX_PROOF_BYTES + 64 * 1024, stream: false },
];
/** better-auth answers its own endpoints (content types, origin of cookie-bearing requests). */
const AUTH_API = /^\/api\/auth(\/|$)/;
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
    if (source === undefined && AUTH_API.test(req.path)) return next();
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
 * most 1 MB, 5 MB with a payment proof) and handed on as bytes; the upload endpoint and the
 * paper form keep their streams and their own limits.
 */
export async function requireAcceptableBody(req: Request, res: Response, next: NextFunction) {
  if (req.method === "GET" || req.method === "HEAD" || req.method === "OPTIONS") return next();
  const rawUpload = RAW_UPLOAD.test(req.path);
  const fileForm = FILE_FORMS.find((form) => form.path.test(req.path));
  const limit = fileForm?.limit ?? MAX_FORM_BODY_BYTES;
  if (Number(req.headers["content-length"] ?? 0) > limit) {
    return refuse(res, 413, "Payload Too Large", true);
  }
  const contentType = req.headers["content-type"] ?? "";
  const mediaType = contentType.split(";")[0].trim().toLowerCase();
  const appForm = !rawUpload && !AUTH_API.test(req.path);
  // An action reads request.formData(), which throws (a 500) on anything but a form.
  if (appForm && !FORM_TYPES.has(mediaType)) {
    return refuse(res, 415, "Unsupported Media Type: send a form");
  }
  if (fileForm?.stream) return next();

  let body: Buffer;
  try {
    body = await readWithLimit(req, limit);
  } catch (error) {
    if (error instanceof BodyTooLarge) return refuse(res, 413, "Payload Too Large", true);
    return refuse(res, 400, "Bad Request: the body could not be read", true);
  }
  if (mediaType === "multipart/form-data" && appForm) {
    try {
      await new Response(new Uint8Array(body), {
        headers: { "content-type": contentType },
      }).formData();
    } catch {
      return refuse(res, 400, "Bad Request: the form could not be read");
    }
  }
  bodies.set(req, body);
  next();
}

class BodyTooLarge extends Error {}

/** Reads the request body, stopping (and pausing the socket) as soon as it passes `limit`. */
function readWithLimit(req: Request, limit: number): Promise<Buffer> {
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
      if (size > limit) {
        cleanup();
        req.pause();
        reject(new BodyTooLarge());
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      cleanup();
      resolve(Buffer.concat(chunks, size));
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
