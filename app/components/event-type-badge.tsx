import { eventTypeBadgeClass } from "~/lib/constants";

/** Type badge in the spec's colours (conference, exhibition, gala, vendor, other). */
export function EventTypeBadge({ type }: { type: string }) {
  return (
    <span
      className={`inline-flex w-fit items-center rounded-full border border-transparent px-2.5 py-0.5 text-xs font-semibold capitalize ${eventTypeBadgeClass(type)}`}
    >
      {type}
    </span>
  );
}
