/**
 * The responses a server logged with a 5xx status (pino-http's JSON lines: `res.statusCode`).
 * Servers started by tests keep their logs so a run can prove it provoked no server error that
 * it did not mean to (issue 13 §7).
 */
export function serverErrorsIn(log: string, expected: (status: number) => boolean = () => false) {
  const errors: string[] = [];
  for (const line of log.split("\n")) {
    if (!line.startsWith("{")) continue;
    let entry: { req?: { method?: string; url?: string }; res?: { statusCode?: number } };
    try {
      entry = JSON.parse(line);
    } catch {
      continue;
    }
    const status = entry.res?.statusCode;
    if (status !== undefined && status >= 500 && !expected(status)) {
      errors.push(`${status} ${entry.req?.method} ${entry.req?.url}`);
    }
  }
  return errors;
}
