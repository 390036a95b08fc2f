import type { ProfileUser } from "~/components/profile-shared";
import { Badge } from "~/components/ui/badge";
import { Card, CardContent, CardDescription, CardHeader } from "~/components/ui/card";
import { formatDate } from "~/lib/format";

const ROLE_LABEL = { user: "User", editor: "Editor", admin: "Admin" } as const;

/** Account status (spec §2.14): role, member since, last updated; plus verification and 2FA. */
export function ProfileAccountStatus({ user }: { user: ProfileUser }) {
  const rows: { label: string; value: React.ReactNode }[] = [
    {
      label: "Role",
      value: (
        <Badge variant={user.role === "user" ? "neutral" : "info"} data-testid="profile-role">
          {ROLE_LABEL[user.role]}
        </Badge>
      ),
    },
    { label: "Member Since", value: formatDate(user.createdAt) },
    { label: "Last Updated", value: formatDate(user.updatedAt) },
    {
      label: "Email",
      value: user.emailVerified ? (
        <Badge variant="success">Verified</Badge>
      ) : (
        <Badge variant="warning">Not verified</Badge>
      ),
    },
    {
      label: "Two-Factor Authentication",
      value: user.twoFactorEnabled ? (
        <Badge variant="success">Enabled</Badge>
      ) : (
        <Badge variant="neutral">Disabled</Badge>
      ),
    },
  ];
  return (
    <Card>
      <CardHeader>
        <h2 className="text-lg font-semibold leading-tight">Account Status</h2>
        <CardDescription>Your role and account history.</CardDescription>
      </CardHeader>
      <CardContent>
        <dl className="grid gap-3 text-sm">
          {rows.map((row) => (
            <div key={row.label} className="flex items-center justify-between gap-4">
              <dt className="text-muted-foreground">{row.label}</dt>
              <dd className="font-medium">{row.value}</dd>
            </div>
          ))}
        </dl>
      </CardContent>
    </Card>
  );
}
