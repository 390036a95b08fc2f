import { parseWithZod } from "@conform-to/zod/v4";
import { Suspense } from "react";
import { Await, data, type ShouldRevalidateFunctionArgs } from "react-router";
import type { ContactActionData } from "~/components/contact-form";
import { ContactInfoCards, ContactQuickActions } from "~/components/contact-info";
import { subjectForTopic } from "~/components/contact-topics";
import { MessageSquare } from "~/components/icons";
import { OfficeGrid, OfficesAwaitError } from "~/components/office-directory";
import { Spinner } from "~/components/ui/spinner";
import { env } from "~/lib/env.server";
import { HONEYPOT_FIELD, NO_REGION } from "~/lib/forms/contact-form-rules";
import { lazyOnInteraction } from "~/lib/lazy-on-interaction";
import { logger } from "~/lib/logger.server";
import { getOptionalUser } from "~/lib/permissions.server";
import { clientIp, userAgent } from "~/lib/request.server";
import { pageMeta } from "~/lib/seo";
import {
  cacheHeadersFor,
  HEADQUARTERS,
  PRIVATE_CACHE_CONTROL,
  REPLY_PROMISE,
  sitePageHeaders,
} from "~/lib/site-content";
import { ContactFormSchema, receiveContactMessage } from "~/models/messages/contact.server";
import { getOfficeDirectory } from "~/models/offices/queries.server";
import type { Route } from "./+types/contact";

/*
 * The form's code (Conform and the form, 11 KB brotli) is not part of the page's first load: the
 * browser fetches it when someone starts to use the form (decision 0065). The server renders
 * the form in place, and until the code arrives it works as a plain HTML form (decision 0009).
 */
const eagerForm = import.meta.env.SSR ? await import("~/components/contact-form") : null;
const ContactForm = lazyOnInteraction(
  eagerForm?.ContactForm,
  async () => (await import("~/components/contact-form")).ContactForm,
);

export const meta: Route.MetaFunction = ({ loaderData }) =>
  pageMeta({
    title: "Contact Us",
    description:
      "Get in touch with Kongamano: our Nairobi headquarters, 24/7 support, partnerships and regional offices. We reply within 24 hours.",
    origin: loaderData?.origin ?? "",
    path: "/contact",
  });

export const headers = sitePageHeaders;

