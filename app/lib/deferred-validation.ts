import type { Submission } from "@conform-to/react";
import { useEffect, useState } from "react";

type Validate = (formData: FormData) => Submission<Record<string, unknown>, string[]>;

/**
 * Conform options for a form whose client-side rules are loaded after hydration, so the schema
 * library stays out of the page's first load. Until they arrive (a few hundred milliseconds)
 * the form validates on submit only, and the server, which runs the same rules, answers with
 * the same messages; from then on fields validate on blur and revalidate as the user types.
 */
export function useDeferredValidation(
  load: () => Promise<Validate>,
  /** "interaction": wait for the first focus, press or key on the page (staff forms). */
  when: "hydrated" | "interaction" = "hydrated",
) {
  const [validate, setValidate] = useState<Validate | null>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the loader is read once, on mount
  useEffect(() => {
    let live = true;
    const start = () => {
      stopWaiting();
      load().then(
        (loaded) => live && setValidate(() => loaded),
        () => {}, // offline or a stale deployment: the server still validates every submission
      );
    };
    const events = ["focusin", "pointerdown", "keydown"] as const;
    const stopWaiting = () => {
      for (const type of events) document.removeEventListener(type, start, true);
    };
    if (when === "hydrated") start();
    else for (const type of events) document.addEventListener(type, start, true);
    return () => {
      live = false;
      stopWaiting();
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

/**
 * A form's Zod schema as deferred validation: the schema module and Zod (~32 KB brotli with
 * conform's Zod bridge) load when the person first touches the page (a focus, a press, a key),
 * not with it: a visit that only reads a screen never loads them (staff pages, decision 0095).
 * `shouldValidate` is the form's own choice once the rules have arrived. The type parameters
 * are the form's input and output (as `useForm` takes them).
 */
export function useDeferredSchema<
  // biome-ignore lint/suspicious/noExplicitAny: conform's own default for a form's shape
  Input extends Record<string, any> = Record<string, any>,
  Output = Input,
>(
  loadSchema: () => Promise<unknown>,
  shouldValidate: "onSubmit" | "onBlur" = "onBlur",
): {
  shouldValidate: "onSubmit" | "onBlur";
  shouldRevalidate?: "onInput";
  onValidate?: (context: { formData: FormData }) => Submission<Input, string[], Output>;
} {
  const validation = useDeferredValidation(async () => {
    const [{ parseWithZod }, schema] = await Promise.all([
      import("@conform-to/zod/v4"),
      loadSchema(),
    ]);
    return ((formData: FormData) =>
      parseWithZod(formData, {
        schema: schema as Parameters<typeof parseWithZod>[1]["schema"],
      })) as unknown as Validate;
  }, "interaction");
  return "onValidate" in validation ? ({ ...validation, shouldValidate } as never) : validation;
}
