import { MailCheck } from "~/components/icons";
import { Badge } from "~/components/ui/badge";
import { formatDate } from "~/lib/format";
import type { Role } from "~/lib/roles";
import { ConfirmDeleteDialog } from "./confirm-delete-dialog";
import { EmptyState } from "./empty-state";
import { RoleBadge } from "./users-table";

export type InvitationRow = {
  id: string;
  email: string;
  role: Role;
  invitedBy: string | null;
  createdAt: string;
  expiresAt: string;
  expired: boolean;
};

/** Invitations not yet accepted or revoked, each revocable after a confirmation. */
export function InvitationList({ invitations }: { invitations: InvitationRow[] }) {
  if (invitations.length === 0) {
    return (
      <EmptyState
        icon={MailCheck}
        title="No pending invitations"
        hint="Invitations you send appear here until they are accepted, revoked or replaced."
      />
    );
  }
  return (
    <ul
      aria-label="Pending invitations"
      className="divide-y divide-border rounded-xl border border-border"
    >
      {invitations.map((invitation) => (
        <li key={invitation.id} className="flex flex-wrap items-center justify-between gap-3 p-4">
          <div className="grid gap-1">
            <div className="flex flex-wrap items-center gap-2">
              <span className="font-medium break-all">{invitation.email}</span>
              <RoleBadge role={invitation.role} />
              {invitation.expired ? <Badge variant="secondary">Expired</Badge> : null}
            </div>
            <p className="text-xs text-muted-foreground">
              Sent {formatDate(invitation.createdAt)}
              {invitation.invitedBy ? ` by ${invitation.invitedBy}` : ""} ·{" "}
              {invitation.expired ? "Expired" : "Expires"} {formatDate(invitation.expiresAt)}
            </p>
          </div>
          <ConfirmDeleteDialog
            itemName={`the invitation for ${invitation.email}`}
            title="Revoke this invitation?"
            description={
              <>
                The link sent to <strong>{invitation.email}</strong> will stop working. You can
                invite the same address again later.
              </>
            }
            fields={{ intent: "revoke", invitationId: invitation.id }}
            triggerLabel="Revoke"
            confirmLabel="Revoke"
          />
        </li>
      ))}
    </ul>
  );
}
