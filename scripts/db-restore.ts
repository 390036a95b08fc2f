// npm run db:restore -- <backup.tar.gz> [--force]
// Restores a backup made by db:backup into the configured database (DATABASE_URL, or the
// embedded one in DATA_DIR — which may be a new, empty directory). Refuses a database with
// content unless --force.
import { writeFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { openDatabase, setDatabase } from "../app/db/client.server";
import { restoreBackup } from "../app/lib/backup.server";
import { EnvError, parseEnv, setEnv } from "../app/lib/env.server";

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { force: { type: "boolean", default: false } },
});
const file = positionals[0];
if (!file) {
  console.error("Usage: npm run db:restore -- <backup.tar.gz> [--force]");
  process.exit(1);
}
try {
  const env = parseEnv();
  setEnv(env);
  const database = await openDatabase(
    env.DATABASE_URL ? { databaseUrl: env.DATABASE_URL } : { dataDir: env.DATA_DIR },
  );
  setDatabase(database);
  try {
    await database.migrate();
    const result = await restoreBackup(database.db, path.resolve(file), { force: values.force });
    if (result.sessionSecret && !env.DATABASE_URL) {
      writeFileSync(path.join(env.DATA_DIR, "session-secret"), result.sessionSecret, {
        mode: 0o600,
      });
    }
    const rows = Object.values(result.counts).reduce((a, b) => a + b, 0);
    console.log(`Restored ${rows} rows and ${result.files} files from ${file}.`);
  } finally {
    await database.close();
  }
} catch (error) {
  console.error(
    error instanceof EnvError ? error.message : `Restore failed: ${(error as Error).message}`,
  );
  process.exit(1);
}
