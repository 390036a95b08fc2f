import { useState } from "react";
import { X } from "~/components/icons";
import { inputClass } from "~/components/ui/input";
import { cn } from "~/lib/utils";

/** Adds a tag: trimmed, empty ignored, duplicates ignored (spec §5). */
export function addTag(tags: readonly string[], raw: string): string[] {
  const tag = raw.trim();
  if (!tag || tags.includes(tag)) return [...tags];
  return [...tags, tag];
}

/**
 * A tag list editor (spec §5): Enter adds the trimmed tag, duplicates are ignored, Backspace in
 * the empty input removes the last tag. Tags are submitted as repeated hidden inputs `name`.
 * The text box has the same name, so a tag typed but not yet added is still submitted (and a
 * form without JavaScript can send comma-separated tags): the server trims, splits on commas
 * and drops duplicates.
 */
export function TagsInput({
  id,
  name,
  defaultValue,
  placeholder = "Type a tag and press Enter",
  describedBy,
  invalid,
  listLabel = "Selected tags",
  removeLabel = "Remove tag",
}: {
  id: string;
  name: string;
  defaultValue?: readonly string[] | null;
  placeholder?: string;
  describedBy?: string;
  invalid?: boolean;
  listLabel?: string;
  /** The remove buttons' accessible name, followed by the item ("Remove tag AI"). */
  removeLabel?: string;
}) {
  const [tags, setTags] = useState<string[]>(() => [...(defaultValue ?? [])]);
  const [draft, setDraft] = useState("");

  function onKeyDown(event: React.KeyboardEvent<HTMLInputElement>) {
    if (event.key === "Enter") {
      event.preventDefault();
      setTags((current) => addTag(current, draft));
      setDraft("");
    } else if (event.key === "Backspace" && draft === "" && tags.length > 0) {
      event.preventDefault();
      setTags((current) => current.slice(0, -1));
    }
  }

  return (
    <div className="grid gap-2">
      {tags.length > 0 ? (
        <ul className="flex flex-wrap gap-2" aria-label={listLabel}>
          {tags.map((tag) => (
            <li
              key={tag}
              className="inline-flex items-center gap-1 rounded-full bg-accent py-0.5 pr-0.5 pl-3 text-sm text-accent-foreground"
            >
              {tag}
              <input type="hidden" name={name} value={tag} />
              <button
                type="button"
                onClick={() => setTags((current) => current.filter((t) => t !== tag))}
                className="inline-flex size-6 items-center justify-center rounded-full hover:bg-blue-100"
                aria-label={`${removeLabel} ${tag}`}
              >
                <X aria-hidden className="size-3.5" />
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      <input
        id={id}
        name={name}
        value={draft}
        onChange={(event) => setDraft(event.target.value)}
        onKeyDown={onKeyDown}
        placeholder={placeholder}
        aria-describedby={describedBy}
        aria-invalid={invalid || undefined}
        autoComplete="off"
        className={cn(inputClass)}
      />
    </div>
  );
}
