/**
 * Database and driver errors as the messages of spec §8 ("Event save error mapping").
 * Drizzle wraps driver errors (DrizzleQueryError) and keeps the original in `cause`, so the
 * PostgreSQL SQLSTATE is looked for on the error and along its cause chain.
 */

export const DB_ERROR_MESSAGES = {
  uniqueViolation: "An event with this title already exists. Please choose a different title.",
  foreignKeyViolation: "Invalid category or event type selected. Please refresh and try again.",
  undefinedTable: "Database table not found. Please contact support.",
  permission: "You do not have permission to perform this action.",
  network: "Network error. Please check your connection and try again.",
  fallback: "An unexpected error occurred. Please try again.",
} as const;

type ErrorLike = { code?: unknown; message?: unknown; cause?: unknown; constraint?: unknown };

function chain(error: unknown): ErrorLike[] {
  const seen: ErrorLike[] = [];
  let current: unknown = error;
  while (current && typeof current === "object" && !seen.includes(current) && seen.length < 5) {
    seen.push(current as ErrorLike);
    current = (current as ErrorLike).cause;
  }
  return seen;
}

/** The PostgreSQL SQLSTATE (e.g. '23505') of an error or of one of its causes. */
export function dbErrorCode(error: unknown): string | null {
  for (const e of chain(error)) {
    if (typeof e.code === "string" && /^[0-9A-Z]{5}$/.test(e.code)) return e.code;
  }
  return null;
}

/** The violated constraint's name, when the driver reports one. */
export function dbErrorConstraint(error: unknown): string | null {
  for (const e of chain(error)) {
    if (typeof e.constraint === "string") return e.constraint;
  }
  return null;
}

/** The innermost message (the driver's, not drizzle's "Failed query: ..." wrapper). */
function innermostMessage(error: unknown): string {
  const messages = chain(error)
    .map((e) => (typeof e.message === "string" ? e.message : ""))
    .filter(Boolean);
  if (messages.length) return messages[messages.length - 1];
  return typeof error === "string" ? error : "";
}

/** The message shown when saving an event fails (spec §8). */
export function eventSaveErrorMessage(error: unknown): string {
  switch (dbErrorCode(error)) {
    case "23505":
      return DB_ERROR_MESSAGES.uniqueViolation;
    case "23503":
      return DB_ERROR_MESSAGES.foreignKeyViolation;
    case "42P01":
      return DB_ERROR_MESSAGES.undefinedTable;
  }
  const message = innermostMessage(error);
  const lower = message.toLowerCase();
  if (lower.includes("permission")) return DB_ERROR_MESSAGES.permission;
  if (lower.includes("network")) return DB_ERROR_MESSAGES.network;
  return message || DB_ERROR_MESSAGES.fallback;
}

/** HTTP status for a failed save: conflicts are 409, anything unexpected is 500. */
export function eventSaveErrorStatus(error: unknown): 409 | 500 {
  const code = dbErrorCode(error);
  return code === "23505" || code === "23503" ? 409 : 500;
}

/** A failure's own message for toasts under 'Error' (spec §8 "server message"), or the fallback. */
export function serverErrorMessage(error: unknown): string {
  return innermostMessage(error) || DB_ERROR_MESSAGES.fallback;
}
