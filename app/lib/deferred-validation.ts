import type { Submission } from "@conform-to/react";
import { useEffect, useState } from "react";

type Validate = (formData: FormData) => Submission<Record<string, unknown>, string[]>;

/**
 * Conform options for a form whose client-side rules are loaded after hydration, so the schema
 * library stays out of the page's first load. Until they arrive (a few hundred milliseconds)
 * the form validates on submit only, and the server, which runs the same rules, answers with
 * the same messages; from then on fields validate on blur and revalidate as the user types.
 */
export function useDeferredValidation(load: () => Promise<Validate>) {
  const [validate, setValidate] = useState<Validate | null>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the loader is read once, on mount
  useEffect(() => {
    let live = true;
    load().then(
      (loaded) => live && setValidate(() => loaded),
      () => {}, // offline or a stale deployment: the server still validates every submission
    );
    return () => {
      live = false;
    };
  }, []);
  return validate
    ? {
        shouldValidate: "onBlur" as const,
        shouldRevalidate: "onInput" as const,
        onValidate: ({ formData }: { formData: FormData }) => validate(formData),
      }
    : { shouldValidate: "onSubmit" as const };
}
