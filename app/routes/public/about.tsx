import { data } from "react-router";
import { Eye, Target } from "~/components/icons";
import { Link } from "~/components/link";
import { buttonVariants } from "~/components/ui/button";
import { env } from "~/lib/env.server";
import { getOptionalUser } from "~/lib/permissions.server";
import { pageMeta } from "~/lib/seo";
import { cacheHeadersFor, sitePageHeaders } from "~/lib/site-content";
import { cn } from "~/lib/utils";
import { getSiteFigures, type SiteFigures } from "~/models/site/figures.server";
import type { Route } from "./+types/about";

// About page content (spec §2.9): real copy for this organisation; figures from spec §9.
const ABOUT_MISSION =
  "To equip information-management professionals everywhere with the knowledge, connections and recognition they need to help their organisations use information responsibly and well.";

const ABOUT_VISION =
  "A world where every organisation, in every region, treats its information as a trusted asset — governed with care, shared with purpose and open to the people it serves.";

const FOUNDER_STORY = [
  "Kongamano began in Nairobi in 2023, when Dr. Achieng Otieno, a records manager turned data-governance consultant, noticed the same conversation happening in every client meeting: teams across Africa and beyond were solving the same information problems alone.",
  "She gathered forty practitioners for an evening of talks in Westlands. By midnight they had agreed to meet again, to share their research openly and to bring in colleagues from other countries. The name — Swahili for “conference” or “gathering” — stuck.",
  "Today Kongamano brings together data stewards, archivists, analysts, researchers and executives from six continents, yet it still works the way that first evening did: practitioners learning from one another, in the open.",
] as const;

const CORE_VALUES = [
  {
    title: "Knowledge in the Open",
    description:
      "We publish, share and cite generously, because practice improves when research travels.",
  },
  {
    title: "Integrity",
    description:
      "We handle information — including yours — the way we ask our members to: lawfully, carefully, transparently.",
  },
  {
    title: "Inclusion",
    description:
      "We build a network where a practitioner in Kisumu is heard as clearly as one in London or Singapore.",
  },
  {
    title: "Excellence",
    description:
      "We hold our events, papers and training to the standards our members set at work.",
  },
] as const;

const JOURNEY = [
  {
    year: "2023",
    title: "Founded in Nairobi",
    description:
      "Kongamano is founded in Nairobi, Kenya, and hosts its first practitioner evening with forty members.",
  },
  {
    year: "2023",
    title: "First Annual Conference",
    description:
      "Our first data governance conference brings practitioners from East Africa together for two days.",
  },
  {
    year: "2024",
    title: "Research Paper Library",
    description:
      "We open a peer-reviewed research library so members can publish and find practical research.",
  },
  {
    year: "2024",
    title: "Regional Offices",
    description:
      "Offices open across Africa, Europe, Asia, the Americas and Oceania to serve members locally.",
  },
  {
    year: "2025",
    title: "A Global Network",
    description:
      "Membership passes 10,000 professionals in 25 countries, with more than 50 events a year.",
  },
] as const;

const LEADERSHIP_TEAM = [
  {
    name: "Dr. Achieng Otieno",
    role: "Founder & Chief Executive Officer",
    bio: "Records manager and data-governance consultant with fifteen years of public- and private-sector work.",
  },
  {
    name: "Samuel Mwangi",
    role: "Director of Events",
    bio: "Has produced conferences and summits across East Africa and leads our global event programme.",
  },
  {
    name: "Dr. Priya Raman",
    role: "Head of Research",
    bio: "Information scientist who chairs the editorial board of our research paper library.",
  },
  {
    name: "Claire Dubois",
    role: "Director of Partnerships",
    bio: "Builds relationships with sponsors, universities and professional bodies in Europe and beyond.",
  },
] as const;

/** Members and events are live, from the one count every page shows (decision 0095). */
function aboutImpact(figures: SiteFigures) {
  return [
    { value: figures.members.toLocaleString("en-US"), label: "Members Worldwide" },
    { value: figures.events.toLocaleString("en-US"), label: "Events Hosted" },
    { value: "200+", label: "Research Papers" },
    { value: "25", label: "Countries" },
  ];
}

export const meta: Route.MetaFunction = ({ loaderData }) =>
  pageMeta({
    title: "About Us",
    description:
      "Kongamano was founded in Nairobi in 2023 to connect information-management professionals worldwide. Our mission, values, story and leadership team.",
    origin: loaderData?.origin ?? "",
    path: "/about",
  });

export const headers = sitePageHeaders;

export async function loader({ request }: Route.LoaderArgs) {
  const [user, figures] = await Promise.all([getOptionalUser(request), getSiteFigures()]);
  return data({ origin: env().BASE_URL, figures }, { headers: cacheHeadersFor(user !== null) });
}

function initials(name: string) {
  return name
    .replace(/^Dr\.\s+/, "")
    .split(/\s+/)
    .map((part) => part.charAt(0))
    .join("")
    .slice(0, 2);
}

