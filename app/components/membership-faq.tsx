import { ChevronDown } from "~/components/icons";

type FaqItem = { id: string; question: string; answer: string };

/**
 * The membership FAQ: one item open at a time, and the open one can be closed again. Native
 * `<details>` sharing a `name` (an exclusive group), so a question opens on the first press,
 * before the page's scripts have loaded (issue 17 §6). Closed answers stay in the HTML, so they
 * are indexed and found by in-page search.
 */
export function MembershipFaq({ items }: { items: readonly FaqItem[] }) {
  return (
    <div className="rounded-xl border border-border bg-card px-6">
      {items.map((item) => (
        <details
          key={item.id}
          name="membership-faq"
          className="group border-b border-border last:border-b-0"
        >
          <summary className="flex cursor-pointer list-none items-center justify-between gap-4 py-4 text-left font-medium hover:underline [&::-webkit-details-marker]:hidden">
            {item.question}
            <ChevronDown
              aria-hidden
              className="size-4 shrink-0 transition-transform group-open:rotate-180"
            />
          </summary>
          <div className="pb-4 text-sm text-muted-foreground">{item.answer}</div>
        </details>
      ))}
    </div>
  );
}
