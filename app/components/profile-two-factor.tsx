import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { Form, useNavigation } from "react-router";
import { z } from "zod";
import { SubmitButton } from "~/components/auth-shared";
import { KeyRound, ShieldAlert, ShieldCheck } from "~/components/icons";
import { type ProfileActionData, type ProfileUser, resultFor } from "~/components/profile-shared";
import { Alert, AlertDescription, AlertTitle } from "~/components/ui/alert";
import { Badge } from "~/components/ui/badge";
import { Card, CardContent, CardDescription, CardHeader } from "~/components/ui/card";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";

const passwordField = z
  .string({ error: "Please enter your current password" })
  .min(1, "Please enter your current password");

export const EnableTwoFactorSchema = z.object({
  intent: z.literal("enable-2fa"),
  password: passwordField,
});
export const ConfirmTwoFactorSchema = z.object({
  intent: z.literal("confirm-2fa"),
  code: z
    .string({ error: "Please enter the 6-digit code" })
    .transform((v) => v.replace(/\s+/g, ""))
    .pipe(z.string().regex(/^\d{6}$/, "Please enter the 6-digit code")),
  totpURI: z.string().optional(),
});
export const DisableTwoFactorSchema = z.object({
  intent: z.literal("disable-2fa"),
  password: passwordField,
});
export const RegenerateCodesSchema = z.object({
  intent: z.literal("regenerate-codes"),
  password: passwordField,
});

function PasswordStep({
  intent,
  schema,
  actionData,
  label,
  pendingLabel,
  variant,
}: {
  intent: string;
  schema: z.ZodType<{ intent: string; password: string }>;
  actionData: ProfileActionData | undefined;
  label: string;
  pendingLabel: string;
  variant?: "default" | "outline" | "destructive";
}) {
  const navigation = useNavigation();
  const pending =
    navigation.state === "submitting" && navigation.formData?.get("intent") === intent;
  const [form, fields] = useForm<{ intent: string; password: string }>({
    id: `${intent}-form`,
    lastResult: resultFor(actionData, intent),
    constraint: getZodConstraint(schema),
    shouldValidate: "onSubmit",
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
  });
  return (
    <Form method="post" {...getFormProps(form)} className="grid gap-3 sm:max-w-sm">
      <input type="hidden" name="intent" value={intent} />
      {form.errors?.length ? (
        <Alert variant="destructive" id={form.errorId}>
          {form.errors.map((error) => (
            <AlertDescription key={error}>{error}</AlertDescription>
          ))}
        </Alert>
      ) : null}
      <Field label="Current Password" htmlFor={fields.password.id} errors={fields.password.errors}>
        <Input
          {...getInputProps(fields.password, { type: "password" })}
          key={fields.password.key}
          autoComplete="current-password"
        />
      </Field>
      <div>
        <SubmitButton
          pending={pending}
          label={label}
          pendingLabel={pendingLabel}
          variant={variant}
          // Long labels wrap at 320 px instead of widening the page (WCAG 1.4.10).
          className="h-auto min-h-10 whitespace-normal"
        />
      </div>
    </Form>
  );
}

function RecoveryCodes({ codes }: { codes: string[] }) {
  return (
    <Alert variant="success" role="status">
      <AlertTitle className="flex items-center gap-2">
        <KeyRound aria-hidden className="size-4" /> Your recovery codes
      </AlertTitle>
      <AlertDescription className="grid gap-3">
        <p>
          Save these {codes.length} codes somewhere safe, such as a password manager. Each one signs
          you in once if you lose your authenticator app. They are shown only now.
        </p>
        <ul
          aria-label="Recovery codes"
          className="grid grid-cols-2 gap-2 font-mono text-sm sm:grid-cols-2"
        >
          {codes.map((code) => (
            <li key={code} className="rounded bg-white px-2 py-1 text-slate-900">
              {code}
            </li>
          ))}
        </ul>
      </AlertDescription>
    </Alert>
  );
}

