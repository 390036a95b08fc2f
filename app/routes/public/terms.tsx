import { data } from "react-router";
import { Link } from "~/components/link";
import { env } from "~/lib/env.server";
import { getOptionalUser } from "~/lib/permissions.server";
import { pageMeta } from "~/lib/seo";
import { cacheHeadersFor, HEADQUARTERS, SUPPORT_EMAIL, sitePageHeaders } from "~/lib/site-content";
import type { Route } from "./+types/terms";

export const meta: Route.MetaFunction = ({ loaderData }) =>
  pageMeta({
    title: "Terms of Service",
    description:
      "The terms for using the Kongamano website, accounts, events, research papers and memberships.",
    origin: loaderData?.origin ?? "",
    path: "/terms",
  });

export const headers = sitePageHeaders;

export async function loader({ request }: Route.LoaderArgs) {
  const user = await getOptionalUser(request);
  return data({ origin: env().BASE_URL }, { headers: cacheHeadersFor(user !== null) });
}

const LAST_UPDATED = "November 22, 2026";

const linkClass = "text-primary underline underline-offset-4";

export default function TermsPage() {
  return (
    <main id="main" className="mx-auto max-w-3xl px-4 py-14">
      <article className="grid gap-10 leading-relaxed text-slate-700 [&_h2]:text-2xl [&_h2]:font-semibold [&_h2]:text-foreground [&_li]:ml-5 [&_ul]:list-disc [&_ul]:space-y-2">
        <header className="grid gap-3">
          <h1 className="text-4xl font-bold tracking-tight text-foreground">Terms of Service</h1>
          <p className="text-sm text-muted-foreground">Last updated: {LAST_UPDATED}</p>
          <p>
            These terms apply to your use of the Kongamano website and account, run from our head
            office in {HEADQUARTERS.city}, {HEADQUARTERS.country}. By using the site you agree to
            them. Please read them together with our{" "}
            <Link to="/privacy" className={linkClass}>
              Privacy Policy
            </Link>
            .
          </p>
        </header>

        <section className="grid gap-3" aria-labelledby="accounts">
          <h2 id="accounts">1. Your account</h2>
          <ul>
            <li>Give your real name and an e-mail address you can receive mail at.</li>
            <li>
              Keep your password to yourself and turn on two-factor authentication if you can. You
              are responsible for what happens under your account.
            </li>
            <li>
              Tell us at{" "}
              <a href={`mailto:${SUPPORT_EMAIL}`} className={linkClass}>
                {SUPPORT_EMAIL}
              </a>{" "}
              straight away if you think someone else has used it.
            </li>
            <li>
              You can delete your account at any time from Profile Settings. We may suspend an
              account that breaks these terms, after telling you why when we can.
            </li>
          </ul>
        </section>

        <section className="grid gap-3" aria-labelledby="acceptable-use">
          <h2 id="acceptable-use">2. Acceptable use</h2>
          <p>Please do not:</p>
          <ul>
            <li>try to get into accounts, data or parts of the site you have not been given;</li>
            <li>send spam, malware or automated bulk requests, or get around our rate limits;</li>
            <li>use contact details of our offices or members for unsolicited marketing;</li>
            <li>upload or send anything unlawful, misleading or that infringes others' rights.</li>
          </ul>
        </section>

        <section className="grid gap-3" aria-labelledby="content">
          <h2 id="content">3. Events, papers and other content</h2>
          <p>
            Event details, agendas, speakers and fees can change; the event page always shows the
            current information, and registration terms for each event apply on top of these terms.
            Research papers remain the work of their authors. You may read, download and cite them
            with attribution for research, teaching and professional use; republishing them needs
            the authors' permission. The Kongamano name, logo and site design belong to us.
          </p>
        </section>

        <section className="grid gap-3" aria-labelledby="memberships">
          <h2 id="memberships">4. Memberships and sponsorships</h2>
          <p>
            Memberships are billed per year at the prices shown on the{" "}
            <Link to="/membership" className={linkClass}>
              membership page
            </Link>
            . You can cancel at any time and keep your benefits until the end of the period you have
            paid for; upgrades are charged at the prorated difference. Sponsorship and advertising
            packages are agreed in a separate written order.
          </p>
        </section>

        <section className="grid gap-3" aria-labelledby="liability">
          <h2 id="liability">5. Availability and liability</h2>
          <p>
            We work to keep the site available and accurate but provide it “as is”: we cannot
            promise it will always be uninterrupted or error-free. To the extent the law allows, we
            are not liable for indirect losses arising from your use of the site. Nothing in these
            terms limits rights you have under consumer protection law.
          </p>
        </section>

        <section className="grid gap-3" aria-labelledby="changes">
          <h2 id="changes">6. Changes and governing law</h2>
          <p>
            We may update these terms; the date above shows the latest version and we will tell
            members about significant changes before they apply. These terms are governed by the
            laws of Kenya. Questions? Use the{" "}
            <Link to="/contact" className={linkClass}>
              contact form
            </Link>{" "}
            and we will reply within 24 hours.
          </p>
        </section>
      </article>
    </main>
  );
}
