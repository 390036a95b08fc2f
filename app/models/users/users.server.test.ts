import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { auditLog, user } from "~/db/schema";
import { authErrorCode, CLIENT_IP_HEADER, getAuth } from "~/lib/auth.server";
import type { Role } from "~/lib/roles";
import { useTestDatabase } from "../../../tests/helpers/db";
import { sessionCookieFor } from "../../../tests/helpers/session";
import { changeUserRole, likePattern, listUsers, USERS_PAGE_SIZE } from "./users.server";

describe("admin users", () => {
  const database = useTestDatabase();
  const request = () => new Request("http://localhost:3000/admin/users", { method: "POST" });

  async function addUser(name: string, email: string, role: Role = "user", createdAt = new Date()) {
    const id = randomUUID();
    await database.db
      .insert(user)
      .values({ id, name, email, role, createdAt, updatedAt: createdAt });
    return id;
  }

  async function adminIds() {
    const rows = await database.db.select({ id: user.id }).from(user).where(eq(user.role, "admin"));
    return rows.map((r) => r.id);
  }

  beforeEach(async () => {
    await database.db.delete(auditLog);
    await database.db.delete(user);
  });

  describe("listUsers", () => {
    it("masks every e-mail and never returns the full address", async () => {
      await addUser("Jane Doe", "jane.doe@example.com");
      const { users } = await listUsers({});
      expect(users).toHaveLength(1);
      expect(users[0].maskedEmail).toBe("j******e@example.com");
      expect(JSON.stringify(users)).not.toContain("jane.doe@");
    });

    it("lists newest first and paginates", async () => {
      const base = Date.UTC(2026, 0, 1);
      for (let i = 0; i < USERS_PAGE_SIZE + 3; i++) {
        await addUser(`User ${i}`, `user${i}@example.com`, "user", new Date(base + i * 60_000));
      }
      const first = await listUsers({ page: 1 });
      expect(first.total).toBe(USERS_PAGE_SIZE + 3);
      expect(first.pageCount).toBe(2);
      expect(first.users[0].name).toBe(`User ${USERS_PAGE_SIZE + 2}`);
      const second = await listUsers({ page: 2 });
      expect(second.users.map((u) => u.name)).toEqual(["User 2", "User 1", "User 0"]);
      // An out-of-range page shows the last one rather than nothing.
      expect((await listUsers({ page: 99 })).page).toBe(2);
    });

    it("finds parts of names and of e-mails, whatever the case (spec: search by name or e-mail)", async () => {
      await addUser("Jane Doe", "jane.doe@example.com");
      await addUser("John Smith", "member@kongamano.test");
      expect((await listUsers({ q: "doe" })).users.map((u) => u.name)).toEqual(["Jane Doe"]);
      expect((await listUsers({ q: "JANE.DOE@EXAMPLE.COM" })).users.map((u) => u.name)).toEqual([
        "Jane Doe",
      ]);
      expect((await listUsers({ q: "member" })).users.map((u) => u.name)).toEqual(["John Smith"]);
      expect((await listUsers({ q: "kongamano.test" })).users.map((u) => u.name)).toEqual([
        "John Smith",
      ]);
      expect((await listUsers({ q: "nobody" })).users).toEqual([]);
    });

    it("treats % and _ in the search as plain characters", async () => {
      await addUser("Percent 100%", "p@example.com");
      await addUser("Other", "o@example.com");
      expect((await listUsers({ q: "%" })).users.map((u) => u.name)).toEqual(["Percent 100%"]);
      expect(likePattern("a_b")).toBe("%a\\_b%");
    });

    it("filters by role", async () => {
      await addUser("An Admin", "a@example.com", "admin");
      await addUser("An Editor", "e@example.com", "editor");
      await addUser("A User", "u@example.com", "user");
      expect((await listUsers({ role: "editor" })).users.map((u) => u.name)).toEqual(["An Editor"]);
    });
  });

  describe("changeUserRole", () => {
    it("changes the role and writes an audit row with from and to", async () => {
      const admin = await addUser("Admin", "admin@example.com", "admin");
      const target = await addUser("Target", "target@example.com", "user");
      const result = await changeUserRole(request(), {
        actorId: admin,
        userId: target,
        role: "editor",
      });
      expect(result).toEqual({ ok: true, name: "Target", from: "user", to: "editor" });
      const [row] = await database.db.select().from(user).where(eq(user.id, target));
      expect(row.role).toBe("editor");
      const audit = await database.db.select().from(auditLog);
      expect(audit).toHaveLength(1);
      expect(audit[0]).toMatchObject({
        action: "user.role_change",
        actorId: admin,
        entity: "user",
        entityId: target,
        details: { from: "user", to: "editor" },
      });
    });

    it("refuses to demote the last admin, also when they demote themselves", async () => {
      const admin = await addUser("Only Admin", "admin@example.com", "admin");
      const result = await changeUserRole(request(), {
        actorId: admin,
        userId: admin,
        role: "user",
      });
      expect(result).toEqual({ ok: false, reason: "last_admin" });
      const [row] = await database.db.select().from(user).where(eq(user.id, admin));
      expect(row.role).toBe("admin");
      expect(await database.db.select().from(auditLog)).toEqual([]);
    });

    it("lets an admin step down while another admin remains", async () => {
      const a = await addUser("Admin A", "a@example.com", "admin");
      await addUser("Admin B", "b@example.com", "admin");
      const result = await changeUserRole(request(), { actorId: a, userId: a, role: "editor" });
      expect(result).toMatchObject({ ok: true, from: "admin", to: "editor" });
    });

    it("lets only one of two concurrent demotions of the last two admins pass", async () => {
      const a = await addUser("Admin A", "a@example.com", "admin");
      const b = await addUser("Admin B", "b@example.com", "admin");
      const results = await Promise.all([
        changeUserRole(request(), { actorId: a, userId: a, role: "user" }),
        changeUserRole(request(), { actorId: b, userId: b, role: "user" }),
      ]);
      expect(results.filter((r) => r.ok)).toHaveLength(1);
      const admins = await database.db.select().from(user).where(eq(user.role, "admin"));
      expect(admins).toHaveLength(1);
    });

    it("keeps one admin in 50 rounds of the last two admins demoting themselves at once", async () => {
      for (let round = 0; round < 50; round++) {
        const a = await addUser("Admin A", `a${round}@example.com`, "admin");
        const b = await addUser("Admin B", `b${round}@example.com`, "admin");
        const results = await Promise.all([
          changeUserRole(request(), { actorId: a, userId: a, role: "user" }),
          changeUserRole(request(), { actorId: b, userId: b, role: "editor" }),
        ]);
        expect(
          results.filter((r) => r.ok),
          `round ${round}`,
        ).toHaveLength(1);
        expect(await adminIds(), `round ${round}`).toHaveLength(1);
        await database.db.delete(user);
      }
    });

    it("writes no audit row when the role does not change, and reports unknown users", async () => {
      const admin = await addUser("Admin", "admin@example.com", "admin");
      const editor = await addUser("Editor", "editor@example.com", "editor");
      expect(
        await changeUserRole(request(), { actorId: admin, userId: editor, role: "editor" }),
      ).toMatchObject({ ok: true, from: "editor", to: "editor" });
      expect(await database.db.select().from(auditLog)).toEqual([]);
      expect(
        await changeUserRole(request(), { actorId: admin, userId: randomUUID(), role: "user" }),
      ).toEqual({ ok: false, reason: "not_found" });
    });
  });

  describe("last admin under races", () => {
    let client = 0;
    async function deleteSelf(userId: string) {
      // Each from its own address: better-auth's per-client limit is not what is tested here.
      const ip = `10.9.${Math.floor(client / 250)}.${(client++ % 250) + 1}`;
      try {
        await getAuth().api.deleteUser({
          body: {},
          headers: new Headers({
            cookie: await sessionCookieFor(userId, ip),
            [CLIENT_IP_HEADER]: ip,
          }),
        });
        return "deleted";
      } catch (error) {
        return authErrorCode(error);
      }
    }

    it("keeps one admin in 50 rounds of the last two admins deleting their accounts at once", async () => {
      for (let round = 0; round < 50; round++) {
        const pair = [
          await addUser("Admin A", `a${round}@example.com`, "admin"),
          await addUser("Admin B", `b${round}@example.com`, "admin"),
        ];
        const outcomes = await Promise.all(pair.map(deleteSelf));
        expect(outcomes.sort(), `round ${round}`).toEqual(["LAST_ADMIN", "deleted"]);
        const left = await adminIds();
        expect(left, `round ${round}`).toHaveLength(1);
        expect(pair).toContain(left[0]);
        await database.db.delete(user);
      }
    });

    it("keeps one admin in 50 rounds of one of the last two deleting while the other steps down", async () => {
      for (let round = 0; round < 50; round++) {
        const a = await addUser("Admin A", `a${round}@example.com`, "admin");
        const b = await addUser("Admin B", `b${round}@example.com`, "admin");
        const [deleted, demoted] = await Promise.all([
          deleteSelf(a),
          changeUserRole(request(), { actorId: b, userId: b, role: "user" }),
        ]);
        // Whichever came first went through; the other found the last admin and was refused.
        expect([deleted === "deleted", demoted.ok].filter(Boolean), `round ${round}`).toHaveLength(
          1,
        );
        expect(await adminIds(), `round ${round}`).toHaveLength(1);
        await database.db.delete(user);
      }
    });

    it("lets an admin delete their account while another admin remains, and never the last", async () => {
      const a = await addUser("Admin A", "a@example.com", "admin");
      const b = await addUser("Admin B", "b@example.com", "admin");
      expect(await deleteSelf(a)).toBe("deleted");
      expect(await deleteSelf(b)).toBe("LAST_ADMIN");
      expect(await adminIds()).toEqual([b]);
    });
  });
});