function ConfirmStep({
  setup,
  actionData,
}: {
  setup: NonNullable<ProfileActionData["twoFactorSetup"]>;
  actionData: ProfileActionData | undefined;
}) {
  const navigation = useNavigation();
  const pending =
    navigation.state === "submitting" && navigation.formData?.get("intent") === "confirm-2fa";
  const [form, fields] = useForm({
    id: "confirm-2fa-form",
    lastResult: resultFor(actionData, "confirm-2fa"),
    constraint: getZodConstraint(ConfirmTwoFactorSchema),
    shouldValidate: "onSubmit",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: ConfirmTwoFactorSchema }),
  });
  return (
    <div className="grid gap-4">
      <ol className="grid list-decimal gap-1 pl-5 text-sm">
        <li>Open your authenticator app (for example 1Password, Google Authenticator, Aegis).</li>
        <li>Scan the QR code, or type the setup key.</li>
        <li>Enter the 6-digit code the app shows.</li>
      </ol>
      <div className="flex flex-col items-start gap-4 sm:flex-row">
        <img
          src={setup.qrDataUrl}
          alt="QR code for setting up two-factor authentication in an authenticator app"
          width={200}
          height={200}
          className="rounded-lg border border-border bg-white p-2"
        />
        <div className="grid gap-1 text-sm">
          <span className="font-medium">Setup key</span>
          <code data-testid="totp-secret" className="rounded bg-muted px-2 py-1 break-all">
            {setup.secret.replace(/(.{4})/g, "$1 ").trim()}
          </code>
          <span className="text-muted-foreground">Time-based, 6 digits, issuer Kongamano.</span>
        </div>
      </div>
      <Form method="post" {...getFormProps(form)} className="grid gap-3 sm:max-w-sm">
        <input type="hidden" name="intent" value="confirm-2fa" />
        <input type="hidden" name="totpURI" value={setup.uri} />
        {form.errors?.length ? (
          <Alert variant="destructive" id={form.errorId}>
            {form.errors.map((error) => (
              <AlertDescription key={error}>{error}</AlertDescription>
            ))}
          </Alert>
        ) : null}
        <Field label="Authentication code" htmlFor={fields.code.id} errors={fields.code.errors}>
          <Input
            {...getInputProps(fields.code, { type: "text" })}
            key={fields.code.key}
            inputMode="numeric"
            autoComplete="one-time-code"
          />
        </Field>
        <div>
          <SubmitButton pending={pending} label="Confirm and turn on" pendingLabel="Verifying..." />
        </div>
      </Form>
    </div>
  );
}

/** Two-factor enrolment (TOTP with recovery codes), status and removal. */
export function ProfileTwoFactor({
  user,
  actionData,
  required,
}: {
  user: ProfileUser;
  actionData: ProfileActionData | undefined;
  required: boolean;
}) {
  const setup = actionData?.twoFactorSetup;
  const codes = actionData?.recoveryCodes;
  return (
    <Card id="two-factor" className="scroll-mt-24">
      <CardHeader>
        <div className="flex flex-wrap items-center justify-between gap-2">
          <h2 className="text-lg font-semibold leading-tight">Two-Factor Authentication</h2>
          {user.twoFactorEnabled ? (
            <Badge variant="success">
              <ShieldCheck aria-hidden className="size-3.5" /> On
            </Badge>
          ) : (
            <Badge variant="neutral">Off</Badge>
          )}
        </div>
        <CardDescription>
          A code from an authenticator app on your phone, asked for at every sign-in.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        {required && !user.twoFactorEnabled ? (
          <Alert>
            <AlertTitle className="flex items-center gap-2">
              <ShieldAlert aria-hidden className="size-4" /> Required for admins
            </AlertTitle>
            <AlertDescription>
              Set up two-factor authentication before opening the admin area.
            </AlertDescription>
          </Alert>
        ) : null}
        {codes ? <RecoveryCodes codes={codes} /> : null}
        {user.twoFactorEnabled ? (
          <div className="grid gap-6">
            <div className="grid gap-2">
              <h3 className="font-medium">New recovery codes</h3>
              <p className="text-sm text-muted-foreground">
                Replaces your recovery codes with ten new ones; the old ones stop working.
              </p>
              <PasswordStep
                intent="regenerate-codes"
                schema={RegenerateCodesSchema}
                actionData={actionData}
                label="Generate new codes"
                pendingLabel="Generating..."
                variant="outline"
              />
            </div>
            <div className="grid gap-2">
              <h3 className="font-medium">Turn off two-factor authentication</h3>
              <PasswordStep
                intent="disable-2fa"
                schema={DisableTwoFactorSchema}
                actionData={actionData}
                label="Turn off"
                pendingLabel="Turning off..."
                variant="destructive"
              />
            </div>
          </div>
        ) : setup ? (
          <ConfirmStep setup={setup} actionData={actionData} />
        ) : (
          <div className="grid gap-2">
            <p className="text-sm">Confirm your password to start the set-up.</p>
            <PasswordStep
              intent="enable-2fa"
              schema={EnableTwoFactorSchema}
              actionData={actionData}
              label="Set up two-factor authentication"
              pendingLabel="Starting..."
            />
          </div>
        )}
      </CardContent>
    </Card>
  );
}
