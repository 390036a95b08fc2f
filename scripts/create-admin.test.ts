import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { openDatabase, queryRows } from "~/db/client.server";
import { user } from "~/db/schema";
import { CLIENT_IP_HEADER, getAuth } from "~/lib/auth.server";
import { useTestDatabase } from "../tests/helpers/db";
import { createAdmin } from "./create-admin";

describe("create-admin", () => {
  const database = useTestDatabase();

  it("creates a verified admin who can sign in, and promotes an existing account", async () => {
    const created = await createAdmin({
      email: "First.Admin@Example.test",
      name: "First Admin",
      password: "Admin-Pass-2026",
    });
    expect(created.created).toBe(true);
    const [row] = await database.db
      .select()
      .from(user)
      .where(eq(user.email, "first.admin@example.test"));
    expect(row).toMatchObject({ role: "admin", emailVerified: true, name: "First Admin" });
    const signedIn = await getAuth().api.signInEmail({
      body: { email: "first.admin@example.test", password: "Admin-Pass-2026" },
      headers: new Headers({ [CLIENT_IP_HEADER]: "192.0.2.200" }),
    });
    expect(signedIn.user.id).toBe(row.id);

    const again = await createAdmin({
      email: "first.admin@example.test",
      name: "First Admin",
      password: "Another-Pass-2026",
    });
    expect(again).toEqual({ id: row.id, created: false });
    const audit = await queryRows<{ action: string }>(
      sql`select action from audit_log where entity_id = ${row.id} order by created_at`,
    );
    expect(audit.map((a) => a.action)).toEqual(
      expect.arrayContaining(["user.admin_created", "user.admin_promoted"]),
    );
  });

  it("refuses a password shorter than 8 characters", async () => {
    await expect(
      createAdmin({ email: "short@example.test", name: "Short", password: "Ab1!" }),
    ).rejects.toThrow("at least 8 characters");
  });

  it("runs from the command line with the password on stdin (embedded DATA_DIR)", async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), "kongamano-create-admin-"));
    const child = spawn(
      process.execPath,
      [
        "--import",
        "tsx",
        "scripts/create-admin.ts",
        "--email",
        "cli.admin@example.test",
        "--name",
        "Cli Admin",
      ],
      {
        env: {
          PATH: process.env.PATH,
          HOME: process.env.HOME,
          NODE_ENV: "development",
          DATA_DIR: dataDir,
          LOG_LEVEL: "silent",
        },
        stdio: ["pipe", "pipe", "pipe"],
      },
    );
    let output = "";
    child.stdout.on("data", (d) => {
      output += d;
    });
    child.stderr.on("data", (d) => {
      output += d;
    });
    child.stdin.end("Cli-Admin-Pass-1\n");
    const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
    expect(output).toContain("Created admin cli.admin@example.test");
    expect(code).toBe(0);

    const handle = await openDatabase({ dataDir });
    try {
      const rows = await queryRows<{ role: string; email_verified: boolean }>(
        sql`select role, email_verified from "user" where email = 'cli.admin@example.test'`,
        handle.db,
      );
      expect(rows).toEqual([{ role: "admin", email_verified: true }]);
    } finally {
      await handle.close();
    }
  }, 180_000);
});