export default function AboutPage({ loaderData }: Route.ComponentProps) {
  return (
    <main id="main">
      <section className="border-b border-border bg-gradient-to-b from-accent to-background">
        <div className="mx-auto max-w-4xl px-4 py-14 text-center sm:py-20">
          <p className="text-sm font-medium text-accent-foreground">Founded in Nairobi, 2023</p>
          <h1 className="mt-3 text-4xl font-bold tracking-tight sm:text-5xl">About Kongamano</h1>
          <p className="mx-auto mt-4 max-w-2xl text-lg text-muted-foreground">
            Kongamano — Swahili for “gathering” — is a global network of information-management
            professionals: the people who govern, protect and put to work the information their
            organisations depend on.
          </p>
        </div>
      </section>

      <div className="mx-auto grid max-w-7xl gap-20 px-4 py-14">
        <section aria-label="Mission and vision" className="grid gap-6 md:grid-cols-2">
          <div className="rounded-2xl border border-border bg-card p-8">
            <Target aria-hidden className="size-8 text-primary" />
            <h2 className="mt-4 text-2xl font-semibold">Our Mission</h2>
            <p className="mt-3 text-muted-foreground">{ABOUT_MISSION}</p>
          </div>
          <div className="rounded-2xl border border-border bg-card p-8">
            <Eye aria-hidden className="size-8 text-primary" />
            <h2 className="mt-4 text-2xl font-semibold">Our Vision</h2>
            <p className="mt-3 text-muted-foreground">{ABOUT_VISION}</p>
          </div>
        </section>

        <section aria-labelledby="story-heading" className="mx-auto grid max-w-3xl gap-4">
          <h2 id="story-heading" className="text-3xl font-semibold">
            Our Founder's Story
          </h2>
          {FOUNDER_STORY.map((paragraph) => (
            <p key={paragraph.slice(0, 32)} className="text-lg leading-relaxed text-slate-700">
              {paragraph}
            </p>
          ))}
        </section>

        <section aria-labelledby="values-heading" className="grid gap-8">
          <h2 id="values-heading" className="text-center text-3xl font-semibold">
            Our Core Values
          </h2>
          <ul className="grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
            {CORE_VALUES.map((value) => (
              <li key={value.title} className="rounded-xl border border-border bg-card p-6">
                <h3 className="text-lg font-semibold">{value.title}</h3>
                <p className="mt-2 text-sm text-muted-foreground">{value.description}</p>
              </li>
            ))}
          </ul>
        </section>

        <section aria-labelledby="journey-heading" className="mx-auto grid w-full max-w-3xl gap-8">
          <h2 id="journey-heading" className="text-center text-3xl font-semibold">
            Our Journey
          </h2>
          <ol className="relative grid gap-8 border-l-2 border-border pl-8">
            {JOURNEY.map((step) => (
              <li key={step.title} className="relative">
                <span
                  aria-hidden
                  className="absolute top-1.5 -left-[41px] size-4 rounded-full border-4 border-background bg-primary"
                />
                <p className="text-sm font-semibold text-primary">{step.year}</p>
                <h3 className="text-lg font-semibold">{step.title}</h3>
                <p className="mt-1 text-muted-foreground">{step.description}</p>
              </li>
            ))}
          </ol>
        </section>

        <section aria-labelledby="team-heading" className="grid gap-8">
          <h2 id="team-heading" className="text-center text-3xl font-semibold">
            Leadership Team
          </h2>
          <ul className="grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
            {LEADERSHIP_TEAM.map((person) => (
              <li
                key={person.name}
                className="rounded-xl border border-border bg-card p-6 text-center"
              >
                <span
                  aria-hidden
                  className="mx-auto flex size-20 items-center justify-center rounded-full bg-accent text-2xl font-semibold text-accent-foreground"
                >
                  {initials(person.name)}
                </span>
                <h3 className="mt-4 text-lg font-semibold">{person.name}</h3>
                <p className="text-sm font-medium text-primary">{person.role}</p>
                <p className="mt-2 text-sm text-muted-foreground">{person.bio}</p>
              </li>
            ))}
          </ul>
        </section>

        <section
          aria-labelledby="impact-heading"
          className="rounded-2xl bg-primary px-6 py-12 text-primary-foreground"
        >
          <h2 id="impact-heading" className="text-center text-3xl font-semibold">
            Our Impact
          </h2>
          <dl className="mt-8 grid grid-cols-2 gap-6 text-center md:grid-cols-4">
            {aboutImpact(loaderData.figures).map((stat) => (
              <div key={stat.label} className="flex flex-col">
                <dt className="text-blue-50">{stat.label}</dt>
                <dd className="order-first text-4xl font-bold">{stat.value}</dd>
              </div>
            ))}
          </dl>
        </section>

        <section aria-labelledby="about-cta-heading" className="text-center">
          <h2 id="about-cta-heading" className="text-3xl font-semibold">
            Be part of the story
          </h2>
          <p className="mx-auto mt-3 max-w-xl text-muted-foreground">
            Join thousands of professionals who learn, publish and grow with Kongamano — or tell us
            how we can work together.
          </p>
          <div className="mt-6 flex flex-wrap justify-center gap-3">
            <Link to="/membership" className={cn(buttonVariants({ size: "lg" }))}>
              Become a Member
            </Link>
            <Link to="/contact" className={cn(buttonVariants({ variant: "outline", size: "lg" }))}>
              Contact Us
            </Link>
          </div>
        </section>
      </div>
    </main>
  );
}
