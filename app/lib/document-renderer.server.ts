// Which of React's server renderers writes our documents, and where it writes them (decision
// 0077). React's Bun build is the same renderer as "react-dom/server" but writes the document as
// strings instead of encoding every small piece into bytes as it goes (decision 0070). It runs on
// Node except for `Bun.hash`, which it calls only for `useActionState` of a server reference (a
// function carrying `$$FORM_ACTION`, made by React Server Components, which React Router's
// framework mode never creates): the hook itself when form state is restored (sent to the Node
// build here), and the form's hidden fields, where React catches the error (no crash; the form
// just loses its no-JavaScript fields).
import { EventEmitter } from "node:events";
import type { ReactNode } from "react";
import * as nodeRenderer from "react-dom/server";
import * as stringRenderer from "react-dom/server.bun";

export type DocumentRenderOptions = NonNullable<
  Parameters<typeof nodeRenderer.renderToPipeableStream>[1]
>;
export type DocumentRender = ReturnType<typeof nodeRenderer.renderToPipeableStream>;

const runsOnBun = () => (globalThis as { Bun?: unknown }).Bun !== undefined;

/**
 * Renders `children` like React's `renderToPipeableStream`, with the string build unless the
 * render restores a server action's form state (`formState`): its `useActionState` hashes the
 * state's key with `Bun.hash` and would throw on Node, so that render goes to the Node build.
 */
export function renderDocument(
  children: ReactNode,
  options: DocumentRenderOptions = {},
): DocumentRender {
  const renderer = options.formState != null && !runsOnBun() ? nodeRenderer : stringRenderer;
  return renderer.renderToPipeableStream(children, options);
}

/**
 * Where React writes: the pieces of each flush gathered and handed on as one string (React
 * flushes once per batch of finished work), then the end. The string build writes strings; the
 * Node build writes UTF-8 bytes, decoded here (a character may be split between two pieces).
 * React listens on it for "error" and "close", which the streamed path forwards from the
 * response body, so a visitor who leaves stops the render.
 */
export class TextDestination extends EventEmitter {
  // Appended piece by piece: V8 keeps the pieces as a rope and flattens it once, at the end.
  private pending = "";
  private decoder: TextDecoder | undefined;

  constructor(
    private readonly to: {
      text: (text: string) => void;
      end: () => void;
      fail: (error: Error) => void;
    },
  ) {
    super();
  }

  write(piece: string | Uint8Array) {
    if (typeof piece === "string") this.pending += piece;
    else {
      this.decoder ??= new TextDecoder();
      this.pending += this.decoder.decode(piece, { stream: true });
    }
    return true;
  }

  flush() {
    if (this.pending === "") return;
    const text = this.pending;
    this.pending = "";
    this.to.text(text);
  }

  end() {
    if (this.decoder) this.pending += this.decoder.decode();
    this.flush();
    this.to.end();
  }

  /** What `pipe` is typed to take: React calls only the methods above and `on`. */
  asWritable() {
    return this as unknown as NodeJS.WritableStream;
  }

  /** React's fatal error after the shell: the document cannot be finished. */
  destroy(error: Error) {
    this.pending = "";
    this.to.fail(error);
  }
}
