import { createHash, randomBytes } from "node:crypto";
import { isAPIError } from "better-auth/api";
import { and, desc, eq, gt, isNull, sql } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import { invitations, user } from "~/db/schema";
import { recordAudit } from "~/lib/audit.server";
import { authErrorMessage, getAuth } from "~/lib/auth.server";
import { env } from "~/lib/env.server";
import { formatDate, formatTime } from "~/lib/format";
import { logger } from "~/lib/logger.server";
import { sendMail } from "~/lib/mail.server";
import { renderMail } from "~/lib/mail-layout.server";
import { ROLE_LABELS, type Role } from "~/lib/roles";

export const INVITATION_TTL_MS = 7 * 24 * 60 * 60 * 1000;

/** The one-time token travels only in the e-mail; the database keeps its SHA-256. */
export function hashInvitationToken(token: string) {
  return createHash("sha256").update(token, "utf8").digest("hex");
}

/** Our tokens are 43 base64url characters; anything else is not worth a query. */
function isTokenShaped(token: unknown): token is string {
  return typeof token === "string" && /^[A-Za-z0-9_-]{16,128}$/.test(token);
}

function newToken() {
  return randomBytes(32).toString("base64url");
}

function invitationUrl(token: string) {
  return `${env().BASE_URL}/invite/${token}`;
}

function normaliseEmail(email: string) {
  return email.trim().toLowerCase();
}

export type PendingInvitation = {
  id: string;
  email: string;
  role: Role;
  invitedBy: string | null;
  createdAt: string;
  expiresAt: string;
  expired: boolean;
};

/** Invitations neither accepted nor revoked, newest first (expired ones flagged). */
export async function listPendingInvitations(now = new Date()): Promise<PendingInvitation[]> {
  const rows = await getDb()
    .select({
      id: invitations.id,
      email: invitations.email,
      role: invitations.role,
      invitedBy: user.name,
      createdAt: invitations.createdAt,
      expiresAt: invitations.expiresAt,
    })
    .from(invitations)
    .leftJoin(user, eq(user.id, invitations.invitedBy))
    .where(and(isNull(invitations.acceptedAt), isNull(invitations.revokedAt)))
    .orderBy(desc(invitations.createdAt))
    .limit(100);
  return rows.map((r) => ({
    ...r,
    createdAt: r.createdAt.toISOString(),
    expiresAt: r.expiresAt.toISOString(),
    expired: r.expiresAt <= now,
  }));
}

export type CreateInvitationResult =
  | { ok: true; id: string; email: string }
  | { ok: false; reason: "user_exists" | "send_failed" };

/**
 * Invites `email` with a pre-assigned role: a pending invitation for the same address is revoked,
 * a new one stored (token hash, 7-day expiry) and the one-time link mailed. When the mail cannot
 * be sent the new invitation is deleted again, so nothing is left pending.
 */
export async function createInvitation(
  request: Request,
  input: { email: string; role: Role; invitedBy: string; inviterName: string },
): Promise<CreateInvitationResult> {
  const db = getDb();
  const email = normaliseEmail(input.email);
  const [existing] = await db
    .select({ id: user.id })
    .from(user)
    .where(eq(sql`lower(${user.email})`, email))
    .limit(1);
  if (existing) return { ok: false, reason: "user_exists" };

  const token = newToken();
  const expiresAt = new Date(Date.now() + INVITATION_TTL_MS);
  const { id, replaced } = await db.transaction(async (tx) => {
    const replaced = await tx
      .update(invitations)
      .set({ revokedAt: new Date() })
      .where(
        and(
          eq(invitations.email, email),
          isNull(invitations.acceptedAt),
          isNull(invitations.revokedAt),
        ),
      )
      .returning({ id: invitations.id });
    const [row] = await tx
      .insert(invitations)
      .values({
        email,
        role: input.role,
        tokenHash: hashInvitationToken(token),
        invitedBy: input.invitedBy,
        expiresAt,
      })
      .returning({ id: invitations.id });
    return { id: row.id, replaced };
  });

  try {
    await sendMail(
      invitationMail({
        to: email,
        token,
        role: input.role,
        inviterName: input.inviterName,
        expiresAt,
      }),
    );
  } catch (error) {
    logger.error({ err: error, invitationId: id }, "invitation mail failed");
    await db.delete(invitations).where(eq(invitations.id, id));
    return { ok: false, reason: "send_failed" };
  }

  for (const old of replaced) {
    await recordAudit(request, {
      action: "invitation.revoke",
      actorId: input.invitedBy,
      actorEmail: email,
      entity: "invitation",
      entityId: old.id,
      details: { reason: "replaced by a new invitation" },
    });
  }
  await recordAudit(request, {
    action: "invitation.create",
    actorId: input.invitedBy,
    actorEmail: email,
    entity: "invitation",
    entityId: id,
    details: { role: input.role, expiresAt: expiresAt.toISOString() },
  });
  return { ok: true, id, email };
}

