import { Clock, Lock, Mail, MapPin, Phone } from "~/components/icons";
import { Link } from "~/components/link";
import { Badge } from "~/components/ui/badge";
import { buttonVariants } from "~/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { regionDotClass } from "~/lib/constants";
import { OFFICE_BUSINESS_HOURS, OFFICE_SERVICES, telHref } from "~/lib/site-content";
import { cn } from "~/lib/utils";
import type { MemberOffice, PublicOffice } from "~/models/offices/queries.server";

export type DirectoryOffice = PublicOffice | MemberOffice;

/** A signed-in caller's offices carry contact fields; a visitor's never do (decided server-side). */
export function hasContactDetails(office: DirectoryOffice): office is MemberOffice {
  return "address" in office;
}

export function RegionDot({ region, className }: { region: string; className?: string }) {
  return (
    <span
      aria-hidden
      className={cn(
        "inline-block size-2.5 shrink-0 rounded-full",
        regionDotClass(region),
        className,
      )}
    />
  );
}

/** Office card of the offices page (spec §2.10). */
export function OfficeCard({
  office,
  signInHref,
  compact = false,
}: {
  office: DirectoryOffice;
  signInHref: string;
  /** The contact page's grid: no service badges. */
  compact?: boolean;
}) {
  return (
    <Card className="h-full" data-testid="office-card">
      <CardHeader>
        <p className="flex items-center gap-2 text-sm font-medium text-muted-foreground">
          <RegionDot region={office.region} />
          {office.region}
        </p>
        <CardTitle>
          {office.city}, {office.country}
        </CardTitle>
      </CardHeader>
      <CardContent className="grid gap-4 text-sm">
        <OfficeContactBlock office={office} signInHref={signInHref} />
        <OfficeHours openingHours={office.openingHours} />
        {compact ? null : <OfficeServices services={office.services} />}
      </CardContent>
    </Card>
  );
}

/** Opening hours, one span a line as staff wrote them (zone named); the spec's text when none. */
export function OfficeHours({ openingHours }: { openingHours: string | null }) {
  const lines = openingHours?.split("\n").filter(Boolean) ?? [];
  return (
    <div className="flex items-start gap-2">
      <Clock aria-hidden className="mt-0.5 size-4 shrink-0 text-muted-foreground" />
      <div>
        <p className="font-medium">Business Hours</p>
        {lines.length > 0 ? (
          <ul className="text-muted-foreground">
            {lines.map((line) => (
              <li key={line}>{line}</li>
            ))}
          </ul>
        ) : (
          <p className="text-muted-foreground">{OFFICE_BUSINESS_HOURS}</p>
        )}
      </div>
    </div>
  );
}

/** Service badges: the office's own list; offices never given one show the spec's three. */
export function OfficeServices({ services }: { services: string[] | null }) {
  const shown = services ?? OFFICE_SERVICES;
  if (shown.length === 0) return null;
  return (
    <ul className="flex flex-wrap gap-2" aria-label="Services">
      {shown.map((service) => (
        <li key={service}>
          <Badge variant="secondary">{service}</Badge>
        </li>
      ))}
    </ul>
  );
}

export function OfficeContactBlock({
  office,
  signInHref,
}: {
  office: DirectoryOffice;
  signInHref: string;
}) {
  if (!hasContactDetails(office)) {
    return (
      <div className="grid gap-3 rounded-lg bg-muted p-3">
        <p className="flex items-start gap-2 text-muted-foreground">
          <Lock aria-hidden className="mt-0.5 size-4 shrink-0" />
          Sign in to view contact details for this office.
        </p>
        <Link to={signInHref} className={cn(buttonVariants({ size: "sm" }), "w-fit")}>
          Sign In
        </Link>
      </div>
    );
  }
  const { address, phone, email } = office;
  if (!address && !phone && !email) {
    return (
      <p className="text-muted-foreground">Contact details for this office are coming soon.</p>
    );
  }
  return (
    <ul className="grid gap-2">
      {address ? (
        <li className="flex items-start gap-2">
          <MapPin aria-hidden className="mt-0.5 size-4 shrink-0 text-muted-foreground" />
          <span>
            <span className="sr-only">Address: </span>
            {address}
          </span>
        </li>
      ) : null}
      {phone ? (
        <li className="flex items-start gap-2">
          <Phone aria-hidden className="mt-0.5 size-4 shrink-0 text-muted-foreground" />
          <a href={telHref(phone)} className="text-primary underline underline-offset-4">
            <span className="sr-only">Phone: </span>
            {phone}
          </a>
        </li>
      ) : null}
      {email ? (
        <li className="flex items-start gap-2">
          <Mail aria-hidden className="mt-0.5 size-4 shrink-0 text-muted-foreground" />
          <a
            href={`mailto:${email}`}
            className="break-all text-primary underline underline-offset-4"
          >
            <span className="sr-only">E-mail: </span>
            {email}
          </a>
        </li>
      ) : null}
    </ul>
  );
}
