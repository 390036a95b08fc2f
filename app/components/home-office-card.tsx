import { MapPin } from "~/components/icons";
import { regionDotClass } from "~/lib/constants";

/** Office card for the home page: region (with its colour dot), city and country only. */
export function HomeOfficeCard({
  office,
}: {
  office: { region: string; city: string; country: string };
}) {
  return (
    <article className="flex h-full flex-col gap-2 rounded-xl border border-border bg-card p-5 shadow-sm">
      <p className="inline-flex items-center gap-2 text-sm font-medium text-muted-foreground">
        <span aria-hidden className={`size-2.5 rounded-full ${regionDotClass(office.region)}`} />
        {office.region}
      </p>
      <h3 className="text-lg font-semibold">{office.city}</h3>
      <p className="inline-flex items-center gap-1.5 text-sm text-slate-700">
        <MapPin aria-hidden className="size-4" />
        {office.country}
      </p>
    </article>
  );
}