function invitationMail({
  to,
  token,
  role,
  inviterName,
  expiresAt,
}: {
  to: string;
  token: string;
  role: Role;
  inviterName: string;
  expiresAt: Date;
}) {
  const url = invitationUrl(token);
  const until = `${formatDate(expiresAt)} at ${formatTime(expiresAt)} (Nairobi time)`;
  const roleLabel = ROLE_LABELS[role];
  const article = /^[AEIOU]/.test(roleLabel) ? "an" : "a";
  return {
    to,
    ...renderMail({
      subject: "You're invited to join Kongamano",
      greeting: "Hello,",
      blocks: [
        {
          kind: "paragraph",
          text: `${inviterName} has invited you to join Kongamano as ${article} ${roleLabel}.`,
        },
        { kind: "paragraph", text: "Create your account with this one-time link." },
        { kind: "button", label: "Create your account", url },
        {
          kind: "note",
          text: `The link expires on ${until}. If you did not expect this invitation, you can ignore this e-mail.`,
        },
      ],
    }),
  };
}

/** Revokes a pending invitation; false when it was not pending. */
export async function revokeInvitation(request: Request, id: string, actorId: string) {
  const [row] = await getDb()
    .update(invitations)
    .set({ revokedAt: new Date() })
    .where(
      and(eq(invitations.id, id), isNull(invitations.acceptedAt), isNull(invitations.revokedAt)),
    )
    .returning({ id: invitations.id, email: invitations.email });
  if (!row) return false;
  await recordAudit(request, {
    action: "invitation.revoke",
    actorId,
    actorEmail: row.email,
    entity: "invitation",
    entityId: row.id,
  });
  return true;
}

export type InvitationState = "valid" | "invalid" | "expired" | "revoked" | "accepted";

/** What a token link shows: the invited e-mail and role only while it can still be used. */
export async function findInvitation(
  token: string,
  now = new Date(),
): Promise<
  { state: Exclude<InvitationState, "valid"> } | { state: "valid"; email: string; role: Role }
> {
  if (!isTokenShaped(token)) return { state: "invalid" };
  const [row] = await getDb()
    .select({
      email: invitations.email,
      role: invitations.role,
      expiresAt: invitations.expiresAt,
      acceptedAt: invitations.acceptedAt,
      revokedAt: invitations.revokedAt,
    })
    .from(invitations)
    .where(eq(invitations.tokenHash, hashInvitationToken(token)))
    .limit(1);
  if (!row) return { state: "invalid" };
  if (row.acceptedAt) return { state: "accepted" };
  if (row.revokedAt) return { state: "revoked" };
  if (row.expiresAt <= now) return { state: "expired" };
  return { state: "valid", email: row.email, role: row.role };
}

export type AcceptInvitationResult =
  | { ok: true; userId: string; role: Role; headers: Headers | null }
  | { ok: false; state: Exclude<InvitationState, "valid"> }
  | { ok: false; state: "valid"; error: string };

/**
 * Accepts an invitation: claims it atomically (only one request can move it out of pending, so a
 * double submit creates one account), creates the account through better-auth with the invited
 * role and the e-mail verified (the link proved it), then signs the new user in. A failure
 * before the account exists releases the claim, so the link still works for a corrected retry.
 */
export async function acceptInvitation(
  request: Request,
  input: { token: string; name: string; password: string },
): Promise<AcceptInvitationResult> {
  if (!isTokenShaped(input.token)) return { ok: false, state: "invalid" };
  const db = getDb();
  const tokenHash = hashInvitationToken(input.token);
  const [claimed] = await db
    .update(invitations)
    .set({ acceptedAt: new Date() })
    .where(
      and(
        eq(invitations.tokenHash, tokenHash),
        isNull(invitations.acceptedAt),
        isNull(invitations.revokedAt),
        gt(invitations.expiresAt, new Date()),
      ),
    )
    .returning({ id: invitations.id, email: invitations.email, role: invitations.role });
  if (!claimed) {
    const found = await findInvitation(input.token);
    return { ok: false, state: found.state === "valid" ? "accepted" : found.state };
  }

  const release = async (error: string): Promise<AcceptInvitationResult> => {
    await db.update(invitations).set({ acceptedAt: null }).where(eq(invitations.id, claimed.id));
    return { ok: false, state: "valid", error };
  };

  const [existing] = await db
    .select({ id: user.id })
    .from(user)
    .where(eq(sql`lower(${user.email})`, claimed.email))
    .limit(1);
  if (existing) {
    return release("An account with this email already exists. Please sign in instead.");
  }

  const auth = getAuth();
  let userId: string;
  try {
    // better-auth's server-side user creation (admin plugin): hashes the password with the
    // configured hasher, creates the user and credential account in one transaction, already
    // verified and with the invited role, and sends no verification mail (the link proved it).
    const created = await auth.api.createUser({
      body: {
        email: claimed.email,
        password: input.password,
        name: input.name,
        role: claimed.role,
        data: { emailVerified: true },
      },
    });
    userId = created.user.id;
  } catch (error) {
    logger.warn({ err: error }, "invitation account creation failed");
    return release(
      isAPIError(error)
        ? authErrorMessage(error)
        : "Could not create the account. Please try again.",
    );
  }

  // The account exists now; if signing in fails (e.g. rate limited) the person signs in by hand.
  let headers: Headers | null = null;
  try {
    const signIn = await auth.api.signInEmail({
      body: { email: claimed.email, password: input.password },
      headers: request.headers,
      returnHeaders: true,
    });
    headers = signIn.headers;
  } catch (error) {
    logger.warn({ err: error }, "sign-in after accepting an invitation failed");
  }

  await recordAudit(request, {
    action: "invitation.accepted",
    actorId: userId,
    actorEmail: claimed.email,
    entity: "invitation",
    entityId: claimed.id,
    details: { role: claimed.role },
  });
  return { ok: true, userId, role: claimed.role, headers };
}
