import { Link } from "react-router";
import { ConfirmDeleteDialog } from "~/components/admin/confirm-delete-dialog";
import { EntityCard } from "~/components/admin/entity-card";
import { Mail, MapPin, Pencil, Phone } from "~/components/icons";
import { Badge } from "~/components/ui/badge";
import { buttonVariants } from "~/components/ui/button";
import { regionDotClass, statusLabel } from "~/lib/constants";
import { cn } from "~/lib/utils";

export type OfficeCardItem = {
  id: string;
  region: string;
  city: string;
  country: string;
  address: string | null;
  email: string | null;
  phone: string | null;
  status: string;
};

/** One office in the admin grid (spec §2.15): region, e-mail, phone, address and status. */
export function OfficeCard({ office }: { office: OfficeCardItem }) {
  const name = `${office.city}, ${office.country}`;
  return (
    <EntityCard
      title={name}
      badges={
        <>
          <span className="inline-flex items-center gap-1.5 text-sm text-foreground">
            <span
              aria-hidden
              className={cn("size-2.5 rounded-full", regionDotClass(office.region))}
            />
            {office.region}
          </span>
          <Badge variant={office.status === "active" ? "success" : "neutral"}>
            {statusLabel(office.status)}
          </Badge>
        </>
      }
      actions={
        <>
          <Link
            to={`/admin/offices/${office.id}/edit`}
            className={buttonVariants({ variant: "outline", size: "sm" })}
            aria-label={`Edit ${name}`}
          >
            <Pencil aria-hidden />
            Edit
          </Link>
          <ConfirmDeleteDialog itemName={name} fields={{ intent: "delete", id: office.id }} />
        </>
      }
    >
      <p className="flex items-start gap-2">
        <Mail aria-hidden className="mt-0.5 size-4 shrink-0" />
        {office.email ? (
          <a
            href={`mailto:${office.email}`}
            className="break-all text-primary underline underline-offset-4"
          >
            {office.email}
          </a>
        ) : (
          <span>No e-mail</span>
        )}
      </p>
      <p className="flex items-start gap-2">
        <Phone aria-hidden className="mt-0.5 size-4 shrink-0" />
        <span>{office.phone ?? "No phone"}</span>
      </p>
      <p className="flex items-start gap-2">
        <MapPin aria-hidden className="mt-0.5 size-4 shrink-0" />
        <span>{office.address ?? "No address"}</span>
      </p>
    </EntityCard>
  );
}
