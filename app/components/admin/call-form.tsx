import {
  getFormProps,
  getInputProps,
  getSelectProps,
  getTextareaProps,
  useForm,
} from "@conform-to/react";
import { Form, Link } from "react-router";
import { Required, SaveButton, useFailureToast } from "~/components/admin/entity-form-parts";
import { FormErrorAlert } from "~/components/admin/form-error-alert";
import { buttonVariants } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { Field, fieldWiring } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { NativeSelect } from "~/components/ui/native-select";
import { Textarea } from "~/components/ui/textarea";
import type { EntityActionData } from "~/models/shared/entity-actions.server";

export type CallFormDefaults = {
  title: string;
  description: string;
  tracks: string;
  criteria: string;
  submissionDeadline: string;
  reviewDeadline: string;
  eventId: string;
  blindMode: "double" | "single";
};

/** The call-for-papers form (issue 32): new and edit screens of /admin/calls. */
export function CallForm({
  mode,
  defaultValue,
  events,
  actionData,
}: {
  mode: "create" | "edit";
  defaultValue: CallFormDefaults;
  events: { id: string; title: string }[];
  actionData?: EntityActionData;
}) {
  const [form, fields] = useForm({
    id: "call-form",
    lastResult: actionData?.result,
    defaultValue,
    shouldRevalidate: "onInput",
  });
  useFailureToast(actionData);
  return (
    <Card className="p-6">
      <Form method="post" {...getFormProps(form)} className="grid gap-5">
        <FormErrorAlert
          title={actionData?.error?.title ?? ""}
          message={actionData?.error?.description}
          token={actionData}
        />
        <Field
          label={
            <>
              Title
              <Required />
            </>
          }
          {...fieldWiring(fields.title)}
        >
          <Input {...getInputProps(fields.title, { type: "text" })} />
        </Field>
        <Field
          label="Description"
          hint="Scope, what to send and anything authors should know; shown on /papers."
          {...fieldWiring(fields.description)}
        >
          <Textarea {...getTextareaProps(fields.description)} rows={5} />
        </Field>
        <div className="grid gap-5 sm:grid-cols-2">
          <Field
            label={
              <>
                Submission deadline
                <Required />
              </>
            }
            hint="Submissions close at 23:59 Nairobi time on this day."
            {...fieldWiring(fields.submissionDeadline)}
          >
            <Input {...getInputProps(fields.submissionDeadline, { type: "date" })} />
          </Field>
          <Field
            label={
              <>
                Review deadline
                <Required />
              </>
            }
            hint="The due date reviewers are given by default."
            {...fieldWiring(fields.reviewDeadline)}
          >
            <Input {...getInputProps(fields.reviewDeadline, { type: "date" })} />
          </Field>
        </div>
        <div className="grid gap-5 sm:grid-cols-2">
          <Field
            label="Tracks"
            hint="One per line; authors choose one. Leave empty for none."
            {...fieldWiring(fields.tracks)}
          >
            <Textarea {...getTextareaProps(fields.tracks)} rows={4} />
          </Field>
          <Field
            label={
              <>
                Review criteria
                <Required />
              </>
            }
            hint="One per line; reviewers score each from 1 to 5."
            {...fieldWiring(fields.criteria)}
          >
            <Textarea {...getTextareaProps(fields.criteria)} rows={4} />
          </Field>
        </div>
        <div className="grid gap-5 sm:grid-cols-2">
          <Field label="Review" {...fieldWiring(fields.blindMode)}>
            <NativeSelect {...getSelectProps(fields.blindMode)}>
              <option value="double">Double-blind (reviewers and authors anonymous)</option>
              <option value="single">Single-blind (reviewers see the authors)</option>
            </NativeSelect>
          </Field>
          <Field
            label="Event"
            hint="Accepted papers can be added to this event's agenda."
            {...fieldWiring(fields.eventId)}
          >
            <NativeSelect {...getSelectProps(fields.eventId)}>
              <option value="none">No event</option>
              {events.map((event) => (
                <option key={event.id} value={event.id}>
                  {event.title}
                </option>
              ))}
            </NativeSelect>
          </Field>
        </div>
        <div className="flex flex-wrap gap-3">
          <SaveButton mode={mode} label={mode === "create" ? "Create Call" : "Update Call"} />
          <Link to="/admin/calls" className={buttonVariants({ variant: "outline" })}>
            Cancel
          </Link>
        </div>
      </Form>
    </Card>
  );
}
