// Daraja's callbacks pass the server's request checks as what they are (issue 34): JSON posted by
// a server with no Origin, at most 16 kB, on the hooks' paths only. Everything else keeps the
// forms-only, own-origin rules.
import type { AddressInfo } from "node:net";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  bufferedBody,
  MAX_HOOK_BODY_BYTES,
  requireAcceptableBody,
  requireOwnOrigin,
} from "./http-guards";

describe("the payment hooks through the server's guards", () => {
  let url = "";
  let close: () => void;
  beforeAll(async () => {
    const app = express();
    app.use(requireOwnOrigin("https://events.example.org"));
    app.use(requireAcceptableBody);
    app.post(/.*/, (req, res) => {
      res.json({ bytes: bufferedBody(req)?.length ?? 0 });
    });
    const server = app.listen(0, "127.0.0.1");
    await new Promise((resolve) => server.once("listening", resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    close = () => server.close();
  });
  afterAll(() => close());

  const post = (path: string, body: string, headers: Record<string, string>) =>
    fetch(url + path, { method: "POST", body, headers });
  const hook = "/api/payments/hooks/0123456789abcdef0123456789abcdef/stk";

  it("lets Daraja's JSON through without an Origin", async () => {
    const response = await post(hook, '{"Body":{}}', { "content-type": "application/json" });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ bytes: 11 });
  });

  it("refuses a form, an oversized body and a foreign Origin on the hooks", async () => {
    expect(
      (await post(hook, "a=1", { "content-type": "application/x-www-form-urlencoded" })).status,
    ).toBe(415);
    const big = JSON.stringify({ pad: "x".repeat(MAX_HOOK_BODY_BYTES) });
    expect((await post(hook, big, { "content-type": "application/json" })).status).toBe(413);
    expect(
      (
        await post(hook, "{}", {
          "content-type": "application/json",
          origin: "https://evil.example",
        })
      ).status,
    ).toBe(403);
  });

  it("keeps the own-origin rule everywhere else", async () => {
    expect(
      (await post("/orders/x", "a=1", { "content-type": "application/x-www-form-urlencoded" }))
        .status,
    ).toBe(403);
  });
});
