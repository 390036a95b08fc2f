/**
 * Public content changes (any back-office create/update/delete) must reach every cache of
 * rendered pages. Mutations call `contentChanged()`; caches subscribe or compare versions.
 */
import { randomUUID } from "node:crypto";
import { Redis } from "ioredis";
import { logger } from "./logger.server";

type Listener = (version: number) => void;
const CHANNEL = "kongamano:content-changed";
const instanceId = randomUUID();
let publisher: Redis | undefined;

let version = 0;
const listeners = new Set<Listener>();

export function contentVersion() {
  return version;
}

function bump() {
  version++;
  for (const listener of listeners) listener(version);
}

export function contentChanged() {
  bump();
  publisher?.publish(CHANNEL, instanceId).catch((error) => {
    logger.warn({ err: error }, "could not broadcast a content change");
  });
}

/** Shares content changes between instances through Redis pub/sub. */
export async function startContentChangeRelay(redisUrl: string) {
  publisher = new Redis(redisUrl, { maxRetriesPerRequest: 2 });
  const subscriber = new Redis(redisUrl);
  publisher.on("error", (error) => logger.warn({ err: error }, "redis publisher error"));
  subscriber.on("error", (error) => logger.warn({ err: error }, "redis subscriber error"));
  await subscriber.subscribe(CHANNEL);
  subscriber.on("message", (_channel, from) => {
    if (from !== instanceId) bump();
  });
  return {
    async close() {
      subscriber.disconnect();
      publisher?.disconnect();
      publisher = undefined;
    },
  };
}

export function onContentChanged(listener: Listener) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
