import { Link, useLoaderData } from "react-router";
import { PageHeader } from "~/components/admin/page-header";
import {
  CalendarDays,
  FileText,
  Handshake,
  History,
  type IconComponent,
  MapPin,
  Mic,
  Plus,
} from "~/components/icons";
import { buttonVariants } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { formatDate, formatTime } from "~/lib/format";
import { requireRole } from "~/lib/permissions.server";
import { getDashboardCounts, listRecentActivity } from "~/models/site/dashboard.server";
import { getSiteFigures } from "~/models/site/figures.server";
import type { Route } from "./+types/dashboard";

export const meta: Route.MetaFunction = () => [
  { title: "Admin Dashboard | Kongamano" },
  { name: "robots", content: "noindex" },
];

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireRole(request, "editor", { anonymousTo: "/auth" });
  const isAdmin = user.role === "admin";
  const [counts, activity, figures] = await Promise.all([
    getDashboardCounts({ includeOffices: isAdmin }),
    listRecentActivity({ isAdmin }),
    getSiteFigures(),
  ]);
  return { name: user.name, counts, activity, figures };
}

type CardSpec = {
  key: "events" | "papers" | "speakers" | "sponsors" | "offices";
  title: string;
  href: string;
  icon: IconComponent;
  description: string;
};

const CARDS: CardSpec[] = [
  {
    key: "events",
    title: "Events",
    href: "/admin/events",
    icon: CalendarDays,
    description: "Conferences, exhibitions, galas and workshops",
  },
  {
    key: "papers",
    title: "Papers",
    href: "/admin/papers",
    icon: FileText,
    description: "The research paper library",
  },
  {
    key: "speakers",
    title: "Speakers",
    href: "/admin/speakers",
    icon: Mic,
    description: "People who speak at our events",
  },
  {
    key: "sponsors",
    title: "Sponsors",
    href: "/admin/sponsors",
    icon: Handshake,
    description: "Partners and their sponsorship tiers",
  },
  {
    key: "offices",
    title: "Offices",
    href: "/admin/offices",
    icon: MapPin,
    description: "Regional offices and their contacts",
  },
];

export default function AdminDashboard() {
  const { name, counts, activity, figures } = useLoaderData<typeof loader>();
  const cards = CARDS.filter((card) => counts[card.key] !== null);
  return (
    <>
      <PageHeader
        title="Admin Dashboard"
        description={`Welcome back, ${name}. Manage the content of the website.`}
      />
      <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
        {cards.map(({ key, title, href, icon: Icon, description }) => (
          <li key={key} className="flex">
            <Card className="w-full gap-4 p-5">
              <div className="flex items-start justify-between gap-3">
                <div className="grid gap-1">
                  <h2 className="text-lg font-semibold">{title}</h2>
                  <p className="text-sm text-muted-foreground">{description}</p>
                </div>
                <span className="rounded-lg bg-accent p-2 text-accent-foreground">
                  <Icon aria-hidden className="size-5" />
                </span>
              </div>
              <p className="text-3xl font-bold tabular-nums" data-testid={`count-${key}`}>
                {counts[key]}
                <span className="sr-only"> {title.toLowerCase()}</span>
              </p>
              {key === "events" ? (
                // The public count (home, /events, /about): published events only (decision 0095).
                <p className="text-sm text-muted-foreground" data-testid="count-events-published">
                  {figures.events} published
                </p>
              ) : null}
              <div className="mt-auto flex flex-wrap gap-2">
                <Link
                  to={href}
                  className={buttonVariants({ variant: "outline", size: "sm" })}
                  aria-label={`View All ${title}`}
                >
                  View All
                </Link>
                <Link
                  to={`${href}/new`}
                  className={buttonVariants({ size: "sm" })}
                  aria-label={`Add New ${title.replace(/s$/, "")}`}
                >
                  <Plus aria-hidden />
                  Add New
                </Link>
              </div>
            </Card>
          </li>
        ))}
      </ul>

      <section aria-labelledby="activity-heading" className="mt-10">
        <h2 id="activity-heading" className="mb-4 flex items-center gap-2 text-xl font-semibold">
          <History aria-hidden className="size-5" />
          Latest activity
        </h2>
        {activity.length === 0 ? (
          <p className="rounded-xl border border-dashed border-border px-6 py-8 text-center text-sm text-muted-foreground">
            No activity yet. Changes made in the back office appear here.
          </p>
        ) : (
          <Card>
            <ol className="divide-y divide-border">
              {activity.map((item) => (
                <li
                  key={item.id}
                  className="flex flex-col gap-1 px-5 py-3 sm:flex-row sm:items-center sm:justify-between"
                >
                  <p className="text-sm">
                    <span className="font-medium">{item.actorName}</span> {item.verb}{" "}
                    {item.entityLabel}
                    {item.subject ? (
                      <>
                        {" "}
                        <span className="font-medium">“{item.subject}”</span>
                      </>
                    ) : null}
                  </p>
                  <time dateTime={item.createdAt} className="text-xs text-muted-foreground">
                    {formatDate(item.createdAt)}, {formatTime(item.createdAt)}
                  </time>
                </li>
              ))}
            </ol>
          </Card>
        )}
      </section>
    </>
  );
}
