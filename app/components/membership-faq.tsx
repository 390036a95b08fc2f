import { useState } from "react";
import {
  Accordion,
  AccordionContent,
  AccordionItem,
  AccordionTrigger,
} from "~/components/ui/accordion";

type FaqItem = { id: string; question: string; answer: string };

/**
 * The membership FAQ: one item open at a time, and the open one can be closed again.
 * Closed answers stay in the HTML (hidden) so they are indexed and found by in-page search.
 */
export function MembershipFaq({ items }: { items: readonly FaqItem[] }) {
  const [open, setOpen] = useState("");
  return (
    <Accordion
      type="single"
      collapsible
      value={open}
      onValueChange={setOpen}
      className="rounded-xl border border-border bg-card px-6"
    >
      {items.map((item) => (
        <AccordionItem key={item.id} value={item.id} className="last:border-b-0">
          <AccordionTrigger>{item.question}</AccordionTrigger>
          {/* forceMount keeps every answer in the HTML; `hidden` hides the closed ones. */}
          <AccordionContent forceMount hidden={open !== item.id}>
            {item.answer}
          </AccordionContent>
        </AccordionItem>
      ))}
    </Accordion>
  );
}
