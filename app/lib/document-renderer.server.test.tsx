import { existsSync } from "node:fs";
import path from "node:path";
import { useActionState } from "react";
import * as stringRenderer from "react-dom/server.bun";
import { describe, expect, it, vi } from "vitest";
import {
  type DocumentRenderOptions,
  renderDocument,
  TextDestination,
} from "./document-renderer.server";

type Action = ((state: number, payload: FormData) => number) & Record<string, unknown>;

/**
 * A server action as React Server Components hand it to the renderer: a function carrying
 * `$$FORM_ACTION` (its hidden fields) and `$$IS_SIGNATURE_EQUAL`, whose `bind` keeps both.
 */
function serverReference(): Action {
  const reference = ((state: number) => state + 1) as unknown as Action;
  reference.$$FORM_ACTION = (prefix: string) => {
    const data = new FormData();
    data.append(`${prefix}ref`, "action-1");
    return { name: `${prefix}submit`, method: "POST", encType: "multipart/form-data", data };
  };
  reference.$$IS_SIGNATURE_EQUAL = () => true;
  reference.bind = (_this: unknown, ...args: unknown[]) => {
    const bound = ((payload: FormData) =>
      reference(args[0] as number, payload)) as unknown as Action;
    bound.$$FORM_ACTION = reference.$$FORM_ACTION;
    bound.$$IS_SIGNATURE_EQUAL = reference.$$IS_SIGNATURE_EQUAL;
    bound.bind = reference.bind;
    return bound;
  };
  return reference;
}

function Counter({ action }: { action: Action }) {
  const [count, formAction] = useActionState(action, 0);
  return (
    <form action={formAction}>
      <p>Count {count}</p>
      <button type="submit">Add</button>
    </form>
  );
}

/** A whole document rendered, with what React wrote: the text and the kind of each piece. */
function render(element: React.ReactElement, options: DocumentRenderOptions = {}) {
  return new Promise<{ html: string; pieces: Set<string> }>((resolve, reject) => {
    const pieces = new Set<string>();
    let html = "";
    const { pipe } = renderDocument(element, {
      ...options,
      onAllReady() {
        const destination = new TextDestination({
          text: (text) => {
            html += text;
          },
          end: () => resolve({ html, pieces }),
          fail: reject,
        });
        const write = destination.write.bind(destination);
        destination.write = (piece) => {
          pieces.add(typeof piece === "string" ? "string" : "bytes");
          return write(piece);
        };
        pipe(destination.asWritable());
      },
      onShellError: reject,
      onError: reject,
    });
  });
}

describe("document renderer (decision 0077)", () => {
  it("renders pages with React's string build", async () => {
    const { html, pieces } = await render(<p title="Café & co">Kongamano — 会議 🎉</p>);
    expect(html).toBe('<p title="Café &amp; co">Kongamano — 会議 🎉</p>');
    expect(pieces).toEqual(new Set(["string"]));
  });

  it("hands a render restoring a server action's form state to the Node build, which needs no Bun", async () => {
    const formState = [
      5,
      "k-unused",
      "action-1",
      0,
    ] as unknown as DocumentRenderOptions["formState"];
    // The string build alone cannot: its useActionState calls Bun.hash for the state's key.
    await expect(
      new Promise((resolve, reject) => {
        stringRenderer.renderToPipeableStream(<Counter action={serverReference()} />, {
          formState,
          onAllReady: () => resolve("rendered"),
          onShellError: reject,
          onError: () => {},
        });
      }),
    ).rejects.toThrow(/Bun is not defined/);

    const { html, pieces } = await render(<Counter action={serverReference()} />, { formState });
    expect(html).toContain("<p>Count <!-- -->0</p>");
    expect(html).toContain('name="$ACTION_KEY"');
    expect(pieces).toEqual(new Set(["bytes"]));
  });

  it("never crashes on a server action's form without form state: React catches the Bun call", async () => {
    // The form is written without its no-JavaScript fields; React's development build says so.
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      const { html } = await render(<Counter action={serverReference()} />);
      expect(html).toContain("<form");
      expect(html).toContain("<p>Count <!-- -->0</p>");
      expect(String(logged.mock.calls[0]?.[0])).toContain("Failed to serialize an action");
    } finally {
      logged.mockRestore();
    }
  });

  it("decodes the Node build's bytes even when a character is split between two pieces", () => {
    let text = "";
    const destination = new TextDestination({
      text: (t) => {
        text += t;
      },
      end: () => {},
      fail: () => {},
    });
    const bytes = Buffer.from("Karibu 🎉 Nairobi");
    destination.write(bytes.subarray(0, 9));
    destination.write(bytes.subarray(9));
    destination.end();
    expect(text).toBe("Karibu 🎉 Nairobi");
  });

  it("is used where nothing can make server references (no React Server Components installed)", () => {
    // If one of these is added, server references exist and the string build's Bun.hash path is
    // reachable: go back to react-dom/server (decision 0077).
    const root = path.resolve(import.meta.dirname, "../..");
    for (const name of [
      "react-server-dom-webpack",
      "react-server-dom-parcel",
      "react-server-dom-turbopack",
      "react-server-dom-esm",
      "@vitejs/plugin-rsc",
    ]) {
      expect(existsSync(path.join(root, "node_modules", name)), name).toBe(false);
    }
  });
});
