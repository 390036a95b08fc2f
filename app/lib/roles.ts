/** Roles and their rank (spec §6): a check for a role passes when the user's rank is at least it. */
export const ROLES = ["user", "editor", "admin"] as const;
export type Role = (typeof ROLES)[number];

const RANK: Record<Role, number> = { user: 1, editor: 2, admin: 3 };

export function isRole(value: unknown): value is Role {
  return typeof value === "string" && (ROLES as readonly string[]).includes(value);
}

/** A missing or unknown role counts as `user` (spec §6: a failed role read means user). */
export function normaliseRole(value: unknown): Role {
  return isRole(value) ? value : "user";
}

/** `required` may be one role (rank semantics) or a list (any of them). */
export function hasRole(actual: unknown, required: Role | readonly Role[]): boolean {
  const role = normaliseRole(actual);
  if (Array.isArray(required)) return required.includes(role);
  return RANK[role] >= RANK[required as Role];
}

/** How roles read in the back office (spec §2.15: Make Admin / Make Editor / Make User). */
export const ROLE_LABELS: Record<Role, string> = { admin: "Admin", editor: "Editor", user: "User" };

/** Highest first, the order of the row menu and the invite form. */
export const ROLES_DESCENDING: readonly Role[] = ["admin", "editor", "user"];
