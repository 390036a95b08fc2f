import { data } from "react-router";
import { Award, BookOpen, Globe, TrendingUp } from "~/components/icons";
import { Link } from "~/components/link";
import {
  MEMBERSHIP_BENEFITS,
  MEMBERSHIP_FAQ,
  MEMBERSHIP_PLANS,
  MEMBERSHIP_STATS,
} from "~/components/membership-content";
import { MembershipFaq } from "~/components/membership-faq";
import { MembershipPlans } from "~/components/membership-plans";
import { buttonVariants } from "~/components/ui/button";
import { env } from "~/lib/env.server";
import { membershipPaymentAnswer } from "~/lib/payments/online.server";
import { getOptionalUser } from "~/lib/permissions.server";
import { pageMeta } from "~/lib/seo";
import { cacheHeadersFor, contactHref, sitePageHeaders } from "~/lib/site-content";
import { cn } from "~/lib/utils";
import { getSiteFigures, type SiteFigures } from "~/models/site/figures.server";
import type { Route } from "./+types/membership";

export const meta: Route.MetaFunction = ({ loaderData }) =>
  pageMeta({
    title: "Membership Plans",
    description:
      "Join Kongamano: Individual ($99/year), Professional ($299/year) and Corporate ($999/year, up to 10 team members) memberships for information-management professionals.",
    origin: loaderData?.origin ?? "",
    path: "/membership",
  });

export const headers = sitePageHeaders;

export async function loader({ request }: Route.LoaderArgs) {
  const [user, figures] = await Promise.all([getOptionalUser(request), getSiteFigures()]);
  return data(
    { origin: env().BASE_URL, figures, paymentAnswer: membershipPaymentAnswer() },
    { headers: cacheHeadersFor(user !== null) },
  );
}

/** Members and events are live, from the one count every page shows (decision 0095). */
function membershipStats(figures: SiteFigures) {
  return MEMBERSHIP_STATS.map((stat) =>
    stat.label === "Active Members"
      ? { ...stat, value: figures.members.toLocaleString("en-US") }
      : stat.label === "Annual Events"
        ? { label: "Events Hosted", value: figures.events.toLocaleString("en-US") }
        : stat,
  );
}

const BENEFIT_ICONS = [Award, Globe, TrendingUp, BookOpen];

export default function MembershipPage({ loaderData }: Route.ComponentProps) {
  return (
    <main id="main">
      <section className="border-b border-border bg-gradient-to-b from-accent to-background">
        <div className="mx-auto max-w-7xl px-4 py-14 text-center sm:py-20">
          <h1 className="text-4xl font-bold tracking-tight sm:text-5xl">
            Membership that grows with you
          </h1>
          <p className="mx-auto mt-4 max-w-2xl text-lg text-muted-foreground">
            Join a global network of data governance, records and information professionals. Learn
            from peers, publish your research and meet the people shaping the field.
          </p>
        </div>
      </section>

      <div className="mx-auto grid max-w-7xl gap-20 px-4 py-14">
        <section aria-labelledby="plans-heading" className="grid gap-10">
          <div className="text-center">
            <h2 id="plans-heading" className="text-3xl font-semibold">
              Choose your plan
            </h2>
            <p className="mt-2 text-muted-foreground">All plans are billed once a year.</p>
          </div>
          <MembershipPlans plans={MEMBERSHIP_PLANS} />
        </section>

        <section aria-labelledby="benefits-heading" className="grid gap-8">
          <h2 id="benefits-heading" className="text-center text-3xl font-semibold">
            Member benefits
          </h2>
          <ul className="grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
            {MEMBERSHIP_BENEFITS.map((benefit, index) => {
              const Icon = BENEFIT_ICONS[index % BENEFIT_ICONS.length];
              return (
                <li key={benefit.title} className="rounded-xl border border-border bg-card p-6">
                  <Icon aria-hidden className="size-8 text-primary" />
                  <h3 className="mt-4 text-lg font-semibold">{benefit.title}</h3>
                  <p className="mt-2 text-sm text-muted-foreground">{benefit.description}</p>
                </li>
              );
            })}
          </ul>
        </section>

        <section
          aria-labelledby="membership-stats-heading"
          className="rounded-2xl bg-primary px-6 py-12 text-primary-foreground"
        >
          <h2 id="membership-stats-heading" className="text-center text-3xl font-semibold">
            A growing global community
          </h2>
          <dl className="mt-8 grid grid-cols-2 gap-6 text-center md:grid-cols-4">
            {membershipStats(loaderData.figures).map((stat) => (
              <div key={stat.label} className="flex flex-col">
                <dt className="text-blue-50">{stat.label}</dt>
                <dd className="order-first text-4xl font-bold">{stat.value}</dd>
              </div>
            ))}
          </dl>
        </section>

        <section aria-labelledby="faq-heading" className="mx-auto grid w-full max-w-3xl gap-6">
          <h2 id="faq-heading" className="text-center text-3xl font-semibold">
            Frequently asked questions
          </h2>
          <MembershipFaq
            items={MEMBERSHIP_FAQ.map((item) =>
              // The payment answer names only the methods this installation has on (issue 31).
              item.id === "payment" ? { ...item, answer: loaderData.paymentAnswer } : item,
            )}
          />
        </section>

        <section
          aria-labelledby="membership-cta-heading"
          className="rounded-2xl border border-border bg-muted px-6 py-12 text-center"
        >
          <h2 id="membership-cta-heading" className="text-3xl font-semibold">
            Ready to join?
          </h2>
          <p className="mx-auto mt-3 max-w-xl text-muted-foreground">
            Start your membership today, or book a short demo and we will show you around the
            network first.
          </p>
          <div className="mt-6 flex flex-wrap justify-center gap-3">
            <Link
              to="/membership/apply/professional"
              className={cn(buttonVariants({ size: "lg" }))}
            >
              Start Membership
            </Link>
            <Link
              to={contactHref("demo")}
              className={cn(buttonVariants({ variant: "outline", size: "lg" }))}
            >
              Schedule Demo
            </Link>
          </div>
        </section>
      </div>
    </main>
  );
}
