import { cn } from "~/lib/utils";
import { Label } from "./label";

/** Label + control + hint + error messages; pair with aria-invalid/aria-describedby on the control. */
export function Field({
  label,
  htmlFor,
  errors,
  errorId,
  hint,
  className,
  children,
}: {
  label: React.ReactNode;
  htmlFor: string;
  errors?: string[] | null;
  errorId?: string;
  hint?: React.ReactNode;
  className?: string;
  children: React.ReactNode;
}) {
  return (
    <div data-slot="field" className={cn("grid gap-2", className)}>
      <Label htmlFor={htmlFor}>{label}</Label>
      {children}
      {hint ? <p className="text-xs text-muted-foreground">{hint}</p> : null}
      <FieldErrors id={errorId ?? `${htmlFor}-error`} errors={errors} />
    </div>
  );
}

export function FieldErrors({ id, errors }: { id?: string; errors?: string[] | null }) {
  if (!errors?.length) return null;
  return (
    <ul id={id} className="grid gap-1 text-sm text-destructive">
      {errors.map((e) => (
        <li key={e}>{e}</li>
      ))}
    </ul>
  );
}

/** The label, error and description wiring of `Field` for a Conform field: `<Field {...fieldWiring(fields.x)}>`. */
export function fieldWiring(field: { id: string; errors?: string[]; errorId: string }) {
  return { htmlFor: field.id, errors: field.errors, errorId: field.errorId };
}
