import { useEffect, useState } from "react";
import { X } from "~/components/icons";
import { Alert, AlertDescription, AlertTitle } from "~/components/ui/alert";

/**
 * The dismissible failure alert of the admin forms (spec §2.15). It reappears for every new
 * failure: pass something that changes per submission as `token` (e.g. the action data object).
 */
export function FormErrorAlert({
  title,
  message,
  token,
}: {
  title: string;
  message: string | null | undefined;
  token?: unknown;
}) {
  const [dismissed, setDismissed] = useState(false);
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new failure (token) shows it again
  useEffect(() => setDismissed(false), [token, message]);
  if (!message || dismissed) return null;
  return (
    <Alert variant="destructive" className="pr-12">
      <AlertTitle>{title}</AlertTitle>
      <AlertDescription>{message}</AlertDescription>
      <button
        type="button"
        onClick={() => setDismissed(true)}
        className="absolute top-2.5 right-2.5 rounded-md p-1 text-red-900 hover:bg-red-100"
        aria-label="Dismiss"
      >
        <X aria-hidden className="size-4" />
      </button>
    </Alert>
  );
}
