import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { useEffect, useState } from "react";
import { Form, useNavigation, useSearchParams } from "react-router";
import { z } from "zod";
import { AlertTriangle } from "~/components/icons";
import { Link } from "~/components/link";
import { type ProfileActionData, resultFor } from "~/components/profile-shared";
import { Alert, AlertDescription } from "~/components/ui/alert";
import { Button, buttonVariants } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader } from "~/components/ui/card";
import {
  AlertDialog,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogTitle,
} from "~/components/ui/dialog";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { cn } from "~/lib/utils";

export const DeleteAccountSchema = z.object({
  intent: z.literal("delete-account"),
  password: z
    .string({ error: "Please enter your current password" })
    .min(1, "Please enter your current password"),
});

const CONSEQUENCES =
  "This permanently deletes your account, signs you out everywhere and removes your personal data. The activity log keeps its entries without your name or email. This cannot be undone.";

function DeleteAccountForm({
  actionData,
  cancel,
}: {
  actionData: ProfileActionData | undefined;
  cancel: React.ReactNode;
}) {
  const navigation = useNavigation();
  const pending =
    navigation.state === "submitting" && navigation.formData?.get("intent") === "delete-account";
  const [form, fields] = useForm({
    id: "delete-account-form",
    lastResult: resultFor(actionData, "delete-account"),
    constraint: getZodConstraint(DeleteAccountSchema),
    shouldValidate: "onSubmit",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: DeleteAccountSchema }),
  });
  return (
    <Form method="post" {...getFormProps(form)} className="grid gap-4">
      <input type="hidden" name="intent" value="delete-account" />
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
      <AlertDialogFooter>
        {cancel}
        <Button type="submit" variant="destructive" aria-disabled={pending || undefined}>
          {pending ? "Deleting..." : "Delete Account"}
        </Button>
      </AlertDialogFooter>
    </Form>
  );
}

/** Danger zone (spec §2.14): a confirmation with the current password, then real deletion. */
export function ProfileDangerZone({ actionData }: { actionData: ProfileActionData | undefined }) {
  const [searchParams] = useSearchParams();
  // Without JavaScript the link opens an inline confirmation (?delete=confirm) instead.
  const inline = searchParams.get("delete") === "confirm";
  const [open, setOpen] = useState(false);
  useEffect(() => {
    if (actionData?.intent === "delete-account" && actionData.result?.status === "error") {
      setOpen(true);
    }
  }, [actionData]);

  return (
    <Card id="danger-zone" className="scroll-mt-24 border-red-300">
      <CardHeader>
        <h2 className="flex items-center gap-2 text-lg font-semibold leading-tight text-red-800">
          <AlertTriangle aria-hidden className="size-5" /> Danger Zone
        </h2>
        <CardDescription>Delete your account and everything that belongs to it.</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        {inline ? (
          <div className="grid gap-3 rounded-lg border border-red-300 p-4">
            <h3 className="font-semibold">Delete your account?</h3>
            <p className="text-sm">{CONSEQUENCES}</p>
            <DeleteAccountForm
              actionData={actionData}
              cancel={
                <Link to="/profile" className={buttonVariants({ variant: "outline" })}>
                  Cancel
                </Link>
              }
            />
          </div>
        ) : (
          <div>
            <Link
              to="?delete=confirm#danger-zone"
              className={cn(buttonVariants({ variant: "destructive" }))}
              onClick={(event) => {
                event.preventDefault();
                setOpen(true);
              }}
            >
              Delete Account
            </Link>
          </div>
        )}
        <AlertDialog open={open} onOpenChange={setOpen}>
          <AlertDialogContent>
            <AlertDialogTitle>Delete your account?</AlertDialogTitle>
            <AlertDialogDescription>{CONSEQUENCES}</AlertDialogDescription>
            <DeleteAccountForm
              actionData={actionData}
              cancel={<AlertDialogCancel type="button">Cancel</AlertDialogCancel>}
            />
          </AlertDialogContent>
        </AlertDialog>
      </CardContent>
    </Card>
  );
}
