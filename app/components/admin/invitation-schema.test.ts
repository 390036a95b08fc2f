import { parseWithZod } from "@conform-to/zod/v4";
import { describe, expect, it } from "vitest";
import { AcceptInvitationSchema, InviteFormSchema } from "./invitation-schema";

function form(values: Record<string, string>) {
  const data = new FormData();
  for (const [k, v] of Object.entries(values)) data.set(k, v);
  return data;
}

describe("InviteFormSchema", () => {
  it("requires an e-mail with the spec's message", () => {
    const result = parseWithZod(form({ email: "", role: "editor" }), { schema: InviteFormSchema });
    expect(result.status).toBe("error");
    expect(result.reply().error?.email).toEqual(["Please enter an email address"]);
    const blank = parseWithZod(form({ email: "   " }), { schema: InviteFormSchema });
    expect(blank.reply().error?.email).toEqual(["Please enter an email address"]);
  });

  it("rejects a malformed address", () => {
    const result = parseWithZod(form({ email: "not-an-email" }), { schema: InviteFormSchema });
    expect(result.reply().error?.email).toEqual(["Please enter a valid email address"]);
  });

  it("defaults the role to user and accepts editor and admin", () => {
    const plain = parseWithZod(form({ email: " new@example.com " }), { schema: InviteFormSchema });
    expect(plain.status === "success" && plain.value).toEqual({
      email: "new@example.com",
      role: "user",
    });
    const admin = parseWithZod(form({ email: "a@example.com", role: "admin" }), {
      schema: InviteFormSchema,
    });
    expect(admin.status === "success" && admin.value.role).toBe("admin");
    const bogus = parseWithZod(form({ email: "a@example.com", role: "owner" }), {
      schema: InviteFormSchema,
    });
    expect(bogus.status).toBe("error");
  });
});

describe("AcceptInvitationSchema", () => {
  it("needs a name, a password of 8+ characters and a matching confirmation", () => {
    const empty = parseWithZod(form({}), { schema: AcceptInvitationSchema });
    expect(empty.reply().error).toMatchObject({
      fullName: ["Full name is required"],
      password: ["Password is required"],
    });
    const short = parseWithZod(
      form({ fullName: "A", password: "short", confirmPassword: "short" }),
      { schema: AcceptInvitationSchema },
    );
    expect(short.reply().error?.password).toEqual(["Password must be at least 8 characters long."]);
    const mismatch = parseWithZod(
      form({ fullName: "A", password: "long-enough-1", confirmPassword: "long-enough-2" }),
      { schema: AcceptInvitationSchema },
    );
    expect(mismatch.reply().error?.confirmPassword).toEqual(["Passwords do not match."]);
    const ok = parseWithZod(
      form({ fullName: " Ada ", password: "long-enough-1", confirmPassword: "long-enough-1" }),
      { schema: AcceptInvitationSchema },
    );
    expect(ok.status === "success" && ok.value.fullName).toBe("Ada");
  });
});
