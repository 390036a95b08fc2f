import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import pg from "pg";
import type { TestProject } from "vitest/node";
import { openDatabase } from "~/db/client.server";

declare module "vitest" {
  export interface ProvidedContext {
    /** The migrated embedded database as a tarball (PGlite's dumpDataDir), one per run. */
    pgliteTemplate: string;
    /** The migrated PostgreSQL database each test file's database is copied from. */
    postgresTemplate: string;
    /**
     * A folder where the first spawned server of the run leaves a seeded data directory for the
     * others to copy (tests/helpers/server-process.ts).
     */
    serverDataTemplate: string;
  }
}

type Template = { pglite: string; postgres: string; server: string; remove(): Promise<void> };

/**
 * The run's template, made once: the root config and each of its projects (vitest.config.ts) call
 * the global setup, all in Vitest's main process. The last teardown removes it.
 */
const run = globalThis as { kongamanoTemplate?: { made: Promise<Template>; users: number } };

/**
 * Vitest global setup: migrates one database per run and hands it to every test file as a
 * template, instead of each of ~50 files running every migration again (issue 28).
 */
export default async function setup(project: TestProject) {
  run.kongamanoTemplate ??= { made: makeTemplate(), users: 0 };
  const shared = run.kongamanoTemplate;
  shared.users++;
  const template = await shared.made;
  project.provide("pgliteTemplate", template.pglite);
  project.provide("postgresTemplate", template.postgres);
  project.provide("serverDataTemplate", template.server);
  return async () => {
    if (--shared.users > 0) return;
    run.kongamanoTemplate = undefined;
    await template.remove();
  };
}

async function makeTemplate(): Promise<Template> {
  const made = await makeDatabaseTemplate();
  // Empty until a test file starts a server (tests/helpers/server-process.ts).
  const server = mkdtempSync(path.join(tmpdir(), "kongamano-server-template-"));
  return {
    ...made,
    server,
    async remove() {
      rmSync(server, { recursive: true, force: true });
      await made.remove();
    },
  };
}

async function makeDatabaseTemplate(): Promise<Omit<Template, "server">> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) {
    const folder = mkdtempSync(path.join(tmpdir(), "kongamano-template-"));
    const file = path.join(folder, "pglite.tar");
    const handle = await openDatabase({ memory: true });
    try {
      await handle.migrate();
      // template0 and template1 only serve CREATE DATABASE, which no test runs on PGlite: 15 of
      // the template's 44 MB that every test file's database would load again (decision 0131).
      await handle.db.execute(
        sql`update pg_database set datistemplate = false where datname in ('template0', 'template1')`,
      );
      await handle.db.execute(sql`drop database template0`);
      await handle.db.execute(sql`drop database template1`);
      await handle.db.execute(sql`checkpoint`);
      writeFileSync(file, (await handle.dump?.()) ?? new Uint8Array());
    } finally {
      await handle.close();
    }
    return {
      pglite: file,
      postgres: "",
      remove: async () => rmSync(folder, { recursive: true, force: true }),
    };
  }
  const name = `kongamano_template_${randomBytes(6).toString("hex")}`;
  await adminQuery(serverUrl, `CREATE DATABASE ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const handle = await openDatabase({ databaseUrl: url.toString(), poolSize: 1 });
  try {
    await handle.migrate();
  } finally {
    await handle.close();
  }
  return {
    pglite: "",
    postgres: name,
    remove: () => adminQuery(serverUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
  };
}

export async function adminQuery(serverUrl: string, statement: string) {
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(statement);
  } finally {
    await admin.end();
  }
}
