// `npm run db:seed [-- --demo]`: seeds the demo content into the configured database when it has
// no events. Demo accounts: always on the embedded database; with DATABASE_URL only with --demo.
import { openDatabase, setDatabase } from "~/db/client.server";
import { EnvError, parseEnv, setEnv } from "~/lib/env.server";
import { seedIfEmpty } from "~/models/seed/seed.server";

async function main() {
  let env: ReturnType<typeof parseEnv>;
  try {
    env = parseEnv();
  } catch (error) {
    if (error instanceof EnvError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  setEnv(env);
  const demoAccounts = !env.DATABASE_URL || process.argv.includes("--demo");
  const database = await openDatabase(
    env.DATABASE_URL ? { databaseUrl: env.DATABASE_URL } : { dataDir: env.DATA_DIR },
  );
  setDatabase(database);
  try {
    await database.migrate();
    const started = Date.now();
    const result = await seedIfEmpty({ demoAccounts });
    const where = env.DATABASE_URL
      ? "PostgreSQL (DATABASE_URL)"
      : `embedded database in ${env.DATA_DIR}`;
    console.log(
      result.content
        ? `Seeded the demo content into the ${where} in ${Date.now() - started} ms.`
        : `The ${where} already has events: content left unchanged.`,
    );
    if (result.accountsCreated.length) {
      console.log(`Demo accounts created: ${result.accountsCreated.join(", ")}.`);
    } else if (demoAccounts) {
      console.log("Demo accounts already present.");
    } else {
      console.log("No demo accounts on DATABASE_URL (add --demo to create them).");
    }
  } finally {
    await database.close();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
