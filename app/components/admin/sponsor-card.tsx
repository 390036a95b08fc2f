import { useEffect, useRef, useState } from "react";
import { Link } from "react-router";
import { ConfirmDeleteDialog } from "~/components/admin/confirm-delete-dialog";
import { EntityCard } from "~/components/admin/entity-card";
import { ExternalLink, Pencil } from "~/components/icons";
import { buttonVariants } from "~/components/ui/button";
import { statusLabel } from "~/lib/constants";
import { cn } from "~/lib/utils";

export type SponsorCardItem = {
  id: string;
  name: string;
  tier: string;
  websiteUrl: string | null;
  logoUrl: string | null;
};

/** Tier badge colours (text contrast at least 4.5:1). */
export const SPONSOR_TIER_BADGE_CLASSES: Record<string, string> = {
  platinum: "bg-slate-800 text-white",
  gold: "bg-amber-100 text-amber-900",
  silver: "bg-slate-100 text-slate-800",
  bronze: "bg-orange-100 text-orange-900",
};

/**
 * A sponsor's logo that disappears when it fails to load (spec §2.15). The check also runs
 * once hydrated, for an image that already failed while the page was server-rendered.
 */
export function SponsorLogo({ src, name }: { src: string; name: string }) {
  const ref = useRef<HTMLImageElement>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    const img = ref.current;
    if (img?.complete && img.naturalWidth === 0) setFailed(true);
  }, []);
  if (failed) return null;
  return (
    <div className="flex h-28 items-center justify-center border-b border-border bg-white p-4">
      <img
        ref={ref}
        src={src}
        alt={`${name} logo`}
        loading="lazy"
        className="max-h-full max-w-full object-contain"
        onError={(event) => {
          event.currentTarget.hidden = true;
          setFailed(true);
        }}
      />
    </div>
  );
}

/** One sponsor in the admin grid: logo, tier, name and website link. */
export function SponsorCard({ sponsor }: { sponsor: SponsorCardItem }) {
  return (
    <EntityCard
      media={sponsor.logoUrl ? <SponsorLogo src={sponsor.logoUrl} name={sponsor.name} /> : null}
      title={sponsor.name}
      badges={
        <span
          className={cn(
            "inline-flex items-center rounded-full border border-transparent px-2.5 py-0.5 text-xs font-medium",
            SPONSOR_TIER_BADGE_CLASSES[sponsor.tier] ?? SPONSOR_TIER_BADGE_CLASSES.silver,
          )}
        >
          {statusLabel(sponsor.tier)}
        </span>
      }
      actions={
        <>
          <Link
            to={`/admin/sponsors/${sponsor.id}/edit`}
            className={buttonVariants({ variant: "outline", size: "sm" })}
            aria-label={`Edit ${sponsor.name}`}
          >
            <Pencil aria-hidden />
            Edit
          </Link>
          <ConfirmDeleteDialog
            itemName={sponsor.name}
            fields={{ intent: "delete", id: sponsor.id }}
            description={
              <>
                This will permanently delete <strong>{sponsor.name}</strong> and remove them from
                the events they sponsor. This action cannot be undone.
              </>
            }
          />
        </>
      }
    >
      {sponsor.websiteUrl ? (
        <p>
          <a
            href={sponsor.websiteUrl}
            target="_blank"
            rel="noopener noreferrer"
            className="inline-flex items-center gap-1 break-all text-primary underline underline-offset-4"
          >
            {sponsor.websiteUrl.replace(/^https?:\/\//, "").replace(/\/$/, "")}
            <ExternalLink aria-hidden className="size-3.5 shrink-0" />
            <span className="sr-only"> (opens in a new tab)</span>
          </a>
        </p>
      ) : (
        <p>No website</p>
      )}
    </EntityCard>
  );
}
