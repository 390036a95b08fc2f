// IANA time zones for events (decision 0030): validated with the runtime's own zone database.

const known = new Map<string, boolean>();

/** True for a zone the runtime knows ('America/Toronto', 'UTC'); false for anything else. */
export function isTimeZone(value: string): boolean {
  let ok = known.get(value);
  if (ok === undefined) {
    try {
      new Intl.DateTimeFormat("en-US", { timeZone: value });
      ok = /^[A-Za-z][A-Za-z0-9_+\-/]*$/.test(value);
    } catch {
      ok = false;
    }
    if (known.size < 1000) known.set(value, ok);
  }
  return ok;
}

/** Every canonical zone, sorted, for the event form's searchable list (sent by the loader). */
export function listTimeZones(): string[] {
  const zones = Intl.supportedValuesOf("timeZone");
  return zones.includes("UTC") ? zones : [...zones, "UTC"].sort();
}
