import { Clock, Mail, MapPin, Phone } from "~/components/icons";
import { Link } from "~/components/link";
import { ORGANISATION_NAME } from "~/lib/constants";

/** Head-office contact details (the root loader sends them: spec §2.2 footer contact). */
export type HeadOffice = {
  name: string;
  city: string;
  country: string;
  phone: string;
  email: string;
  hours: string;
};

const QUICK_LINKS = [
  { to: "/about", label: "About Us" },
  { to: "/events", label: "Events" },
  { to: "/papers", label: "Research Papers" },
  { to: "/membership", label: "Membership" },
  { to: "/offices", label: "Global Offices" },
  { to: "/advertising", label: "Advertising & Sponsorship" },
  { to: "/contact", label: "Contact" },
];

// Footer event links use these four types (spec §2.1).
const EVENT_LINKS = [
  { to: "/events?type=conference", label: "Conferences" },
  { to: "/events?type=exhibition", label: "Exhibitions" },
  { to: "/events?type=gala", label: "Galas" },
  { to: "/events?type=vendor", label: "Vendor Events" },
];

const linkClass = "text-slate-300 transition-colors hover:text-white hover:underline";

export function SiteFooter({ headOffice }: { headOffice: HeadOffice | null }) {
  return (
    <footer className="bg-slate-900 text-slate-300">
      <div className="mx-auto grid max-w-7xl gap-10 px-4 py-12 sm:grid-cols-2 sm:px-6 lg:grid-cols-4">
        <div>
          <Link to="/" className="flex items-center gap-2 font-bold text-white">
            <span
              aria-hidden
              className="flex size-8 items-center justify-center rounded-lg bg-primary text-primary-foreground"
            >
              K
            </span>
            <span className="text-lg">{ORGANISATION_NAME}</span>
          </Link>
          <p className="mt-4 text-sm leading-relaxed">
            The global network for information-management professionals: conferences, research and a
            community across six continents. Founded in 2023, headquartered in Nairobi, Kenya.
          </p>
        </div>

        <FooterColumn title="Quick Links" links={QUICK_LINKS} />
        <FooterColumn title="Events" links={EVENT_LINKS} />

        {headOffice ? <ContactColumn office={headOffice} /> : null}
      </div>

      <div className="border-t border-slate-800">
        <div className="mx-auto flex max-w-7xl flex-col gap-3 px-4 py-6 text-sm sm:px-6 md:flex-row md:items-center md:justify-between">
          <p suppressHydrationWarning>
            © {new Date().getFullYear()} {ORGANISATION_NAME}. All rights reserved.
          </p>
          <ul className="flex flex-wrap gap-x-6 gap-y-2">
            <li>
              <Link to="/privacy" className={linkClass}>
                Privacy Policy
              </Link>
            </li>
            <li>
              <Link to="/terms" className={linkClass}>
                Terms of Service
              </Link>
            </li>
            <li>
              <Link to="/accessibility" className={linkClass}>
                Accessibility
              </Link>
            </li>
          </ul>
          <p>Designed and built by the {ORGANISATION_NAME} Digital Team in Nairobi</p>
        </div>
      </div>
    </footer>
  );
}

function ContactColumn({ office }: { office: HeadOffice }) {
  return (
    <div>
      <h2 className="text-sm font-semibold tracking-wide text-white uppercase">Contact</h2>
      <address className="mt-4 space-y-3 text-sm not-italic">
        <p className="flex gap-2">
          <MapPin aria-hidden className="mt-0.5 size-4 shrink-0 text-slate-400" />
          <span>
            {office.name}
            <br />
            {office.city}, {office.country}
          </span>
        </p>
        <p className="flex gap-2">
          <Phone aria-hidden className="mt-0.5 size-4 shrink-0 text-slate-400" />
          <a href={`tel:${office.phone.replace(/[^\d+]/g, "")}`} className={linkClass}>
            {office.phone}
          </a>
        </p>
        <p className="flex gap-2">
          <Mail aria-hidden className="mt-0.5 size-4 shrink-0 text-slate-400" />
          <a href={`mailto:${office.email}`} className={linkClass}>
            {office.email}
          </a>
        </p>
        <p className="flex gap-2">
          <Clock aria-hidden className="mt-0.5 size-4 shrink-0 text-slate-400" />
          <span>{office.hours}</span>
        </p>
      </address>
    </div>
  );
}

function FooterColumn({ title, links }: { title: string; links: { to: string; label: string }[] }) {
  return (
    <nav aria-label={title}>
      <h2 className="text-sm font-semibold tracking-wide text-white uppercase">{title}</h2>
      <ul className="mt-4 space-y-2 text-sm">
        {links.map((link) => (
          <li key={link.to}>
            <Link to={link.to} className={linkClass}>
              {link.label}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
