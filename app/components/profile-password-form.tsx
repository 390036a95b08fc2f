import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { useEffect, useState } from "react";
import { Form, useNavigation } from "react-router";
import { z } from "zod";
import { SubmitButton } from "~/components/auth-shared";
import { PasswordStrengthMeter } from "~/components/password-strength-meter";
import { type ProfileActionData, resultFor } from "~/components/profile-shared";
import { Alert, AlertDescription } from "~/components/ui/alert";
import { Card, CardContent, CardDescription, CardHeader } from "~/components/ui/card";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { useTypedValue } from "~/lib/use-typed-value";

export const PASSWORDS_DO_NOT_MATCH = "Passwords do not match.";
export const PASSWORD_TOO_SHORT_PROFILE = "Password must be at least 6 characters long.";

/**
 * Profile password change (spec §5): the entries must match and be at least 6 characters, with
 * the spec's messages. The server's own minimum is 8 (better-auth), reported separately.
 */
export const ChangePasswordSchema = z
  .object({
    intent: z.literal("change-password"),
    currentPassword: z
      .string({ error: "Please enter your current password" })
      .min(1, "Please enter your current password"),
    newPassword: z.string({ error: PASSWORD_TOO_SHORT_PROFILE }).min(6, PASSWORD_TOO_SHORT_PROFILE),
    confirmPassword: z.string({ error: PASSWORDS_DO_NOT_MATCH }),
  })
  .refine((v) => v.newPassword === v.confirmPassword, {
    path: ["confirmPassword"],
    message: PASSWORDS_DO_NOT_MATCH,
  });

export function ProfilePasswordForm({ actionData }: { actionData: ProfileActionData | undefined }) {
  const navigation = useNavigation();
  const pending =
    navigation.state === "submitting" && navigation.formData?.get("intent") === "change-password";
  const {
    value: newPassword,
    setValue: setNewPassword,
    inputProps: newPasswordInput,
  } = useTypedValue();
  const {
    value: confirmPassword,
    setValue: setConfirmPassword,
    inputProps: confirmPasswordInput,
  } = useTypedValue();
  // The button waits for both entries (spec §5) once JavaScript runs; without it, the server checks.
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  const [form, fields] = useForm({
    id: "profile-password-form",
    lastResult: resultFor(actionData, "change-password"),
    constraint: getZodConstraint(ChangePasswordSchema),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: ChangePasswordSchema }),
  });
  useEffect(() => {
    if (actionData?.intent === "change-password" && actionData.result?.status === "success") {
      setNewPassword("");
      setConfirmPassword("");
    }
  }, [actionData, setNewPassword, setConfirmPassword]);

  return (
    <Card>
      <CardHeader>
        <h2 className="text-lg font-semibold leading-tight">Change Password</h2>
        <CardDescription>
          Use a long password you do not use anywhere else; 12 characters or more is best.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <Form method="post" {...getFormProps(form)} className="grid gap-4">
          <input type="hidden" name="intent" value="change-password" />
          {form.errors?.length ? (
            <Alert variant="destructive" id={form.errorId}>
              {form.errors.map((error) => (
                <AlertDescription key={error}>{error}</AlertDescription>
              ))}
            </Alert>
          ) : null}
          <Field
            label="Current Password"
            htmlFor={fields.currentPassword.id}
            errors={fields.currentPassword.errors}
          >
            <Input
              {...getInputProps(fields.currentPassword, { type: "password" })}
              key={fields.currentPassword.key}
              autoComplete="current-password"
            />
          </Field>
          <Field
            label="New Password"
            htmlFor={fields.newPassword.id}
            errors={fields.newPassword.errors}
          >
            <Input
              {...getInputProps(fields.newPassword, { type: "password" })}
              key={fields.newPassword.key}
              autoComplete="new-password"
              {...newPasswordInput}
            />
          </Field>
          <PasswordStrengthMeter password={newPassword} />
          <Field
            label="Confirm New Password"
            htmlFor={fields.confirmPassword.id}
            errors={fields.confirmPassword.errors}
          >
            <Input
              {...getInputProps(fields.confirmPassword, { type: "password" })}
              key={fields.confirmPassword.key}
              autoComplete="new-password"
              {...confirmPasswordInput}
            />
          </Field>
          <div>
            <SubmitButton
              pending={pending}
              disabled={hydrated && (!newPassword || !confirmPassword)}
              label="Update Password"
              pendingLabel="Updating..."
            />
          </div>
        </Form>
      </CardContent>
    </Card>
  );
}
