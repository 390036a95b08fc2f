import {
  Building2,
  CalendarCheck,
  Clock,
  Handshake,
  Headphones,
  Mail,
  MapPin,
  Newspaper,
  Phone,
  UserPlus,
} from "~/components/icons";
import { Link } from "~/components/link";
import { buttonVariants } from "~/components/ui/button";
import {
  Card,
  CardContent,
  CardDescription,
  CardFooter,
  CardHeader,
  CardTitle,
} from "~/components/ui/card";
import {
  contactHref,
  HEADQUARTERS,
  PARTNERSHIPS_EMAIL,
  SUPPORT_EMAIL,
  telHref,
} from "~/lib/site-content";

const linkClass = "text-primary underline underline-offset-4";

function InfoRow({ icon, children }: { icon: React.ReactNode; children: React.ReactNode }) {
  return (
    <li className="flex items-start gap-3">
      <span aria-hidden className="mt-0.5 text-primary [&_svg]:size-4">
        {icon}
      </span>
      <span>{children}</span>
    </li>
  );
}

/** Headquarters, 24/7 support and partnership cards (spec §2.11). */
export function ContactInfoCards() {
  return (
    <div className="grid gap-6">
      <Card>
        <CardHeader>
          <CardTitle className="flex items-center gap-2">
            <Building2 aria-hidden className="size-5 text-primary" /> Headquarters
          </CardTitle>
          <CardDescription>Our head office in East Africa</CardDescription>
        </CardHeader>
        <CardContent>
          <ul className="grid gap-3 text-sm">
            <InfoRow icon={<MapPin />}>
              <span className="font-medium">
                {HEADQUARTERS.city}, {HEADQUARTERS.country}
              </span>
              <br />
              <span className="text-muted-foreground">{HEADQUARTERS.address}</span>
            </InfoRow>
            <InfoRow icon={<Phone />}>
              <a href={telHref(HEADQUARTERS.phone)} className={linkClass}>
                {HEADQUARTERS.phone}
              </a>
            </InfoRow>
            <InfoRow icon={<Mail />}>
              <a href={`mailto:${HEADQUARTERS.email}`} className={linkClass}>
                {HEADQUARTERS.email}
              </a>
            </InfoRow>
            <InfoRow icon={<Clock />}>
              <span>Monday - Friday, {HEADQUARTERS.hours}</span>
            </InfoRow>
          </ul>
        </CardContent>
      </Card>

      <Card>
        <CardHeader>
          <CardTitle className="flex items-center gap-2">
            <Headphones aria-hidden className="size-5 text-primary" /> 24/7 Support
          </CardTitle>
          <CardDescription>Help with your account, events and papers, day or night</CardDescription>
        </CardHeader>
        <CardContent className="grid gap-3 text-sm">
          <p>
            E-mail{" "}
            <a href={`mailto:${SUPPORT_EMAIL}`} className={linkClass}>
              {SUPPORT_EMAIL}
            </a>{" "}
            at any hour, or open the live chat in the corner of any page for quick answers.
          </p>
        </CardContent>
      </Card>

      <Card>
        <CardHeader>
          <CardTitle className="flex items-center gap-2">
            <Handshake aria-hidden className="size-5 text-primary" /> Partnership Inquiries
          </CardTitle>
          <CardDescription>
            Sponsorships, co-hosted events and research collaborations
          </CardDescription>
        </CardHeader>
        <CardContent className="text-sm">
          <a href={`mailto:${PARTNERSHIPS_EMAIL}`} className={linkClass}>
            {PARTNERSHIPS_EMAIL}
          </a>
        </CardContent>
      </Card>
    </div>
  );
}

const QUICK_ACTIONS = [
  {
    title: "Event Registration",
    description: "Questions about registering for a conference, group bookings or invoices.",
    topic: "event-registration",
    action: "Get Registration Help",
    icon: CalendarCheck,
  },
  {
    title: "Membership",
    description: "Choosing a plan, student discounts, upgrades and corporate memberships.",
    topic: "membership",
    action: "Ask About Membership",
    icon: UserPlus,
  },
  {
    title: "Media Inquiries",
    description: "Press passes, interviews with our speakers and the media kit.",
    topic: "media",
    action: "Contact Media Team",
    icon: Newspaper,
  },
] as const;

/** The three Quick Actions cards; each opens the form with its topic (spec §2.11, design.md §4). */
export function ContactQuickActions() {
  return (
    <ul className="grid gap-6 md:grid-cols-3">
      {QUICK_ACTIONS.map(({ title, description, topic, action, icon: Icon }) => (
        <li key={topic}>
          <Card className="h-full">
            <CardHeader>
              <Icon aria-hidden className="size-6 text-primary" />
              <CardTitle>{title}</CardTitle>
              <CardDescription>{description}</CardDescription>
            </CardHeader>
            <CardFooter>
              <Link
                to={contactHref(topic)}
                preventScrollReset={false}
                className={buttonVariants({ variant: "outline" })}
              >
                {action}
              </Link>
            </CardFooter>
          </Card>
        </li>
      ))}
    </ul>
  );
}
