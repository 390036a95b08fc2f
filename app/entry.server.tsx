import { Writable } from "node:stream";
import { createReadableStreamFromReadable } from "@react-router/node";
import { isbot } from "isbot";
import { renderToPipeableStream } from "react-dom/server";
import type { AppLoadContext, EntryContext } from "react-router";
import { ServerRouter } from "react-router";
import { deferScripts, deferScriptsStream } from "~/lib/deferred-scripts.server";
import { spliceStylesheet } from "~/lib/inline-stylesheet.server";
import { NonceProvider } from "~/lib/nonce";

export const streamTimeout = 5_000;
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
      pipe(body);
    };

    const { pipe, abort } = renderToPipeableStream(
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
          const chunks: Buffer[] = [];
          pipe(
            new Writable({
              write(chunk: Buffer, _encoding, callback) {
                chunks.push(chunk);
                callback();
              },
              final(callback) {
                const document = spliceStylesheet(deferScripts(Buffer.concat(chunks)));
                responseHeaders.set("Content-Length", String(document.byteLength));
                resolve(
                  new Response(document, {
                    headers: responseHeaders,
                    status: responseStatusCode,
                  }),
                );
                clearTimeout(abortTimer);
                callback();
              },
            }),
          );
        },
        onShellError(error: unknown) {
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          if (shellRendered) console.error(error);
        },
      },
    );
    abortTimer = setTimeout(abort, streamTimeout + 1000);
  });
}
