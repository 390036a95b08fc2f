import { env, parseEnv } from "~/lib/env.server";

/** The configuration every test starts from (tests/helpers/setup.ts applies it per file). */
export const TEST_SETTINGS = {
  NODE_ENV: "test",
  BASE_URL: "http://localhost:3000",
  SESSION_SECRET: "test-secret-test-secret-test-secret-0123456789",
  LOG_LEVEL: "silent",
  // Admin two-factor is on by default; tests of admin screens sign admins in without an
  // authenticator. The requirement itself is tested in permissions.server.test.ts and
  // tests/integration/auth-endpoints.test.ts.
  REQUIRE_ADMIN_MFA: "false",
} as const;

/** The test configuration with `overrides` (an SMTP server, a staff inbox…), same data directory. */
export function testEnv(overrides: Record<string, string> = {}) {
  return parseEnv({ ...TEST_SETTINGS, DATA_DIR: env().DATA_DIR, ...overrides });
}
