import { Link } from "react-router";
import { ConfirmDeleteDialog } from "~/components/admin/confirm-delete-dialog";
import { EntityCard } from "~/components/admin/entity-card";
import { Pencil, UserRound } from "~/components/icons";
import { buttonVariants } from "~/components/ui/button";

export type SpeakerCardItem = {
  id: string;
  name: string;
  title: string | null;
  organization: string | null;
  bio: string | null;
  imageUrl: string | null;
};

/** One speaker in the admin grid: photo, name, title and organisation, a short bio. */
export function SpeakerCard({ speaker }: { speaker: SpeakerCardItem }) {
  const role = [speaker.title, speaker.organization].filter(Boolean).join(", ");
  return (
    <EntityCard
      title={
        <span className="flex items-center gap-3">
          {speaker.imageUrl ? (
            <img
              src={speaker.imageUrl}
              alt=""
              width={48}
              height={48}
              loading="lazy"
              className="size-12 shrink-0 rounded-full object-cover"
            />
          ) : (
            <span className="flex size-12 shrink-0 items-center justify-center rounded-full bg-muted">
              <UserRound aria-hidden className="size-6 text-slate-500" />
            </span>
          )}
          {speaker.name}
        </span>
      }
      actions={
        <>
          <Link
            to={`/admin/speakers/${speaker.id}/edit`}
            className={buttonVariants({ variant: "outline", size: "sm" })}
            aria-label={`Edit ${speaker.name}`}
          >
            <Pencil aria-hidden />
            Edit
          </Link>
          <ConfirmDeleteDialog
            itemName={speaker.name}
            fields={{ intent: "delete", id: speaker.id }}
            description={
              <>
                This will permanently delete <strong>{speaker.name}</strong> and remove them from
                the events they speak at. This action cannot be undone.
              </>
            }
          />
        </>
      }
    >
      {role ? <p className="text-foreground">{role}</p> : null}
      {speaker.bio ? <p className="line-clamp-3">{speaker.bio}</p> : null}
    </EntityCard>
  );
}
