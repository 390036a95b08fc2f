import {
  getFormProps,
  getInputProps,
  getSelectProps,
  getTextareaProps,
  useForm,
} from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, Form, redirect, useNavigation } from "react-router";
import { ArrowLeft, Send } from "~/components/icons";
import { Link } from "~/components/link";
import { Alert, AlertDescription } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { NativeSelect } from "~/components/ui/native-select";
import { Textarea } from "~/components/ui/textarea";
import { statusLabel } from "~/lib/constants";
import { HONEYPOT_FIELD } from "~/lib/forms/contact-form-rules";
import { logger } from "~/lib/logger.server";
import { getOptionalUser } from "~/lib/permissions.server";
import { clientIp, userAgent } from "~/lib/request.server";
import { hasRole } from "~/lib/roles";
import { pageMeta } from "~/lib/seo";
import { HEADQUARTERS, PRIVATE_CACHE_CONTROL } from "~/lib/site-content";
import { redirectWithToast } from "~/lib/toast.server";
import { withoutKey } from "~/lib/utils";
import { listEventFilterOptions } from "~/models/events/queries.server";
import { EventProposalSchema, receiveEventProposal } from "~/models/messages/contact.server";
import type { Route } from "./+types/propose";

export const meta: Route.MetaFunction = ({ loaderData }) =>
  pageMeta({
    title: "Propose an Event",
    description:
      "Propose a conference, workshop or meetup to the Kongamano events team: tell us what, where and when, and we reply within 24 hours.",
    origin: loaderData?.origin ?? "",
    path: "/events/propose",
  });

export async function loader({ request }: Route.LoaderArgs) {
  const user = await getOptionalUser(request);
  // Editors create events themselves (spec §2.4: 'Propose an Event' opens the event form).
  if (user && hasRole(user.role, "editor")) throw redirect("/admin/events/new");
  const { types } = await listEventFilterOptions();
  return data(
    {
      origin: new URL(request.url).origin,
      types,
      sender: user ? { name: user.name, email: user.email } : null,
    },
    { headers: { "Cache-Control": PRIVATE_CACHE_CONTROL } },
  );
}

export async function action({ request }: Route.ActionArgs) {
  const noStore = { "Cache-Control": PRIVATE_CACHE_CONTROL };
  const submission = parseWithZod(await request.formData(), { schema: EventProposalSchema });
  if (submission.status !== "success") {
    return data({ result: submission.reply() }, { status: 400, headers: noStore });
  }
  const { [HONEYPOT_FIELD]: honeypot, ...proposal } = submission.value;
  let outcome: Awaited<ReturnType<typeof receiveEventProposal>>;
  try {
    outcome = await receiveEventProposal(proposal, {
      ip: clientIp(request),
      userAgent: userAgent(request),
      honeypot,
    });
  } catch (error) {
    logger.error({ err: error }, "event proposal could not be delivered");
    return data(
      {
        result: submission.reply({
          formErrors: [
            `We could not send your proposal right now. Please try again in a few minutes, or e-mail us at ${HEADQUARTERS.email}.`,
          ],
        }),
      },
      { status: 503, headers: { ...noStore, "Retry-After": "120" } },
    );
  }
  if (outcome.status === "rate-limited") {
    return data(
      {
        result: submission.reply({
          formErrors: ["You have sent several messages in a short time. Please try again later."],
        }),
      },
      { status: 429, headers: { ...noStore, "Retry-After": String(outcome.retryAfterSeconds) } },
    );
  }
  return redirectWithToast("/events", {
    type: "success",
    title: "Thank you for your proposal!",
    description: "Our events team will reply within 24 hours.",
  });
}

type ProposalFields = {
  title: string;
  eventType: string;
  location: string;
  dates: string;
  description: string;
  name: string;
  email: string;
};

