import type { SubmissionResult } from "@conform-to/react";
import { useEffect } from "react";

/**
 * Moves focus to the first field with an error when a form's code arrives with an answer already
 * on the page. A lazily loaded form (decision 0065) posted before its code arrived comes back as
 * a whole page with the server's errors, and Conform focuses the first invalid field only for
 * answers that arrive after it: without this, a keyboard or screen-reader user would start again
 * at the top of the page. Nothing moves when the person is already in a field.
 */
export function useFirstErrorFocus(
  formId: string,
  arrivedWith: SubmissionResult<string[]> | null | undefined,
) {
  // Only the answer the form arrived with: Conform reports the later ones itself.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs once, when the form mounts
  useEffect(() => {
    const errors = arrivedWith?.status === "error" ? arrivedWith.error : undefined;
    if (!errors) return;
    if (document.activeElement && document.activeElement !== document.body) return;
    for (const element of Array.from(document.forms.namedItem(formId)?.elements ?? [])) {
      const name = element.getAttribute("name");
      if (name && errors[name]?.length && element instanceof HTMLElement) {
        element.focus();
        return;
      }
    }
  }, []);
}
