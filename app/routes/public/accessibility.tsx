import { data } from "react-router";
import { Link } from "~/components/link";
import { env } from "~/lib/env.server";
import { getOptionalUser } from "~/lib/permissions.server";
import { pageMeta } from "~/lib/seo";
import { cacheHeadersFor, contactHref, sitePageHeaders } from "~/lib/site-content";
import type { Route } from "./+types/accessibility";

// The accessibility statement (issue 19, decision 0061), in the shape the EU Accessibility Act
// and the EU model statement ask for: standard, scope, compliance status, how it was tested,
// known limits, a feedback route that reaches staff, and the date of the last review.

export const meta: Route.MetaFunction = ({ loaderData }) =>
  pageMeta({
    title: "Accessibility Statement",
    description:
      "How accessible Kongamano is: WCAG 2.2 level AA for the public site and the back office, how we test it, the limits we know of, and how to tell us about a barrier.",
    origin: loaderData?.origin ?? "",
    path: "/accessibility",
  });

export const headers = sitePageHeaders;

export async function loader({ request }: Route.LoaderArgs) {
  const user = await getOptionalUser(request);
  return data({ origin: env().BASE_URL }, { headers: cacheHeadersFor(user !== null) });
}

export const STATEMENT_REVIEWED = "November 24, 2026";
export const ACCESSIBILITY_CONTACT_TOPIC = "accessibility";

const linkClass = "text-primary underline underline-offset-4";

