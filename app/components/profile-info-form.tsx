import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { Form, useNavigation } from "react-router";
import { z } from "zod";
import { emailField, fullNameField } from "~/components/auth-schemas";
import { SubmitButton } from "~/components/auth-shared";
import { type ProfileActionData, type ProfileUser, resultFor } from "~/components/profile-shared";
import { Alert, AlertDescription } from "~/components/ui/alert";
import { Card, CardContent, CardDescription, CardHeader } from "~/components/ui/card";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";

export const ProfileInfoSchema = z.object({
  intent: z.literal("update-profile"),
  fullName: fullNameField,
  email: emailField,
});

export function ProfileInfoForm({
  user,
  actionData,
}: {
  user: ProfileUser;
  actionData: ProfileActionData | undefined;
}) {
  const navigation = useNavigation();
  const pending =
    navigation.state === "submitting" && navigation.formData?.get("intent") === "update-profile";
  const [form, fields] = useForm({
    id: "profile-info-form",
    lastResult: resultFor(actionData, "update-profile"),
    defaultValue: { fullName: user.name, email: user.email },
    constraint: getZodConstraint(ProfileInfoSchema),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: ProfileInfoSchema }),
  });
  const pendingFor =
    actionData?.intent === "update-profile" ? actionData.emailChangePendingFor : undefined;

  return (
    <Card>
      <CardHeader>
        <h2 className="text-lg font-semibold leading-tight">Profile Information</h2>
        <CardDescription>Your name and the email address you sign in with.</CardDescription>
      </CardHeader>
      <CardContent>
        <Form method="post" {...getFormProps(form)} className="grid gap-4">
          <input type="hidden" name="intent" value="update-profile" />
          {form.errors?.length ? (
            <Alert variant="destructive" id={form.errorId}>
              {form.errors.map((error) => (
                <AlertDescription key={error}>{error}</AlertDescription>
              ))}
            </Alert>
          ) : null}
          <Field label="Full Name" htmlFor={fields.fullName.id} errors={fields.fullName.errors}>
            <Input
              {...getInputProps(fields.fullName, { type: "text" })}
              key={fields.fullName.key}
              autoComplete="name"
            />
          </Field>
          <Field
            label="Email"
            htmlFor={fields.email.id}
            errors={fields.email.errors}
            hint="A new address takes effect once you open the verification link we send to it."
          >
            <Input
              {...getInputProps(fields.email, { type: "email" })}
              key={fields.email.key}
              autoComplete="email"
            />
          </Field>
          {pendingFor ? (
            <p role="status" className="rounded-lg bg-muted px-3 py-2 text-sm">
              We sent a verification link to <strong>{pendingFor}</strong>. Your email address
              changes once you open it; until then you keep signing in with {user.email}.
            </p>
          ) : null}
          <div>
            <SubmitButton pending={pending} label="Update Profile" pendingLabel="Updating..." />
          </div>
        </Form>
      </CardContent>
    </Card>
  );
}
