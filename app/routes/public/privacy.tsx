import { data } from "react-router";
import { Link } from "~/components/link";
import { env } from "~/lib/env.server";
import { getOptionalUser } from "~/lib/permissions.server";
import { pageMeta } from "~/lib/seo";
import { cacheHeadersFor, HEADQUARTERS, SUPPORT_EMAIL, sitePageHeaders } from "~/lib/site-content";
import type { Route } from "./+types/privacy";

export const meta: Route.MetaFunction = ({ loaderData }) =>
  pageMeta({
    title: "Privacy Policy",
    description:
      "What personal data Kongamano stores, why, for how long and how to have it deleted. Essential cookies only, no tracking.",
    origin: loaderData?.origin ?? "",
    path: "/privacy",
  });

export const headers = sitePageHeaders;

export async function loader({ request }: Route.LoaderArgs) {
  const user = await getOptionalUser(request);
  return data({ origin: env().BASE_URL }, { headers: cacheHeadersFor(user !== null) });
}

const LAST_UPDATED = "November 22, 2026";

const linkClass = "text-primary underline underline-offset-4";

export default function PrivacyPage() {
  return (
    <main id="main" className="mx-auto max-w-3xl px-4 py-14">
      <article className="grid gap-10 leading-relaxed text-slate-700 [&_h2]:text-2xl [&_h2]:font-semibold [&_h2]:text-foreground [&_h3]:font-semibold [&_h3]:text-foreground [&_li]:ml-5 [&_ul]:list-disc [&_ul]:space-y-2">
        <header className="grid gap-3">
          <h1 className="text-4xl font-bold tracking-tight text-foreground">Privacy Policy</h1>
          <p className="text-sm text-muted-foreground">Last updated: {LAST_UPDATED}</p>
          <p>
            Kongamano (“we”, “us”) runs this website for our network of information-management
            professionals, from our head office in {HEADQUARTERS.city}, {HEADQUARTERS.country}. We
            collect as little personal data as we can, use it only to run the service, and never
            sell it or use it for advertising. This page explains exactly what we store.
          </p>
        </header>

        <section className="grid gap-3" aria-labelledby="what-we-store">
          <h2 id="what-we-store">What we store and why</h2>
          <h3>Your account</h3>
          <p>
            When you create an account we store your full name, your e-mail address, a salted hash
            of your password (never the password itself), your role (member, editor or
            administrator), whether your e-mail address is verified and, if you turn it on, your
            two-factor authentication secret and recovery codes. We use these to sign you in, show
            members-only details such as office contact information, and send you the e-mails the
            service needs (address verification, password resets, invitations).
          </p>
          <h3>Sessions</h3>
          <p>
            Each time you sign in we create a session that records when it expires, the IP address
            and the browser (user agent) it was created from. Sessions keep you signed in and let us
            spot sign-ins you do not recognise. A session ends when you sign out and expires after
            14 days without use.
          </p>
          <h3>Security and audit log</h3>
          <p>
            To protect your account and our content we log security-relevant actions: sign-ins
            (successful and failed), sign-outs, role changes, invitations, account deletions and
            every change made in the back office. Each entry records who acted, what they did, when,
            the IP address and the user agent. Short-lived counters keyed by IP address limit how
            often sign-in, sign-up, password reset and the contact form can be used.
          </p>
          <h3>Contact messages</h3>
          <p>
            When you use the{" "}
            <Link to="/contact" className={linkClass}>
              contact form
            </Link>{" "}
            we store your name, e-mail address, subject, message and the region you chose, together
            with the IP address and user agent it came from (to deal with abuse). The message is
            forwarded by e-mail to our staff so they can answer you.
          </p>
          <h3>Uploaded files</h3>
          <p>
            Our staff upload event images and research paper PDFs. Images are re-encoded when
            uploaded, which removes hidden metadata such as camera details and GPS locations. Papers
            and images are public once their event or paper is published.
          </p>
        </section>

        <section className="grid gap-3" aria-labelledby="how-long">
          <h2 id="how-long">How long we keep it</h2>
          <ul>
            <li>
              <strong>Account data</strong> is kept while your account exists and removed when you
              delete it.
            </li>
            <li>
              <strong>Sessions</strong> are removed when you sign out, when they expire (14 days) or
              when you delete your account.
            </li>
            <li>
              <strong>Audit log entries</strong> are kept as long as we need them to keep the
              service secure. When you delete your account, the entries stay but are no longer
              linked to you and your e-mail address is removed from them.
            </li>
            <li>
              <strong>Contact messages</strong> are kept while we handle your request and for
              follow-up; you can ask us to delete them at any time.
            </li>
            <li>
              <strong>Rate-limit counters</strong> last minutes, not days.
            </li>
          </ul>
        </section>

        <section className="grid gap-3" aria-labelledby="cookies">
          <h2 id="cookies">Cookies</h2>
          <p>
            We use only cookies that the site needs to work. There are no analytics, advertising or
            tracking cookies, and no third-party scripts or fonts: everything is served from our own
            domain.
          </p>
          <ul>
            <li>
              <strong>Session cookie</strong> — keeps you signed in. It is set when you sign in,
              cannot be read by scripts on the page, and is deleted when you sign out.
            </li>
            <li>
              <strong>Notification cookie</strong> — carries a one-time message (for example “Signed
              out”) to the next page you see, then is cleared.
            </li>
            <li>
              <strong>Two-factor cookie</strong> — only while you complete a two-factor sign-in.
            </li>
          </ul>
        </section>

        <section className="grid gap-3" aria-labelledby="deletion">
          <h2 id="deletion">Deleting your data and your rights</h2>
          <p>
            You can see and correct your name and e-mail address on your{" "}
            <Link to="/profile" className={linkClass}>
              Profile Settings
            </Link>{" "}
            page. To delete your account, open Profile Settings, go to the Danger Zone and confirm
            the deletion with your password: your account, sessions and personal details are removed
            straight away.
          </p>
          <p>
            For anything else — a copy of your data, deleting a contact message, or a question about
            this policy — e-mail{" "}
            <a href={`mailto:${SUPPORT_EMAIL}`} className={linkClass}>
              {SUPPORT_EMAIL}
            </a>{" "}
            or write to us through the contact form. We answer within 24 hours on working days and
            complete requests within 30 days. You may also complain to the data protection authority
            where you live; in Kenya, that is the Office of the Data Protection Commissioner.
          </p>
        </section>

        <section className="grid gap-3" aria-labelledby="sharing">
          <h2 id="sharing">Who we share it with</h2>
          <p>
            We do not sell or rent personal data. It is processed only by the providers that host
            our servers, database, file storage and e-mail delivery, under contracts that require
            them to keep it confidential and secure. We disclose data to authorities only when the
            law requires it.
          </p>
        </section>

        <section className="grid gap-3" aria-labelledby="changes">
          <h2 id="changes">Changes to this policy</h2>
          <p>
            If we change what we collect or how we use it, we will update this page and the date
            above, and tell members by e-mail before a significant change takes effect. See also our{" "}
            <Link to="/terms" className={linkClass}>
              Terms of Service
            </Link>
            .
          </p>
        </section>
      </article>
    </main>
  );
}
