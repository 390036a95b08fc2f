import {
  getFormProps,
  getInputProps,
  getSelectProps,
  type SubmissionResult,
  useForm,
} from "@conform-to/react";
import { useEffect } from "react";
import { Form, useNavigation } from "react-router";
import { Send } from "~/components/icons";
import { Alert, AlertDescription, AlertTitle } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { NativeSelect } from "~/components/ui/native-select";
import { useDeferredSchema } from "~/lib/deferred-validation";
import { toast } from "~/lib/notify";
import { ROLE_LABELS } from "~/lib/roles";

export type InviteActionData = {
  result?: SubmissionResult<string[]>;
  error?: { title: string; description: string };
};

const ROLE_OPTIONS = ["user", "editor", "admin"] as const;

/**
 * The invite panel (spec §2.15, §5, §9): an e-mail and a role (user by default, editor, admin).
 * The server stores a one-time link and mails it; failures show as a toast and an alert.
 */
export function InvitationForm({ actionData }: { actionData?: InviteActionData }) {
  const navigation = useNavigation();
  const sending = navigation.state !== "idle" && navigation.formData?.get("intent") === "invite";
  const validation = useDeferredSchema(
    async () => (await import("./invitation-schema")).InviteFormSchema,
    "onSubmit",
  );
  const [form, fields] = useForm({
    id: "invite-form",
    lastResult: navigation.state === "idle" ? actionData?.result : undefined,
    defaultValue: { role: "user" },
    ...validation,
  });

  useEffect(() => {
    if (actionData?.error) {
      toast.error(actionData.error.title, { description: actionData.error.description });
    }
  }, [actionData]);

  return (
    <Form method="post" {...getFormProps(form)} className="grid gap-4">
      <input type="hidden" name="intent" value="invite" />
      {actionData?.error ? (
        <Alert variant="destructive">
          <AlertTitle>{actionData.error.title}</AlertTitle>
          <AlertDescription>{actionData.error.description}</AlertDescription>
        </Alert>
      ) : null}
      <div className="grid gap-4 sm:grid-cols-[1fr_12rem]">
        <Field
          label="Email address"
          htmlFor={fields.email.id}
          errors={fields.email.errors}
          errorId={fields.email.errorId}
        >
          <Input
            {...getInputProps(fields.email, { type: "email" })}
            autoComplete="off"
            placeholder="name@example.com"
          />
        </Field>
        <Field
          label="Role"
          htmlFor={fields.role.id}
          errors={fields.role.errors}
          errorId={fields.role.errorId}
        >
          <NativeSelect {...getSelectProps(fields.role)}>
            {ROLE_OPTIONS.map((role) => (
              <option key={role} value={role}>
                {ROLE_LABELS[role]}
              </option>
            ))}
          </NativeSelect>
        </Field>
      </div>
      <p className="text-sm text-muted-foreground">
        We email a one-time link that expires in 7 days. The account it creates gets the role chosen
        here.
      </p>
      <div>
        <Button type="submit" disabled={sending}>
          <Send aria-hidden />
          {sending ? "Sending..." : "Send Invitation"}
        </Button>
      </div>
    </Form>
  );
}
