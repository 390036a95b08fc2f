import { and, count, desc, eq, ilike, or, type SQL } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import { user } from "~/db/schema";
import { LastAdminError, setUserRole } from "~/lib/auth.server";
import { maskEmail } from "~/lib/mask-email";
import type { Role } from "~/lib/roles";

export const USERS_PAGE_SIZE = 20;

export type UserListQuery = { q?: string; role?: Role; page?: number };

/** A row of the admin user table. The e-mail is masked here, so the full address never leaves. */
export type AdminUserRow = {
  id: string;
  name: string;
  maskedEmail: string;
  role: Role;
  createdAt: string;
  updatedAt: string;
};

/** `%`, `_` and `\` in a search term match themselves. */
export function likePattern(term: string) {
  return `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * Users for the admin table (spec §2.15), newest first. The search matches parts of names and
 * e-mails, case-insensitive ('member' finds member@…; spec: "search by name or e-mail").
 */
export async function listUsers(query: UserListQuery) {
  const db = getDb();
  const filters: SQL[] = [];
  const term = query.q?.trim();
  if (term) {
    filters.push(or(ilike(user.name, likePattern(term)), ilike(user.email, likePattern(term)))!);
  }
  if (query.role) filters.push(eq(user.role, query.role));
  const where = filters.length ? and(...filters) : undefined;

  const [{ total }] = await db.select({ total: count() }).from(user).where(where);
  const pageCount = Math.max(1, Math.ceil(total / USERS_PAGE_SIZE));
  const page = Math.min(Math.max(1, query.page ?? 1), pageCount);
  const rows = await db
    .select({
      id: user.id,
      name: user.name,
      email: user.email,
      role: user.role,
      createdAt: user.createdAt,
      updatedAt: user.updatedAt,
    })
    .from(user)
    .where(where)
    .orderBy(desc(user.createdAt), desc(user.id))
    .limit(USERS_PAGE_SIZE)
    .offset((page - 1) * USERS_PAGE_SIZE);

  const users: AdminUserRow[] = rows.map((r) => ({
    id: r.id,
    name: r.name,
    maskedEmail: maskEmail(r.email),
    role: r.role,
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
  }));
  return { users, total, page, pageCount };
}

export type RoleChangeResult =
  | { ok: true; name: string; from: Role; to: Role }
  | { ok: false; reason: "not_found" | "last_admin" };

/**
 * Changes a user's role through the accounts module's `setUserRole` (last-admin guard, audit row
 * `user.role_change` with from/to) and names the user for the confirmation toast.
 */
export async function changeUserRole(
  request: Request,
  input: { actorId: string; userId: string; role: Role },
): Promise<RoleChangeResult> {
  const [target] = await getDb()
    .select({ name: user.name })
    .from(user)
    .where(eq(user.id, input.userId));
  if (!target) return { ok: false, reason: "not_found" };
  try {
    const from = await setUserRole(request, input);
    if (from === null) return { ok: false, reason: "not_found" };
    return { ok: true, name: target.name, from, to: input.role };
  } catch (error) {
    if (error instanceof LastAdminError) return { ok: false, reason: "last_admin" };
    throw error;
  }
}
