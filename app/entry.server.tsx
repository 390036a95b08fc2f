import { createReadableStreamFromReadable } from "@react-router/node";
import { isbot } from "isbot";
import type { AppLoadContext, EntryContext, HandleErrorFunction } from "react-router";
import { isRouteErrorResponse, ServerRouter } from "react-router";
import { deferScripts, deferScriptsStream } from "~/lib/deferred-scripts.server";
import { renderDocument, TextDestination } from "~/lib/document-renderer.server";
import { spliceStylesheet } from "~/lib/inline-stylesheet.server";
import { logger, redactUrl } from "~/lib/logger.server";
import { NonceProvider } from "~/lib/nonce";

export const streamTimeout = 5_000;

/**
 * Errors React Router hands us from loaders, actions and rendering. A 4xx it made itself (a POST
 * to a page without an action, 405) is the client's mistake: one line with status and path, no
 * stack. Anything else is ours and keeps its stack. A request the visitor abandoned is not logged.
 */
export const handleError: HandleErrorFunction = (error, { request }) => {
  if (request.signal.aborted) return;
  const where = { method: request.method, url: redactUrl(new URL(request.url).pathname) };
  // React Router's own error responses carry the Error that explains them (not in the type).
  const cause = isRouteErrorResponse(error) ? (error as { error?: Error }).error : undefined;
  if (isRouteErrorResponse(error) && error.status < 500) {
    const reason = cause?.message ?? (typeof error.data === "string" ? error.data : "");
    logger.warn(
      { ...where, status: error.status, reason: reason.split("\n")[0].slice(0, 300) },
      `${error.status} ${error.statusText}`,
    );
    return;
  }
  logger.error({ ...where, err: cause ?? error }, "request failed");
};

/** How long a browser's document waits for deferred data before streaming its fallbacks. */
const STREAM_GRACE_MS = 100;

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: AppLoadContext,
) {
  const nonce = (loadContext as { cspNonce?: string } | undefined)?.cspNonce ?? "";
  responseHeaders.set("Content-Type", "text/html; charset=utf-8");
  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    let started = false;
    // Both timers are cleared once the document is out: a pending timer keeps its closure, and
    // with it the render's state and loader data, alive for seconds after the response.
    let graceTimer: NodeJS.Timeout | undefined;
    let abortTimer: NodeJS.Timeout | undefined;
    const userAgent = request.headers.get("user-agent");
    // Bots and SPA-mode get the whole document at once; browsers get it streamed.
    const waitForAll = Boolean((userAgent && isbot(userAgent)) || routerContext.isSpaMode);

    const start = () => {
      if (started) return;
      started = true;
      const body = deferScriptsStream(spliceStylesheet);
      body.once("close", () => clearTimeout(abortTimer));
      const stream = createReadableStreamFromReadable(body);
      resolve(new Response(stream, { headers: responseHeaders, status: responseStatusCode }));
      const destination = new TextDestination({
        text: (text) => body.write(text),
        end: () => body.end(),
        fail: (error) => body.destroy(error),
      });
      body.once("error", (error) => destination.emit("error", error));
      body.once("close", () => destination.emit("close"));
      pipe(destination.asWritable());
    };

    const { pipe, abort } = renderDocument(
      <NonceProvider value={nonce}>
        <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
      </NonceProvider>,
      {
        nonce,
        // A finished Suspense boundary is always written in place. React's default outlines
        // boundaries over 12.8 KB behind a script, which leaves them hidden without JavaScript
        // (the lazily hydrated forms of /auth and /contact are larger than that).
        progressiveChunkSize: Number.POSITIVE_INFINITY,
        onShellReady() {
          shellRendered = true;
          // Deferred data that arrives within STREAM_GRACE_MS (a fast query) is sent in the
          // document itself: no spinner replaced by content a moment later, which moves the
          // page (layout shift). Slower data is streamed behind its fallback as before.
          if (!waitForAll) graceTimer = setTimeout(start, STREAM_GRACE_MS);
        },
        onAllReady() {
          if (started) return;
          // Everything rendered before the response began (the usual case): send the document
          // as one buffer rather than ~70 small chunks through a web stream.
          started = true;
          clearTimeout(graceTimer);
          let html = "";
          pipe(
            new TextDestination({
              text: (text) => {
                html += text;
              },
              end: () => {
                const document = spliceStylesheet(deferScripts(Buffer.from(html)));
                responseHeaders.set("Content-Length", String(document.byteLength));
                resolve(
                  new Response(document, {
                    headers: responseHeaders,
                    status: responseStatusCode,
                  }),
                );
                clearTimeout(abortTimer);
              },
              fail: (error) => {
                clearTimeout(abortTimer);
                reject(error);
              },
            }).asWritable(),
          );
        },
        onShellError(error: unknown) {
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          if (shellRendered) logger.error({ err: error }, "render failed after the shell was sent");
        },
      },
    );
    abortTimer = setTimeout(abort, streamTimeout + 1000);
  });
}
