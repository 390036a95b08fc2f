import { randomBytes } from "node:crypto";
import { createReadStream } from "node:fs";
import { mkdir, rename, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { Readable } from "node:stream";
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
} from "@aws-sdk/client-s3";
import { type Env, env } from "./env.server";

/**
 * File storage for uploads (images, PDFs). Keys look like `images/<random>.webp`.
 * Local disk under DATA_DIR/uploads by default; an S3 driver can implement the same interface.
 */
export interface StorageDriver {
  put(key: string, body: Buffer, contentType: string): Promise<void>;
  /** A byte stream of the object (optionally a range), or null when it does not exist. */
  get(
    key: string,
    range?: { start: number; end: number },
  ): Promise<{ body: ReadableStream<Uint8Array>; size: number; contentType: string } | null>;
  stat(key: string): Promise<{ size: number; contentType: string } | null>;
  delete(key: string): Promise<void>;
}

const CONTENT_TYPES: Record<string, string> = {
  ".webp": "image/webp",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".png": "image/png",
  ".pdf": "application/pdf",
};

export function contentTypeFor(key: string) {
  return CONTENT_TYPES[path.extname(key).toLowerCase()] ?? "application/octet-stream";
}

/** Keys are ours (random), but a request path is not: refuse anything that could escape. */
export function isSafeKey(key: string) {
  return /^[a-z0-9-]+\/[A-Za-z0-9_-]+\.[a-z0-9]+$/.test(key);
}

export function randomKey(folder: string, extension: string) {
  return `${folder}/${Date.now().toString(36)}-${randomBytes(12).toString("base64url")}.${extension}`;
}

export function localDriver(root: string): StorageDriver {
  const file = (key: string) => {
    if (!isSafeKey(key)) throw new Error(`Invalid storage key: ${key}`);
    return path.join(root, key);
  };
  return {
    async put(key, body) {
      const target = file(key);
      await mkdir(path.dirname(target), { recursive: true });
      const temp = `${target}.${randomBytes(4).toString("hex")}.tmp`;
      await writeFile(temp, body);
      await rename(temp, target); // readers never see a half-written file
    },
    async get(key, range) {
      const info = await this.stat(key);
      if (!info) return null;
      const stream = createReadStream(file(key), range);
      return {
        body: Readable.toWeb(stream) as ReadableStream<Uint8Array>,
        size: info.size,
        contentType: info.contentType,
      };
    },
    async stat(key) {
      try {
        const s = await stat(file(key));
        return s.isFile() ? { size: s.size, contentType: contentTypeFor(key) } : null;
      } catch {
        return null;
      }
    },
    async delete(key) {
      await rm(file(key), { force: true });
    },
  };
}

/**
 * S3-compatible object storage (AWS S3, MinIO, Ceph, R2, ...). Objects are still served through
 * /uploads/<key> by the app, so URLs, CSP and download headers do not depend on the driver.
 */
export function s3Driver(config: {
  endpoint?: string;
  region: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
}): StorageDriver {
  const client = new S3Client({
    endpoint: config.endpoint,
    region: config.region,
    forcePathStyle: Boolean(config.endpoint), // MinIO and most self-hosted servers
    credentials: { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey },
  });
  const Bucket = config.bucket;
  const notFound = (error: unknown) => {
    const e = error as { name?: string; $metadata?: { httpStatusCode?: number } };
    return e.name === "NoSuchKey" || e.name === "NotFound" || e.$metadata?.httpStatusCode === 404;
  };
  return {
    async put(key, body, contentType) {
      if (!isSafeKey(key)) throw new Error(`Invalid storage key: ${key}`);
      await client.send(
        new PutObjectCommand({ Bucket, Key: key, Body: body, ContentType: contentType }),
      );
    },
    async get(key, range) {
      try {
        const result = await client.send(
          new GetObjectCommand({
            Bucket,
            Key: key,
            Range: range ? `bytes=${range.start}-${range.end}` : undefined,
          }),
        );
        const total = result.ContentRange
          ? Number(result.ContentRange.split("/")[1])
          : Number(result.ContentLength ?? 0);
        return {
          body: result.Body!.transformToWebStream() as ReadableStream<Uint8Array>,
          size: total,
          contentType: result.ContentType ?? contentTypeFor(key),
        };
      } catch (error) {
        if (notFound(error)) return null;
        throw error;
      }
    },
    async stat(key) {
      try {
        const head = await client.send(new HeadObjectCommand({ Bucket, Key: key }));
        return {
          size: Number(head.ContentLength ?? 0),
          contentType: head.ContentType ?? contentTypeFor(key),
        };
      } catch (error) {
        if (notFound(error)) return null;
        throw error;
      }
    },
    async delete(key) {
      await client.send(new DeleteObjectCommand({ Bucket, Key: key }));
    },
  };
}

let chosen: StorageDriver | undefined;
let configured: { config: Env; driver: StorageDriver } | undefined;

/**
 * The configured driver: S3 when S3_BUCKET is set, else local disk under DATA_DIR/uploads. Made
 * again when the configuration is replaced (setEnv), so it never writes where an earlier one
 * pointed; a driver set with setStorage wins.
 */
export function getStorage(): StorageDriver {
  if (chosen) return chosen;
  const config = env();
  if (configured?.config !== config) {
    const driver = config.S3_BUCKET
      ? s3Driver({
          endpoint: config.S3_ENDPOINT,
          region: config.S3_REGION,
          bucket: config.S3_BUCKET,
          accessKeyId: config.S3_ACCESS_KEY_ID!,
          secretAccessKey: config.S3_SECRET_ACCESS_KEY!,
        })
      : localDriver(path.resolve(config.DATA_DIR, "uploads"));
    configured = { config, driver };
  }
  return configured.driver;
}

export function setStorage(next: StorageDriver | undefined) {
  chosen = next;
}

/** Public URL of a stored object (served by routes/api/uploads-file.ts). */
export function publicUrl(key: string) {
  return `/uploads/${key}`;
}

/** The storage key behind one of our public URLs, or null for external URLs. */
export function keyFromUrl(url: string | null | undefined) {
  if (!url?.startsWith("/uploads/")) return null;
  const key = url.slice("/uploads/".length);
  return isSafeKey(key) ? key : null;
}
