import type { Role } from "~/lib/roles";

/** How roles read in the back office (spec §2.15: Make Admin / Make Editor / Make User). */
export const ROLE_LABELS: Record<Role, string> = { admin: "Admin", editor: "Editor", user: "User" };

/** Highest first, the order of the row menu and the invite form. */
export const ROLES_DESCENDING: readonly Role[] = ["admin", "editor", "user"];
