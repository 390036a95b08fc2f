import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import S3rver from "s3rver";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isSafeKey, localDriver, randomKey, type StorageDriver, s3Driver } from "./storage.server";

async function readAll(stream: ReadableStream<Uint8Array>) {
  return Buffer.from(await new Response(stream).arrayBuffer()).toString();
}

// The same contract for both drivers: the S3 one against an S3-compatible server on 127.0.0.1.
const drivers: Array<
  [string, () => Promise<{ driver: StorageDriver; stop: () => Promise<void> }>]
> = [
  [
    "local disk",
    async () => ({
      driver: localDriver(mkdtempSync(path.join(tmpdir(), "kongamano-storage-"))),
      stop: async () => {},
    }),
  ],
  [
    "S3-compatible",
    async () => {
      const server = new S3rver({
        address: "127.0.0.1",
        port: 0,
        silent: true,
        directory: mkdtempSync(path.join(tmpdir(), "kongamano-s3-")),
        configureBuckets: [{ name: "kongamano", configs: [] }],
      });
      const { port } = await server.run();
      return {
        driver: s3Driver({
          endpoint: `http://127.0.0.1:${port}`,
          region: "us-east-1",
          bucket: "kongamano",
          accessKeyId: "S3RVER",
          secretAccessKey: "S3RVER",
        }),
        stop: () => server.close(),
      };
    },
  ],
];

describe.each(drivers)("storage: %s", (_name, make) => {
  let driver: StorageDriver;
  let stop: () => Promise<void>;
  beforeAll(async () => {
    ({ driver, stop } = await make());
  });
  afterAll(async () => stop?.());

  it("stores, reads whole and by range, and deletes objects", async () => {
    const key = randomKey("papers", "pdf");
    await driver.put(key, Buffer.from("%PDF-1.4 hello world"), "application/pdf");
    expect(await driver.stat(key)).toEqual({ size: 20, contentType: "application/pdf" });
    const whole = await driver.get(key);
    expect(await readAll(whole!.body)).toBe("%PDF-1.4 hello world");
    const part = await driver.get(key, { start: 9, end: 13 });
    expect(await readAll(part!.body)).toBe("hello");
    expect(part!.size).toBe(20);
    await driver.delete(key);
    expect(await driver.stat(key)).toBeNull();
    expect(await driver.get(key)).toBeNull();
  });
});

describe("storage keys", () => {
  it("are random and cannot escape their folder", () => {
    const key = randomKey("images", "webp");
    expect(isSafeKey(key)).toBe(true);
    expect(randomKey("images", "webp")).not.toBe(key);
    for (const bad of [
      "../secret.txt",
      "images/../../etc/passwd",
      "images/a/b.webp",
      "/etc/passwd",
    ]) {
      expect(isSafeKey(bad), bad).toBe(false);
    }
  });
});
