import { Link } from "react-router";
import {
  Activity,
  AlertTriangle,
  CheckCircle2,
  Database,
  type IconComponent,
  ShieldAlert,
  UserCheck,
  XCircle,
} from "~/components/icons";
import { Badge } from "~/components/ui/badge";
import { Card, CardContent, CardHeader } from "~/components/ui/card";
import { formatDate, formatTime } from "~/lib/format";
import { cn } from "~/lib/utils";
import { RISK_LABELS, type RiskLevel } from "~/models/security/activity-risk";
import type { RiskedActivity } from "~/models/security/audit-log.server";
import type { SecurityDashboard } from "~/models/security/security.server";
import { describeActivity } from "./activity-describe";

function StatTile({
  title,
  value,
  note,
  icon: Icon,
  tone = "default",
}: {
  title: string;
  value: string;
  note: string;
  icon: IconComponent;
  tone?: "default" | "warning" | "error";
}) {
  return (
    <Card className="p-5">
      <div className="flex items-start justify-between gap-3">
        <div className="grid gap-1">
          <h3 className="text-sm font-medium text-slate-700">{title}</h3>
          <p
            className={cn(
              "text-3xl font-semibold tabular-nums",
              tone === "warning" && "text-amber-800",
              tone === "error" && "text-destructive",
            )}
          >
            {value}
          </p>
          <p className="text-xs text-muted-foreground">{note}</p>
        </div>
        <Icon aria-hidden className="size-6 text-primary" />
      </div>
    </Card>
  );
}

const RISK_BADGE: Record<RiskLevel, "destructive" | "warning" | "success"> = {
  high: "destructive",
  medium: "warning",
  low: "success",
};

export function RiskBadge({ risk }: { risk: RiskLevel }) {
  return (
    <Badge variant={RISK_BADGE[risk]}>
      {RISK_LABELS[risk]}
      <span className="sr-only"> risk</span>
    </Badge>
  );
}

const STATUS_ICON = {
  ok: { icon: CheckCircle2, className: "text-green-700", label: "Operational" },
  warning: { icon: AlertTriangle, className: "text-amber-700", label: "Needs attention" },
  error: { icon: XCircle, className: "text-destructive", label: "Down" },
} as const;

function RecentActivity({ activity }: { activity: RiskedActivity[] }) {
  if (activity.length === 0) {
    return <p className="text-sm text-muted-foreground">No sign-ins or security events yet.</p>;
  }
  return (
    <ul className="divide-y divide-border">
      {activity.map((entry) => (
        <li key={entry.id} className="flex flex-wrap items-start justify-between gap-2 py-3">
          <div className="grid gap-0.5">
            <p className="text-sm font-medium">{describeActivity(entry)}</p>
            <p className="text-xs text-muted-foreground">
              {entry.actorName ?? entry.actorEmail ?? "Unknown"}
              {entry.ip && entry.ip !== "unknown" ? ` · ${entry.ip}` : ""} ·{" "}
              <time dateTime={entry.createdAt}>
                {formatDate(entry.createdAt)} {formatTime(entry.createdAt)}
              </time>
            </p>
          </div>
          <RiskBadge risk={entry.risk} />
        </li>
      ))}
    </ul>
  );
}

const SEVERITY_BADGE = { high: "destructive", medium: "warning", low: "info" } as const;

/** Spec §2.15's dashboard, with figures, status and advice computed from the live data. */
export function SecurityDashboardPanel({ dashboard }: { dashboard: SecurityDashboard }) {
  const { figures, status, activity, recommendations } = dashboard;
  const db = figures.database;
  return (
    <div className="grid gap-6">
      <section aria-labelledby="security-figures" className="grid gap-4">
        <h2 id="security-figures" className="sr-only">
          Figures for the last 24 hours
        </h2>
        <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
          <StatTile
            title="Active Users"
            value={String(figures.activeUsers)}
            note="Signed in or active in the last 24 hours"
            icon={UserCheck}
          />
          <StatTile
            title="Failed Logins"
            value={String(figures.failedSignIns)}
            note="Failed sign-ins in the last 24 hours"
            icon={ShieldAlert}
            tone={figures.failedSignIns > 0 ? "warning" : "default"}
          />
          <StatTile
            title="Security Events"
            value={String(figures.securityEvents)}
            note="Role, password and 2FA changes, invitations, failures (24 h)"
            icon={Activity}
          />
          <StatTile
            title="Database Queries"
            value={db.ok ? "Healthy" : "Down"}
            note={
              db.ok
                ? `Health check answered in ${db.latencyMs} ms`
                : "The database is not answering"
            }
            icon={Database}
            tone={db.ok ? "default" : "error"}
          />
        </div>
      </section>

      <div className="grid gap-6 lg:grid-cols-2">
        <Card>
          <CardHeader>
            <h2 className="text-lg font-semibold leading-tight">System Status</h2>
          </CardHeader>
          <CardContent>
            <ul className="grid gap-3">
              {status.map((item) => {
                const s = STATUS_ICON[item.status];
                return (
                  <li key={item.name} className="flex items-start gap-3">
                    <s.icon aria-hidden className={cn("mt-0.5 size-5 shrink-0", s.className)} />
                    <div className="grid gap-0.5">
                      <p className="text-sm font-medium">
                        {item.name}
                        <span className="sr-only">: {s.label}</span>
                      </p>
                      <p className="text-xs text-muted-foreground">{item.detail}</p>
                    </div>
                  </li>
                );
              })}
            </ul>
          </CardContent>
        </Card>

        <Card>
          <CardHeader>
            <h2 className="text-lg font-semibold leading-tight">Recommendations</h2>
          </CardHeader>
          <CardContent>
            {recommendations.length === 0 ? (
              <p className="flex items-center gap-2 text-sm text-muted-foreground">
                <CheckCircle2 aria-hidden className="size-5 text-green-700" />
                Nothing needs your attention right now.
              </p>
            ) : (
              <ul className="grid gap-4">
                {recommendations.map((r) => (
                  <li key={r.id} className="grid gap-1">
                    <div className="flex flex-wrap items-center gap-2">
                      <Badge variant={SEVERITY_BADGE[r.severity]}>
                        {r.severity === "high"
                          ? "Important"
                          : r.severity === "medium"
                            ? "Advised"
                            : "Tip"}
                      </Badge>
                      <p className="text-sm font-medium">{r.title}</p>
                    </div>
                    <p className="text-sm text-muted-foreground">
                      {r.detail}{" "}
                      {r.href ? (
                        <Link
                          to={r.href}
                          className="font-medium text-primary underline underline-offset-4"
                        >
                          Review<span className="sr-only">: {r.title}</span>
                        </Link>
                      ) : null}
                    </p>
                  </li>
                ))}
              </ul>
            )}
          </CardContent>
        </Card>
      </div>

      <Card>
        <CardHeader className="flex flex-row flex-wrap items-center justify-between gap-2">
          <h2 className="text-lg font-semibold leading-tight">Recent Activity</h2>
          <Link
            to="/admin/security?tab=activity"
            className="text-sm font-medium text-primary underline underline-offset-4"
          >
            Full activity log
          </Link>
        </CardHeader>
        <CardContent>
          <RecentActivity activity={activity} />
        </CardContent>
      </Card>
    </div>
  );
}
