import { readFile } from "node:fs/promises";
import path from "node:path";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { env } from "./env.server";
import {
  isPdf,
  processImage,
  readStreamWithLimit,
  sniffImageType,
  storeUpload,
  UploadError,
} from "./uploads.server";

const MB = 1024 * 1024;

async function photoWithMetadata(width: number, height: number) {
  return sharp({
    create: { width, height, channels: 3, background: { r: 11, g: 95, b: 255 } },
  })
    .png()
    .withExif({ IFD0: { Copyright: "secret-owner", Artist: "Someone" } })
    .toBuffer();
}

const PDF = Buffer.from("%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer\n%%EOF\n");

/** A stream that yields `total` bytes lazily in 1 MB chunks and counts what was pulled. */
function countingStream(total: number) {
  const counter = { pulled: 0 };
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (counter.pulled >= total) return controller.close();
      const chunk = new Uint8Array(Math.min(MB, total - counter.pulled));
      counter.pulled += chunk.byteLength;
      controller.enqueue(chunk);
    },
  });
  return { stream, counter };
}

async function rejection(promise: Promise<unknown>) {
  try {
    await promise;
  } catch (error) {
    return error as UploadError;
  }
  throw new Error("expected a rejection");
}

describe("image uploads", () => {
  it("re-encodes a large PNG to WEBP inside 1200x630 with its metadata stripped", async () => {
    const original = await photoWithMetadata(2400, 1600);
    expect((await sharp(original).metadata()).exif).toBeDefined();

    const stored = await storeUpload("image", original);

    expect(stored.key).toMatch(/^images\/[A-Za-z0-9_-]+\.webp$/);
    expect(stored.url).toBe(`/uploads/${stored.key}`);
    const saved = await readFile(path.resolve(env().DATA_DIR, "uploads", stored.key));
    const meta = await sharp(saved).metadata();
    expect(meta.format).toBe("webp");
    expect(meta.width).toBeLessThanOrEqual(1200);
    expect(meta.height).toBeLessThanOrEqual(630);
    expect(meta.height).toBe(630); // 2400x1600 scaled proportionally → 945x630
    expect(meta.width).toBe(945);
    expect(meta.exif).toBeUndefined();
    expect(saved.includes(Buffer.from("secret-owner"))).toBe(false);
  });

  it("never enlarges a small image and gives every upload a new random name", async () => {
    const small = await sharp({
      create: { width: 300, height: 200, channels: 4, background: "#ffffff00" },
    })
      .jpeg()
      .toBuffer();
    const a = await storeUpload("image", small);
    const b = await storeUpload("image", small);
    expect(a.key).not.toBe(b.key);
    const meta = await sharp(await processImage(small)).metadata();
    expect([meta.width, meta.height]).toEqual([300, 200]);
  });

  it("refuses a PDF renamed .png (type decided by content)", async () => {
    const error = await rejection(storeUpload("image", new File([PDF], "poster.png")));
    expect(error).toBeInstanceOf(UploadError);
    expect(error.status).toBe(400);
    expect(error.title).toBe("Invalid file type");
    expect(error.message).toBe("Please upload a JPG, PNG, or WEBP image");
  });

  it("refuses bytes that merely start like a PNG", async () => {
    const fake = Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      Buffer.alloc(200, 7),
    ]);
    expect(sniffImageType(fake)).toBe("png");
    const error = await rejection(processImage(fake));
    expect(error.title).toBe("Invalid file type");
  });

  it("refuses more than 5 MB while streaming, without reading the whole body", async () => {
    const { stream, counter } = countingStream(200 * MB);
    const error = await rejection(
      storeUpload(
        "image",
        new Request("http://localhost/admin/uploads", {
          method: "POST",
          body: stream,
          duplex: "half",
        } as RequestInit),
      ),
    );
    expect(error.status).toBe(413);
    expect(error.title).toBe("File too large");
    expect(error.message).toBe("Please upload an image smaller than 5MB");
    expect(counter.pulled).toBeLessThan(40 * MB);
  });

  it("holds at most the limit in memory while reading", async () => {
    const { stream, counter } = countingStream(10 * MB);
    const error = await rejection(
      readStreamWithLimit(stream, 5 * MB, () => new UploadError(413, "File too large", "x"), 0),
    );
    expect(error.status).toBe(413);
    expect(counter.pulled).toBeLessThanOrEqual(6 * MB + MB); // stopped right after the limit
  });

  it("refuses a declared Content-Length over 5 MB before reading", async () => {
    const body = new Uint8Array(6 * MB);
    const error = await rejection(
      storeUpload(
        "image",
        new Request("http://localhost/admin/uploads", {
          method: "POST",
          body,
          headers: { "content-type": "image/png", "content-length": String(body.byteLength) },
        }),
      ),
    );
    expect(error.status).toBe(413);
  });

  it("accepts multipart/form-data with a `file` field", async () => {
    const form = new FormData();
    form.set("file", new File([await photoWithMetadata(640, 480)], "photo.png"));
    const request = new Request("http://localhost/admin/uploads", { method: "POST", body: form });
    const stored = await storeUpload("image", request);
    expect(stored.contentType).toBe("image/webp");
  });
});

describe("PDF uploads", () => {
  it("stores a PDF checked by its magic bytes", async () => {
    const stored = await storeUpload("pdf", PDF);
    expect(stored.key).toMatch(/^pdfs\/.+\.pdf$/);
    expect(stored.contentType).toBe("application/pdf");
  });

  it("refuses a PNG renamed .pdf and a PDF over 20 MB", async () => {
    const png = await photoWithMetadata(10, 10);
    expect(isPdf(png)).toBe(false);
    const wrong = await rejection(storeUpload("pdf", new File([png], "paper.pdf")));
    expect([wrong.status, wrong.title, wrong.message]).toEqual([
      400,
      "Invalid file type",
      "Please upload a PDF file",
    ]);
    const big = Buffer.concat([PDF, Buffer.alloc(20 * MB)]);
    const large = await rejection(storeUpload("pdf", big));
    expect([large.status, large.title]).toEqual([413, "File too large"]);
  });
});
