import { type ClassValue, clsx } from "clsx";
import { twMerge } from "tailwind-merge";

export function cn(...inputs: ClassValue[]) {
  return twMerge(clsx(inputs));
}

/** Merges several HeadersInit values, keeping every Set-Cookie. */
export function combineHeaders(...all: Array<HeadersInit | null | undefined>) {
  const combined = new Headers();
  for (const headers of all) {
    if (!headers) continue;
    for (const [key, value] of new Headers(headers).entries()) combined.append(key, value);
  }
  return combined;
}

/** Conform's props carry a `key`; React wants keys passed directly, not spread. */
export function withoutKey<T extends { key?: unknown }>(props: T): Omit<T, "key"> {
  const { key: _key, ...rest } = props;
  return rest;
}