export default function ProposeEvent({ loaderData, actionData }: Route.ComponentProps) {
  const { types, sender } = loaderData;
  const navigation = useNavigation();
  const [form, fields] = useForm<ProposalFields>({
    id: "event-proposal",
    lastResult: actionData?.result,
    defaultValue: { name: sender?.name ?? "", email: sender?.email ?? "" },
    // Checked by the action only: this public page ships no Zod (JS budget, design.md §5).
  });
  const text = (field: (typeof fields)["title"]) => {
    const { key: _key, ...props } = getInputProps(field, { type: "text" });
    return props;
  };
  return (
    <main id="main" className="mx-auto grid max-w-3xl gap-6 px-4 py-10">
      <Link
        to="/events"
        className="inline-flex items-center gap-1 text-sm font-medium text-primary-700 hover:underline"
      >
        <ArrowLeft aria-hidden className="size-4" />
        All Events
      </Link>
      <div>
        <h1 className="text-3xl font-bold tracking-tight">Propose an Event</h1>
        <p className="mt-2 text-muted-foreground">
          Tell us about the conference, workshop or meetup you would like to host with us. Your
          proposal goes straight to our events team, who reply within 24 hours.
        </p>
      </div>
      <Form
        method="post"
        {...getFormProps(form)}
        className="grid gap-5 rounded-2xl border border-border bg-card p-6 shadow-sm"
      >
        {form.errors?.length ? (
          <Alert variant="destructive" id={form.errorId}>
            {form.errors.map((error) => (
              <AlertDescription key={error}>{error}</AlertDescription>
            ))}
          </Alert>
        ) : null}
        <Field
          label="Event title"
          htmlFor={fields.title.id}
          errors={fields.title.errors}
          errorId={fields.title.errorId}
        >
          <Input key={fields.title.key} {...text(fields.title)} />
        </Field>
        <div className="grid gap-5 sm:grid-cols-2">
          <Field
            label="Event type"
            htmlFor={fields.eventType.id}
            errors={fields.eventType.errors}
            errorId={fields.eventType.errorId}
          >
            <NativeSelect
              key={fields.eventType.key}
              {...withoutKey(getSelectProps(fields.eventType))}
            >
              <option value="">Not sure yet</option>
              {types.map((type) => (
                <option key={type} value={statusLabel(type)}>
                  {statusLabel(type)}
                </option>
              ))}
            </NativeSelect>
          </Field>
          <Field
            label="Proposed dates"
            htmlFor={fields.dates.id}
            errors={fields.dates.errors}
            errorId={fields.dates.errorId}
            hint="e.g. 14–16 May 2027, or 'spring 2027'"
          >
            <Input key={fields.dates.key} {...text(fields.dates)} />
          </Field>
        </div>
        <Field
          label="Location"
          htmlFor={fields.location.id}
          errors={fields.location.errors}
          errorId={fields.location.errorId}
          hint="City, Country — or 'Online'"
        >
          <Input key={fields.location.key} {...text(fields.location)} />
        </Field>
        <Field
          label="Description"
          htmlFor={fields.description.id}
          errors={fields.description.errors}
          errorId={fields.description.errorId}
          hint="Audience, format, expected attendance, partners you have in mind."
        >
          <Textarea
            key={fields.description.key}
            rows={6}
            {...withoutKey(getTextareaProps(fields.description))}
          />
        </Field>
        <div className="grid gap-5 sm:grid-cols-2">
          <Field
            label="Your name"
            htmlFor={fields.name.id}
            errors={fields.name.errors}
            errorId={fields.name.errorId}
          >
            <Input key={fields.name.key} autoComplete="name" {...text(fields.name)} />
          </Field>
          <Field
            label="Your email"
            htmlFor={fields.email.id}
            errors={fields.email.errors}
            errorId={fields.email.errorId}
          >
            <Input
              key={fields.email.key}
              autoComplete="email"
              {...withoutKey(getInputProps(fields.email, { type: "email" }))}
            />
          </Field>
        </div>
        <input
          type="text"
          name={HONEYPOT_FIELD}
          tabIndex={-1}
          autoComplete="off"
          aria-hidden
          className="hidden"
          defaultValue=""
        />
        <Button
          type="submit"
          size="lg"
          disabled={navigation.state === "submitting"}
          className="justify-self-start"
        >
          <Send aria-hidden />
          {navigation.state === "submitting" ? "Sending..." : "Send Proposal"}
        </Button>
      </Form>
    </main>
  );
}
