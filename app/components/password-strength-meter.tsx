import { Check, X } from "~/components/icons";
import { passwordStrength } from "~/lib/password-strength";
import { cn } from "~/lib/utils";

const BAR_COLOUR = { Weak: "bg-red-600", Medium: "bg-yellow-500", Strong: "bg-green-600" } as const;
const TEXT_COLOUR = {
  Weak: "text-red-700",
  Medium: "text-yellow-800",
  Strong: "text-green-700",
} as const;

/** The advisory five-criteria meter of spec §5: it informs, it never blocks. */
export function PasswordStrengthMeter({ password, id }: { password: string; id?: string }) {
  // The wrapper always exists so aria-describedby on the input never points at nothing.
  if (!password) return <div id={id} hidden />;
  const { score, label, checks } = passwordStrength(password);
  return (
    <div id={id} className="grid gap-2" data-testid="password-strength">
      <div className="flex items-center justify-between text-xs">
        <span className="text-muted-foreground">Password strength</span>
        <span className={cn("font-medium", TEXT_COLOUR[label])} aria-live="polite">
          {label}
          <span className="sr-only"> ({score}% of the criteria met)</span>
        </span>
      </div>
      <div aria-hidden className="h-2 w-full overflow-hidden rounded-full bg-muted">
        <div
          className={cn("h-full transition-all", BAR_COLOUR[label])}
          style={{ width: `${score}%` }}
        />
      </div>
      <ul className="grid gap-1 text-xs">
        {checks.map((check) => (
          <li
            key={check.id}
            className={cn(
              "flex items-center gap-1.5",
              check.met ? "text-green-700" : "text-muted-foreground",
            )}
          >
            {check.met ? (
              <Check aria-hidden className="size-3.5" />
            ) : (
              <X aria-hidden className="size-3.5" />
            )}
            <span>
              {check.label}
              <span className="sr-only">{check.met ? " (met)" : " (not met)"}</span>
            </span>
          </li>
        ))}
      </ul>
    </div>
  );
}
