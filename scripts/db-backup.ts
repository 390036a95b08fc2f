// npm run db:backup -- [--out backups/kongamano-<time>.tar.gz]
// Logical backup of the configured database (DATABASE_URL, or the embedded one in DATA_DIR) plus
// the uploaded files it refers to. Embedded mode: stop the app first (PGlite is single-process).
import path from "node:path";
import { parseArgs } from "node:util";
import { openDatabase, setDatabase } from "../app/db/client.server";
import { createBackup } from "../app/lib/backup.server";
import { EnvError, parseEnv, setEnv } from "../app/lib/env.server";

const { values } = parseArgs({ options: { out: { type: "string" } } });
try {
  const env = parseEnv();
  setEnv(env);
  const file = path.resolve(
    values.out ?? `backups/kongamano-${new Date().toISOString().replace(/[:.]/g, "-")}.tar.gz`,
  );
  const database = await openDatabase(
    env.DATABASE_URL ? { databaseUrl: env.DATABASE_URL } : { dataDir: env.DATA_DIR },
  );
  setDatabase(database);
  try {
    await database.migrate();
    const result = await createBackup(database.db, file, {
      // Embedded mode keeps its generated secret (it also encrypts two-factor secrets).
      sessionSecret: env.DATABASE_URL ? undefined : env.SESSION_SECRET,
    });
    const rows = Object.values(result.counts).reduce((a, b) => a + b, 0);
    console.log(
      `Backup written to ${file}: ${rows} rows in ${Object.keys(result.counts).length} tables, ${result.files} files.`,
    );
  } finally {
    await database.close();
  }
} catch (error) {
  console.error(
    error instanceof EnvError ? error.message : `Backup failed: ${(error as Error).message}`,
  );
  process.exit(1);
}
