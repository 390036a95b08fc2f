import { beforeAll, describe, expect, it } from "vitest";
import { contactMessages } from "~/db/schema";
import { CLIENT_IP_HEADER, upsertUserWithPassword } from "~/lib/auth.server";
import { defineJob, enqueueJob, runDueJobs } from "~/models/jobs.server";
import { wireProcess } from "~/models/wiring.server";
import { useTestDatabase } from "../../../tests/helpers/db";
import { thrownResponse as thrown } from "../../../tests/helpers/route";
import { sessionCookie } from "../../../tests/helpers/session";
import { action as jobsAction, loader as jobsLoader } from "./jobs";
import { action as messagesAction, loader as messagesLoader } from "./messages";
import { action as securityAction, loader as securityLoader } from "./security";
import { loader as activityCsvLoader } from "./security-activity-csv";
import { action as usersAction, loader as usersLoader } from "./users";

// The jobs and reactions this process runs, as the server registers them.
wireProcess();

// The route modules as the server runs them: real sessions, real role checks, real queries.
describe("admin-ops routes", () => {
  const database = useTestDatabase();
  const PASSWORD = "Route-test-pass-42";
  const cookies: Record<"admin" | "editor", string> = { admin: "", editor: "" };
  let ip = 1;

  const signIn = (email: string) => sessionCookie(email, PASSWORD, `198.51.100.${ip++}`);

  function request(path: string, who: keyof typeof cookies, body?: Record<string, string>) {
    return new Request(`http://localhost:3000${path}`, {
      method: body ? "POST" : "GET",
      headers: { cookie: cookies[who], [CLIENT_IP_HEADER]: "198.51.100.200" },
      body: body ? new URLSearchParams(body) : undefined,
    });
  }

  // biome-ignore lint/suspicious/noExplicitAny: the route args beyond `request` are unused here
  const args = (req: Request) => ({ request: req, params: {}, context: {} }) as any;

  beforeAll(async () => {
    await upsertUserWithPassword({
      email: "root@example.com",
      name: "Root Admin",
      password: PASSWORD,
      role: "admin",
    });
    await upsertUserWithPassword({
      email: "ed@example.com",
      name: "Ed Itor",
      password: PASSWORD,
      role: "editor",
    });
    await upsertUserWithPassword({
      email: "jane.doe@example.com",
      name: "Jane Doe",
      password: PASSWORD,
      role: "user",
    });
    cookies.admin = await signIn("root@example.com");
    cookies.editor = await signIn("ed@example.com");
  });

  it("the users loader sends masked e-mails only, even when searched by the full address", async () => {
    const data = await usersLoader(
      args(request("/admin/users?search=JANE.DOE@example.com", "admin")),
    );
    expect(data.users.map((u) => [u.name, u.maskedEmail])).toEqual([
      ["Jane Doe", "j******e@example.com"],
    ]);
    const all = JSON.stringify(await usersLoader(args(request("/admin/users", "admin"))));
    for (const email of ["root@example.com", "ed@example.com", "jane.doe@example.com"]) {
      expect(all).not.toContain(email);
    }
  });

  it("refuses editors: pages redirect to / with Access Denied, actions answer 403", async () => {
    for (const load of [
      () => usersLoader(args(request("/admin/users", "editor"))),
      () => securityLoader(args(request("/admin/security?tab=activity", "editor"))),
      () => activityCsvLoader(args(request("/admin/security/activity.csv", "editor"))),
    ]) {
      const response = await thrown(load());
      expect(response.status).toBe(302);
      expect(response.headers.get("location")).toBe("/");
      expect(response.headers.get("set-cookie")).toContain("kongamano_toast");
    }
    const change = await thrown(
      usersAction(
        args(
          request("/admin/users", "editor", { intent: "change-role", userId: "x", role: "admin" }),
        ),
      ),
    );
    expect(change.status).toBe(403);
    const invite = await thrown(
      securityAction(
        args(request("/admin/security", "editor", { intent: "invite", email: "a@b.co" })),
      ),
    );
    expect(invite.status).toBe(403);
  });

  it("a role change by an admin redirects back with the 'Role updated' toast", async () => {
    const { users } = await usersLoader(args(request("/admin/users?search=Jane", "admin")));
    const response = await usersAction(
      args(
        request("/admin/users?search=Jane", "admin", {
          intent: "change-role",
          userId: users[0].id,
          role: "editor",
        }),
      ),
    );
    expect(response).toBeInstanceOf(Response);
    const redirect = response as Response;
    expect(redirect.status).toBe(302);
    expect(redirect.headers.get("location")).toBe("/admin/users?search=Jane");
    const after = await usersLoader(args(request("/admin/users?search=Jane", "admin")));
    expect(after.users[0].role).toBe("editor");
  });

  it("invalid invite input answers 400 with the spec's message and keeps what was typed", async () => {
    const response = await securityAction(
      args(
        request("/admin/security?tab=users", "admin", {
          intent: "invite",
          email: "",
          role: "editor",
        }),
      ),
    );
    const init = response as unknown as {
      init: ResponseInit;
      data: { result: { error: object; initialValue: object } };
    };
    expect(init.init.status).toBe(400);
    expect(init.data.result.error).toEqual({ email: ["Please enter an email address"] });
    expect(init.data.result.initialValue).toMatchObject({ role: "editor" });
  });

  it("the activity CSV follows the filters of the page", async () => {
    const response = await activityCsvLoader(
      args(request("/admin/security/activity.csv?action=user.role_change", "admin")),
    );
    expect(response.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(response.headers.get("content-disposition")).toMatch(
      /attachment; filename="kongamano-activity-/,
    );
    const lines = (await response.text()).trimEnd().split("\r\n");
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain('"Root Admin","r**t@example.com","user.role_change","user"');
  });
  it("Scheduled Jobs lists a failed job with its error; an admin's Retry queues it again", async () => {
    defineJob("route.failing", async () => {
      throw new Error("550 mailbox unavailable");
    });
    const { id } = await enqueueJob(database.db, { kind: "route.failing", maxAttempts: 1 });
    await runDueJobs();
    const page = await jobsLoader(args(request("/admin/jobs", "admin")));
    expect(page.failed.map((j) => [j.id, j.kind, j.lastError, j.attempts])).toEqual([
      [id, "route.failing", "550 mailbox unavailable", 1],
    ]);

    const retried = await jobsAction(
      args(request("/admin/jobs", "admin", { intent: "retry", id })),
    );
    expect(retried).toBeInstanceOf(Response);
    expect((retried as Response).headers.get("location")).toBe("/admin/jobs");
    expect((retried as Response).headers.get("set-cookie")).toContain("kongamano_toast");
    const after = await jobsLoader(args(request("/admin/jobs", "admin")));
    expect(after.failed).toEqual([]);
    expect(after.pending.map((j) => [j.id, j.state])).toEqual([[id, "queued"]]);

    const again = await jobsAction(args(request("/admin/jobs", "admin", { intent: "retry", id })));
    expect((again as { init: ResponseInit }).init.status).toBe(404);
    const bad = await jobsAction(
      args(request("/admin/jobs", "admin", { intent: "retry", id: "not-a-uuid" })),
    );
    expect((bad as { init: ResponseInit }).init.status).toBe(400);

    const editorPage = await thrown(jobsLoader(args(request("/admin/jobs", "editor"))));
    expect(editorPage.status).toBe(302);
    const editorRetry = await thrown(
      jobsAction(args(request("/admin/jobs", "editor", { intent: "retry", id }))),
    );
    expect(editorRetry.status).toBe(403);
  });

  it("the inbox's read toggle answers a fetcher with data and a plain form post with a redirect", async () => {
    const [message] = await database.db
      .insert(contactMessages)
      .values({ name: "Halima", email: "h@example.com", subject: "Hybrid?", message: "Is it?" })
      .returning();
    const toggle = (read: string, dest: string) => {
      const req = request("/admin/messages?page=1", "editor", {
        intent: "mark-read",
        id: message.id,
        read,
      });
      req.headers.set("sec-fetch-dest", dest);
      return messagesAction(args(req));
    };
    // A fetcher (the app): data, so a delete submitted meanwhile is not interrupted by a redirect.
    const fetched = await toggle("true", "empty");
    expect(fetched).not.toBeInstanceOf(Response);
    expect((fetched as { data: unknown }).data).toEqual({ read: true });
    const read = await messagesLoader(args(request("/admin/messages", "editor")));
    expect(read.messages.find((m) => m.id === message.id)?.readAt).not.toBeNull();
    // Without JavaScript: the form post is redirected back to the page it came from.
    const posted = await toggle("false", "document");
    expect(posted).toBeInstanceOf(Response);
    expect((posted as Response).status).toBe(302);
    expect((posted as Response).headers.get("location")).toBe("/admin/messages?page=1");
    const unread = await messagesLoader(args(request("/admin/messages", "editor")));
    expect(unread.messages.find((m) => m.id === message.id)?.readAt).toBeNull();
  });
});