export default function AccessibilityPage() {
  return (
    <main id="main" className="mx-auto max-w-3xl px-4 py-14">
      <article className="grid gap-10 leading-relaxed text-slate-700 [&_h2]:text-2xl [&_h2]:font-semibold [&_h2]:text-foreground [&_li]:ml-5 [&_ul]:list-disc [&_ul]:space-y-2">
        <header className="grid gap-3">
          <h1 className="text-4xl font-bold tracking-tight text-foreground">
            Accessibility Statement
          </h1>
          <p className="text-sm text-muted-foreground">
            Prepared and last reviewed: {STATEMENT_REVIEWED}
          </p>
          <p>
            Kongamano wants everyone to be able to find an event, read a paper, join the network and
            run the back office, whatever device, browser or assistive technology they use. This
            statement says what we aim for, how we check it, what we know is not yet right, and how
            to reach us when something stands in your way.
          </p>
        </header>

        <section className="grid gap-3" aria-labelledby="a11y-standard">
          <h2 id="a11y-standard">Standard and compliance status</h2>
          <p>
            We aim to meet the{" "}
            <a href="https://www.w3.org/TR/WCAG22/" className={linkClass}>
              Web Content Accessibility Guidelines (WCAG) 2.2
            </a>{" "}
            at level AA, which is also the level the European standard EN 301 549 and the European
            Accessibility Act refer to. This website is <strong>partially conformant</strong>: it
            meets the level AA success criteria except for the limits listed below.
          </p>
        </section>

        <section className="grid gap-3" aria-labelledby="a11y-scope">
          <h2 id="a11y-scope">Scope</h2>
          <p>This statement covers the whole product at this address:</p>
          <ul>
            <li>
              the public site: home, events and event pages, checkout, research papers, membership,
              about, global offices, contact, advertising, privacy, terms and this page;
            </li>
            <li>accounts: sign in, sign up, password reset, two-step sign-in and your profile;</li>
            <li>
              the back office used by our editors and administrators: events, papers, speakers,
              sponsors, offices, messages, payments, users and the security centre.
            </li>
          </ul>
          <p>
            It does not cover documents we link to on other websites, or PDF papers written and
            uploaded by their authors (we publish them as received).
          </p>
        </section>

        <section className="grid gap-3" aria-labelledby="a11y-features">
          <h2 id="a11y-features">What you can expect</h2>
          <ul>
            <li>Every task can be done with a keyboard alone, with a visible focus indicator.</li>
            <li>
              Pages work at 320 CSS pixels wide and at 400% zoom without scrolling sideways, and
              with your own line, letter and word spacing.
            </li>
            <li>
              Buttons, links and controls are at least 24 by 24 CSS pixels or spaced so that they
              are easy to hit; nothing needs dragging.
            </li>
            <li>
              Form errors are written out, linked to their field, and scrolled into view below the
              page header; passwords and codes can be pasted and filled by password managers.
            </li>
            <li>
              Notifications are announced by screen readers; event countdowns are not read out every
              second; dialogs keep focus inside and return it when they close.
            </li>
            <li>
              If you ask your system for reduced motion, figures and countdowns stop animating; in
              Windows high-contrast (forced colours) mode, focus, badges and control states stay
              visible.
            </li>
            <li>
              The contact link is in the same place, the page header and footer, on every page.
            </li>
          </ul>
        </section>

        <section className="grid gap-3" aria-labelledby="a11y-testing">
          <h2 id="a11y-testing">How we tested</h2>
          <p>Every change to the product runs these checks before it is released:</p>
          <ul>
            <li>
              axe-core 4.13 (through Playwright 1.65 in Chromium 156) on every page our automated
              tests visit; any serious or critical finding fails the release.
            </li>
            <li>
              Keyboard-only journeys with no mouse at all: find an event and download its calendar
              file, sign up and verify an e-mail address, register for an event and cancel, apply
              for a membership, create an event with an image, fees and speakers as an editor, check
              an attendee in by name search at the door, and change a user&rsquo;s role as an
              administrator. Each step checks that the focused element is visible.
            </li>
            <li>
              Every screen at 320 CSS pixels wide, also with WCAG 1.4.12 text-spacing overrides; the
              main pages with reduced motion and in forced-colours mode, and their target sizes
              measured.
            </li>
            <li>
              axe-core and HTML_CodeSniffer 2.6 (the engine of pa11y, WCAG 2 AA) on every screen of
              the site, once for each kind of visitor who may open it: a visitor who is not signed
              in, a member, an editor and an administrator. Any finding fails the release.
            </li>
            <li>Lighthouse 12 accessibility audits on the main public pages.</li>
          </ul>
          <p>
            By hand we check keyboard use of each new screen, browser zoom to 400%, and the wording
            of errors and instructions. A full screen-reader review is still to come (see the limits
            below).
          </p>
        </section>

        <section className="grid gap-3" aria-labelledby="a11y-limits">
          <h2 id="a11y-limits">Known limits</h2>
          <ul>
            <li>
              Some research papers are PDFs provided by their authors and may lack tags, reading
              order or text alternatives. Ask us and we will send an accessible version.
            </li>
            <li>
              The map coordinates of an office are shown as numbers only; the office&rsquo;s city,
              country and (for signed-in members) address give the same information as text.
            </li>
            <li>
              Event banners and speaker portraits uploaded by editors get the text alternative the
              editor writes; older images may have a generic one.
            </li>
            <li>
              We have not yet reviewed every screen by hand with a screen reader (NVDA, JAWS or
              VoiceOver); the automated checks cover names, roles and live regions in the meantime.
            </li>
          </ul>
        </section>

        <section className="grid gap-3" aria-labelledby="a11y-feedback">
          <h2 id="a11y-feedback">Feedback and contact</h2>
          <p>
            If something on this site is hard or impossible for you to use, or you need content in
            another format, tell us. Your message goes straight to our staff inbox, marked as
            accessibility feedback, and we reply within 5 working days.
          </p>
          <p>
            <Link to={contactHref(ACCESSIBILITY_CONTACT_TOPIC)} className={linkClass}>
              Report an accessibility barrier
            </Link>
          </p>
          <p>
            If you are not satisfied with our reply, you can contact the body that enforces
            accessibility requirements in your country; in the European Union each member state
            names one under the European Accessibility Act.
          </p>
        </section>
      </article>
    </main>
  );
}