export async function loader({ request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const user = await getOptionalUser(request);
  const signedIn = user !== null;
  const defaultSubject = subjectForTopic(url.searchParams.get("topic"), {
    event: url.searchParams.get("event"),
    paper: url.searchParams.get("paper"),
  });
  // Same rule as /offices: visitors' office rows carry no address, phone or e-mail.
  const directory = getOfficeDirectory(signedIn).catch((error: unknown) => {
    logger.error({ err: error }, "failed to load offices for the contact page");
    throw error;
  });
  return data(
    {
      origin: env().BASE_URL,
      defaultSubject,
      directory,
      // Signed-in people need not type who they are (the page is then never cached publicly).
      sender: user ? { name: user.name, email: user.email } : null,
    },
    { headers: cacheHeadersFor(signedIn) },
  );
}

export async function action({ request }: Route.ActionArgs) {
  const noStore = { "Cache-Control": PRIVATE_CACHE_CONTROL };
  const formData = await request.formData();
  const submission = parseWithZod(formData, { schema: ContactFormSchema });
  if (submission.status !== "success") {
    return data<ContactActionData>(
      { result: submission.reply(), outcome: "invalid" },
      { status: 400, headers: noStore },
    );
  }
  const { region, [HONEYPOT_FIELD]: honeypot, ...message } = submission.value;
  try {
    const outcome = await receiveContactMessage(
      { ...message, region: region && region !== NO_REGION ? region : null },
      { ip: clientIp(request), userAgent: userAgent(request), honeypot },
    );
    if (outcome.status === "rate-limited") {
      const minutes = Math.max(1, Math.ceil(outcome.retryAfterSeconds / 60));
      return data<ContactActionData>(
        {
          result: submission.reply({
            formErrors: [
              `You have sent several messages in a short time. Please wait ${minutes} ${minutes === 1 ? "minute" : "minutes"} and try again.`,
            ],
          }),
          outcome: "rate-limited",
        },
        {
          status: 429,
          headers: { ...noStore, "Retry-After": String(outcome.retryAfterSeconds) },
        },
      );
    }
    // A dropped (honeypot) submission gets exactly the same answer as a delivered one.
    return data<ContactActionData>(
      { result: submission.reply({ resetForm: true }), outcome: "sent" },
      { headers: noStore },
    );
  } catch (error) {
    logger.error({ err: error }, "contact message could not be delivered");
    return data<ContactActionData>(
      {
        result: submission.reply({
          formErrors: [
            `We could not send your message right now. Please try again in a few minutes, or e-mail us at ${HEADQUARTERS.email}.`,
          ],
        }),
        outcome: "failed",
      },
      // The mail server is unavailable, not the request wrong: 503, and when to try again.
      { status: 503, headers: { ...noStore, "Retry-After": "120" } },
    );
  }
}

/** A contact submission changes nothing this page shows: skip reloading the offices. */
export function shouldRevalidate({
  formMethod,
  currentUrl,
  nextUrl,
  defaultShouldRevalidate,
}: ShouldRevalidateFunctionArgs) {
  if (formMethod === "POST" && currentUrl.href === nextUrl.href) return false;
  return defaultShouldRevalidate;
}

export default function ContactPage({ loaderData, actionData }: Route.ComponentProps) {
  const { defaultSubject, directory, sender } = loaderData;
  return (
    <main id="main">
      <section className="border-b border-border bg-gradient-to-b from-accent to-background">
        <div className="mx-auto max-w-7xl px-4 py-14 text-center sm:py-20">
          <h1 className="text-4xl font-bold tracking-tight sm:text-5xl">Contact Us</h1>
          <p className="mx-auto mt-4 max-w-2xl text-lg text-muted-foreground">
            Questions about an event, your membership, research or partnerships? Send us a message
            and the right team will answer. {REPLY_PROMISE}
          </p>
        </div>
      </section>

      <div className="mx-auto grid max-w-7xl gap-16 px-4 py-12">
        <div className="grid gap-10 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
          <section aria-labelledby="contact-form-heading" className="scroll-mt-24">
            <div className="rounded-2xl border border-border bg-card p-6 shadow-sm sm:p-8">
              <h2
                id="contact-form-heading"
                className="flex items-center gap-2 text-2xl font-semibold"
              >
                <MessageSquare aria-hidden className="size-6 text-primary" /> Send us a message
              </h2>
              <p className="mt-1 mb-6 text-sm text-muted-foreground">
                Fields marked as optional can be left empty; everything else is required.
              </p>
              {/* Keyed by subject: following a topic link on this page refills the form. */}
              <ContactForm
                key={defaultSubject}
                fallback={<Spinner label="Loading the form..." />}
                now={Boolean(actionData)}
                defaultSubject={defaultSubject}
                sender={sender}
                actionData={actionData}
              />
            </div>
          </section>
          <aside aria-label="Other ways to reach us">
            <ContactInfoCards />
          </aside>
        </div>

        <section aria-labelledby="quick-actions-heading" className="grid gap-6">
          <h2 id="quick-actions-heading" className="text-2xl font-semibold">
            Quick Actions
          </h2>
          <ContactQuickActions />
        </section>

        <section aria-labelledby="contact-offices-heading" className="grid gap-6">
          <div>
            <h2 id="contact-offices-heading" className="text-2xl font-semibold">
              Our Offices
            </h2>
            <p className="text-sm text-muted-foreground">
              Regional teams on six continents, open 9AM - 6PM local time.
            </p>
          </div>
          <Suspense fallback={<Spinner label="Loading contact information..." />}>
            <Await resolve={directory} errorElement={<OfficesAwaitError />}>
              {(resolved) => (
                <OfficeGrid
                  offices={resolved.offices}
                  signInHref="/auth?redirectTo=/contact"
                  columns={4}
                  compact
                />
              )}
            </Await>
          </Suspense>
        </section>
      </div>
    </main>
  );
}
