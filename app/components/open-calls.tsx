import { CalendarDays } from "~/components/icons";
import { Link } from "~/components/link";
import { buttonVariants } from "~/components/ui/button";

import type { OpenCallItem } from "~/models/cfp/queries.server";

/** The calls for papers open now (on /papers and on the event page of the event they feed). */
export function OpenCalls({
  calls,
  headingId,
  heading = "Open Calls for Papers",
  showEvent = true,
}: {
  calls: OpenCallItem[];
  headingId: string;
  heading?: string;
  showEvent?: boolean;
}) {
  if (calls.length === 0) return null;
  return (
    <section aria-labelledby={headingId} className="grid gap-4">
      <h2 id={headingId} className="text-2xl font-semibold">
        {heading}
      </h2>
      <ul className="grid gap-4 md:grid-cols-2">
        {calls.map((call) => (
          <li key={call.id} className="flex">
            <article className="flex w-full flex-col gap-3 rounded-xl border border-border bg-card p-5">
              <h3 className="text-lg font-semibold break-words">{call.title}</h3>
              <p className="flex items-center gap-2 text-sm text-slate-700">
                <CalendarDays aria-hidden className="size-4 shrink-0" />
                Deadline: {call.deadline} (23:59 Nairobi time)
              </p>
              {call.description ? (
                <p className="line-clamp-4 text-sm whitespace-pre-line text-slate-700">
                  {call.description}
                </p>
              ) : null}
              {call.tracks.length > 0 ? (
                <p className="text-sm text-slate-700">
                  <span className="font-medium">Tracks:</span> {call.tracks.join(", ")}
                </p>
              ) : null}
              <p className="text-sm text-slate-700">
                {call.blindMode === "double"
                  ? "Double-blind review: send an anonymised manuscript."
                  : "Single-blind review."}
                {showEvent && call.eventTitle && call.eventSlug ? (
                  <>
                    {" "}
                    Accepted papers are presented at{" "}
                    <Link
                      to={`/events/${call.eventSlug}`}
                      className="font-medium text-primary underline underline-offset-4"
                    >
                      {call.eventTitle}
                    </Link>
                    .
                  </>
                ) : null}
              </p>
              <div className="mt-auto pt-1">
                <Link
                  to={call.submitHref}
                  className={buttonVariants({ size: "sm" })}
                  aria-label={`Submit a paper to ${call.title}`}
                >
                  Submit to this call
                </Link>
              </div>
            </article>
          </li>
        ))}
      </ul>
    </section>
  );
}
