import {
  type DefaultValue,
  type FieldMetadata,
  getFormProps,
  getInputProps,
  getSelectProps,
  getTextareaProps,
  type SubmissionResult,
  useForm,
} from "@conform-to/react";
import { useEffect, useId, useState } from "react";
import { Form, Link, useNavigation } from "react-router";
import type { z } from "zod";
import { FormErrorAlert } from "~/components/admin/form-error-alert";
import { ImageUploader } from "~/components/admin/image-uploader";
import { TagsInput } from "~/components/admin/tags-input";
import { ToggleSwitch } from "~/components/admin/toggle-switch";
import { ArrowDown, ArrowUp, Plus, Trash2 } from "~/components/icons";
import { Button, buttonVariants } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { Field, FieldErrors } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { NativeSelect } from "~/components/ui/native-select";
import { Textarea } from "~/components/ui/textarea";
import { EVENT_STATUSES, statusLabel } from "~/lib/constants";
import { useDeferredSchema } from "~/lib/deferred-validation";
import { toast } from "~/lib/notify";
import { withoutKey } from "~/lib/utils";
import { EVENT_FORM_ID } from "./editor-guard";
import type { EventFormSchema, EventFormValues } from "./event-schema";

export type EventFormInput = z.input<typeof EventFormSchema>;

export type EventFormOptions = {
  types: string[];
  categories: string[];
  speakers: Array<{ id: string; name: string; organization: string | null }>;
  sponsors: Array<{ id: string; name: string; tier: string }>;
  timeZones: string[];
};

/** What the create and edit actions answer for the event form. */
export type EventFormActionData = {
  result: SubmissionResult<string[]>;
  failure: { title: string; message: string } | null;
};

function asList(value: unknown): string[] {
  if (Array.isArray(value)) return value.filter((v): v is string => typeof v === "string" && !!v);
  return typeof value === "string" && value ? [value] : [];
}

function Section({
  title,
  description,
  children,
}: {
  title: string;
  description?: string;
  children: React.ReactNode;
}) {
  return (
    <Card className="gap-5 p-5 sm:p-6">
      <div className="grid gap-1">
        <h2 className="text-lg font-semibold">{title}</h2>
        {description ? <p className="text-sm text-muted-foreground">{description}</p> : null}
      </div>
      {children}
    </Card>
  );
}

/** A filterable list of checkboxes submitted as repeated `name` fields. */
function CheckboxList({
  legend,
  name,
  items,
  selected,
  filterLabel,
  emptyText,
}: {
  legend: string;
  name: string;
  items: Array<{ id: string; label: string; hint?: string | null }>;
  selected: string[];
  filterLabel: string;
  emptyText: React.ReactNode;
}) {
  const [filter, setFilter] = useState("");
  const [checked, setChecked] = useState(() => new Set(selected));
  const filterId = useId();
  const term = filter.trim().toLowerCase();
  return (
    <fieldset className="grid gap-3">
      <legend className="mb-1 text-sm font-medium">
        {legend}{" "}
        <span className="font-normal text-muted-foreground">({checked.size} selected)</span>
      </legend>
      {items.length === 0 ? (
        <p className="text-sm text-muted-foreground">{emptyText}</p>
      ) : (
        <>
          {items.length > 6 ? (
            <div className="grid gap-1">
              <Label htmlFor={filterId} className="sr-only">
                {filterLabel}
              </Label>
              <Input
                id={filterId}
                type="search"
                placeholder={filterLabel}
                value={filter}
                onChange={(event) => setFilter(event.target.value)}
              />
            </div>
          ) : null}
          <ul className="grid max-h-64 gap-1 overflow-y-auto rounded-md border border-border p-2">
            {items.map((item) => {
              const visible =
                !term ||
                item.label.toLowerCase().includes(term) ||
                (item.hint ?? "").toLowerCase().includes(term);
              return (
                <li key={item.id} hidden={!visible}>
                  <label className="flex cursor-pointer items-start gap-3 rounded px-2 py-1.5 hover:bg-muted">
                    <input
                      type="checkbox"
                      name={name}
                      value={item.id}
                      defaultChecked={selected.includes(item.id)}
                      onChange={(event) =>
                        setChecked((current) => {
                          const next = new Set(current);
                          if (event.target.checked) next.add(item.id);
                          else next.delete(item.id);
                          return next;
                        })
                      }
                      className="mt-0.5 size-4 accent-primary"
                    />
                    <span className="grid text-sm">
                      <span>{item.label}</span>
                      {item.hint ? (
                        <span className="text-xs text-muted-foreground">{item.hint}</span>
                      ) : null}
                    </span>
                  </label>
                </li>
              );
            })}
          </ul>
        </>
      )}
    </fieldset>
  );
}

type AgendaFields = FieldMetadata<NonNullable<EventFormInput["agenda"]>, EventFormInput>;

function AgendaEditor({
  form,
  field,
}: {
  form: ReturnType<typeof useForm<EventFormInput, EventFormValues>>[0];
  field: AgendaFields;
}) {
  const items = field.getFieldList();
  return (
    <div className="grid gap-4">
      {items.length === 0 ? (
        <p className="text-sm text-muted-foreground">No agenda items yet.</p>
      ) : (
        <ol className="grid gap-4">
          {items.map((item, index) => {
            const f = item.getFieldset();
            const n = index + 1;
            return (
              <li key={item.key} className="grid gap-3 rounded-lg border border-border p-4">
                <div className="flex flex-wrap items-center justify-between gap-2">
                  <h3 className="text-sm font-semibold">Agenda item {n}</h3>
                  <div className="flex gap-1">
                    <Button
                      variant="outline"
                      size="icon"
                      className="size-9"
                      disabled={index === 0}
                      aria-label={`Move agenda item ${n} up`}
                      {...form.reorder.getButtonProps({
                        name: field.name,
                        from: index,
                        to: index - 1,
                      })}
                    >
                      <ArrowUp aria-hidden />
                    </Button>
                    <Button
                      variant="outline"
                      size="icon"
                      className="size-9"
                      disabled={index === items.length - 1}
                      aria-label={`Move agenda item ${n} down`}
                      {...form.reorder.getButtonProps({
                        name: field.name,
                        from: index,
                        to: index + 1,
                      })}
                    >
                      <ArrowDown aria-hidden />
                    </Button>
                    <Button
                      variant="outline"
                      size="sm"
                      className="text-destructive"
                      aria-label={`Remove agenda item ${n}`}
                      {...form.remove.getButtonProps({ name: field.name, index })}
                    >
                      <Trash2 aria-hidden />
                      Remove
                    </Button>
                  </div>
                </div>
                <div className="grid gap-3 sm:grid-cols-2">
                  <Field
                    label={`Item ${n} start`}
                    htmlFor={f.startTime.id}
                    errors={f.startTime.errors}
                    errorId={f.startTime.errorId}
                  >
                    <Input
                      key={f.startTime.key}
                      {...withoutKey(getInputProps(f.startTime, { type: "datetime-local" }))}
                    />
                  </Field>
                  <Field
                    label={`Item ${n} end`}
                    htmlFor={f.endTime.id}
                    errors={f.endTime.errors}
                    errorId={f.endTime.errorId}
                  >
                    <Input
                      key={f.endTime.key}
                      {...withoutKey(getInputProps(f.endTime, { type: "datetime-local" }))}
                    />
                  </Field>
                </div>
                <Field
                  label={`Item ${n} title`}
                  htmlFor={f.title.id}
                  errors={f.title.errors}
                  errorId={f.title.errorId}
                >
                  <Input
                    key={f.title.key}
                    {...withoutKey(getInputProps(f.title, { type: "text" }))}
                  />
                </Field>
                <Field
                  label={`Item ${n} description`}
                  htmlFor={f.description.id}
                  errors={f.description.errors}
                  errorId={f.description.errorId}
                >
                  <Textarea
                    key={f.description.key}
                    rows={2}
                    className="min-h-16"
                    {...withoutKey(getTextareaProps(f.description))}
                  />
                </Field>
              </li>
            );
          })}
        </ol>
      )}
      <div>
        <Button
          variant="outline"
          {...form.insert.getButtonProps({
            name: field.name,
            defaultValue: { startTime: "", endTime: "", title: "", description: "" },
          })}
        >
          <Plus aria-hidden />
          Add agenda item
        </Button>
      </div>
    </div>
  );
}

/**
 * The event form (spec §2.15): Event Classification, Event Information, Location & Timing,
 * Publication & Visibility, plus speakers, sponsors and agenda (design.md §4). Create mode when
 * there is no event yet, edit mode otherwise.
 */
export function EventForm({
  mode,
  defaultValue,
  options,
  actionData,
}: {
  mode: "create" | "edit";
  defaultValue: DefaultValue<EventFormInput>;
  options: EventFormOptions;
  actionData: EventFormActionData | undefined;
}) {
  const navigation = useNavigation();
  const validation = useDeferredSchema<EventFormInput, EventFormValues>(
    async () => (await import("./event-schema")).EventFormSchema,
  );
  const [form, fields] = useForm<EventFormInput, EventFormValues>({
    id: EVENT_FORM_ID,
    defaultValue,
    lastResult: navigation.state === "idle" ? actionData?.result : undefined,
    ...validation,
  });
  const saving =
    navigation.state !== "idle" &&
    navigation.formMethod === "POST" &&
    navigation.formData?.get("_form") === "event" &&
    !navigation.formData?.has("__intent__");

  const failure = actionData?.failure ?? null;
  useEffect(() => {
    if (failure) toast.error(failure.title, { description: failure.message });
  }, [failure]);

  const types = [...options.types];
  const currentType = asList(fields.eventType.initialValue)[0];
  if (currentType && !types.includes(currentType)) types.unshift(currentType);
  const categories = [...options.categories];
  const currentCategory = asList(fields.category.initialValue)[0];
  if (currentCategory && currentCategory !== "none" && !categories.includes(currentCategory)) {
    categories.unshift(currentCategory);
  }

  const verb = mode === "create" ? "create" : "update";
  const timeZoneListId = useId();

  return (
    <Form method="post" {...getFormProps(form)} className="grid gap-6">
      <input type="hidden" name="_form" value="event" />
      <FormErrorAlert
        title={`Failed to ${verb} event`}
        message={failure?.message}
        token={failure}
      />
      {form.errors?.length ? <FieldErrors id={form.errorId} errors={form.errors} /> : null}

      <Section title="Event Classification">
        <div className="grid gap-4 sm:grid-cols-2">
          <Field
            label="Event Type"
            htmlFor={fields.eventType.id}
            errors={fields.eventType.errors}
            errorId={fields.eventType.errorId}
          >
            <NativeSelect
              key={fields.eventType.key}
              {...withoutKey(getSelectProps(fields.eventType))}
            >
              {types.map((type) => (
                <option key={type} value={type}>
                  {statusLabel(type)}
                </option>
              ))}
            </NativeSelect>
          </Field>
          <Field
            label="Category"
            htmlFor={fields.category.id}
            errors={fields.category.errors}
            errorId={fields.category.errorId}
          >
            <NativeSelect
              key={fields.category.key}
              {...withoutKey(getSelectProps(fields.category))}
            >
              <option value="none">No category</option>
              {categories.map((category) => (
                <option key={category} value={category}>
                  {category}
                </option>
              ))}
            </NativeSelect>
          </Field>
        </div>
        <Field
          label="Industry Sector"
          htmlFor={fields.industrySector.id}
          errors={fields.industrySector.errors}
          errorId={fields.industrySector.errorId}
        >
          <Input
            key={fields.industrySector.key}
            placeholder="e.g. Financial Services"
            {...withoutKey(getInputProps(fields.industrySector, { type: "text" }))}
          />
        </Field>
        <Field
          label="Tags"
          htmlFor={fields.tags.id}
          errors={fields.tags.errors}
          errorId={fields.tags.errorId}
          hint="Press Enter to add a tag; Backspace in the empty box removes the last one."
        >
          <TagsInput
            key={fields.tags.key}
            id={fields.tags.id}
            name={fields.tags.name}
            defaultValue={asList(fields.tags.initialValue)}
            invalid={!fields.tags.valid}
          />
        </Field>
      </Section>

      <Section title="Event Information">
        <Field
          label="Title"
          htmlFor={fields.title.id}
          errors={fields.title.errors}
          errorId={fields.title.errorId}
        >
          <Input
            key={fields.title.key}
            {...withoutKey(getInputProps(fields.title, { type: "text" }))}
          />
        </Field>
        <Field
          label="Description"
          htmlFor={fields.description.id}
          errors={fields.description.errors}
          errorId={fields.description.errorId}
        >
          <Textarea
            key={fields.description.key}
            rows={6}
            {...withoutKey(getTextareaProps(fields.description))}
          />
        </Field>
      </Section>

      <Section
        title="Location & Timing"
        description="Dates and times are entered in the event's time zone (Nairobi unless you choose another)."
      >
        <Field
          label="Location"
          htmlFor={fields.location.id}
          errors={fields.location.errors}
          errorId={fields.location.errorId}
          hint="City, Country — e.g. Nairobi, Kenya"
        >
          <Input
            key={fields.location.key}
            {...withoutKey(getInputProps(fields.location, { type: "text" }))}
          />
        </Field>
        <Field
          label="Time Zone"
          htmlFor={fields.timeZone.id}
          errors={fields.timeZone.errors}
          errorId={fields.timeZone.errorId}
          hint="Type a city to search, e.g. Toronto → America/Toronto"
        >
          <Input
            key={fields.timeZone.key}
            list={timeZoneListId}
            autoComplete="off"
            spellCheck={false}
            {...withoutKey(getInputProps(fields.timeZone, { type: "text" }))}
          />
          <datalist id={timeZoneListId}>
            {options.timeZones.map((zone) => (
              <option key={zone} value={zone} />
            ))}
          </datalist>
        </Field>
        <div className="grid gap-4 sm:grid-cols-2">
          <Field
            label="Start Date"
            htmlFor={fields.startDate.id}
            errors={fields.startDate.errors}
            errorId={fields.startDate.errorId}
          >
            <Input
              key={fields.startDate.key}
              {...withoutKey(getInputProps(fields.startDate, { type: "datetime-local" }))}
            />
          </Field>
          <Field
            label="End Date"
            htmlFor={fields.endDate.id}
            errors={fields.endDate.errors}
            errorId={fields.endDate.errorId}
          >
            <Input
              key={fields.endDate.key}
              {...withoutKey(getInputProps(fields.endDate, { type: "datetime-local" }))}
            />
          </Field>
        </div>
        <Field
          label="Theme"
          htmlFor={fields.theme.id}
          errors={fields.theme.errors}
          errorId={fields.theme.errorId}
        >
          <Input
            key={fields.theme.key}
            {...withoutKey(getInputProps(fields.theme, { type: "text" }))}
          />
        </Field>
        <div className="grid gap-1">
          <ImageUploader
            key={fields.imageUrl.key}
            name={fields.imageUrl.name}
            label="Event Image"
            defaultValue={asList(fields.imageUrl.initialValue)[0] ?? ""}
          />
          <FieldErrors id={fields.imageUrl.errorId} errors={fields.imageUrl.errors} />
        </div>
      </Section>

      <Section title="Publication & Visibility">
        <div className="grid gap-4 sm:grid-cols-2 sm:items-end">
          <Field
            label="Status"
            htmlFor={fields.status.id}
            errors={fields.status.errors}
            errorId={fields.status.errorId}
          >
            <NativeSelect key={fields.status.key} {...withoutKey(getSelectProps(fields.status))}>
              {EVENT_STATUSES.map((status) => (
                <option key={status} value={status}>
                  {statusLabel(status)}
                </option>
              ))}
            </NativeSelect>
          </Field>
          <div className="flex items-center gap-3 pb-2">
            <ToggleSwitch
              key={fields.featured.key}
              {...withoutKey(getInputProps(fields.featured, { type: "checkbox" }))}
            />
            <Label htmlFor={fields.featured.id}>Featured event</Label>
          </div>
        </div>
        <p className="text-sm text-muted-foreground">
          Only published events appear on the public site; featured ones are shown on the home page.
        </p>
      </Section>

      <Section title="Registration">
        <Field
          label="Capacity"
          htmlFor={fields.capacity.id}
          errors={fields.capacity.errors}
          errorId={fields.capacity.errorId}
          hint="Seats for the whole event across all tickets. Leave empty for no limit."
          className="sm:max-w-xs"
        >
          <Input
            key={fields.capacity.key}
            inputMode="numeric"
            {...withoutKey(getInputProps(fields.capacity, { type: "number" }))}
            min={1}
            step={1}
          />
        </Field>
        <Field
          label="Online Join Link"
          htmlFor={fields.joinUrl.id}
          errors={fields.joinUrl.errors}
          errorId={fields.joinUrl.errorId}
          hint="For webinars and hybrid events. Shown only to confirmed registrants, from 1 hour before the start, on their ticket and in the reminder e-mail; never on public pages, feeds or calendar files."
        >
          <Input
            key={fields.joinUrl.key}
            inputMode="url"
            placeholder="https://"
            {...withoutKey(getInputProps(fields.joinUrl, { type: "url" }))}
          />
        </Field>
      </Section>

      <Section
        title="Speakers & Sponsors"
        description="The people and partners shown on the event page."
      >
        <div className="grid gap-6 lg:grid-cols-2">
          <CheckboxList
            legend="Speakers"
            name={fields.speakerIds.name}
            items={options.speakers.map((s) => ({ id: s.id, label: s.name, hint: s.organization }))}
            selected={asList(fields.speakerIds.initialValue)}
            filterLabel="Filter speakers"
            emptyText={
              <>
                No speakers yet.{" "}
                <Link to="/admin/speakers/new" className="text-primary underline">
                  Add a speaker
                </Link>
              </>
            }
          />
          <CheckboxList
            legend="Sponsors"
            name={fields.sponsorIds.name}
            items={options.sponsors.map((s) => ({
              id: s.id,
              label: s.name,
              hint: statusLabel(s.tier),
            }))}
            selected={asList(fields.sponsorIds.initialValue)}
            filterLabel="Filter sponsors"
            emptyText={
              <>
                No sponsors yet.{" "}
                <Link to="/admin/sponsors/new" className="text-primary underline">
                  Add a sponsor
                </Link>
              </>
            }
          />
        </div>
      </Section>

      <Section title="Agenda" description="Sessions in the order they are shown on the event page.">
        <AgendaEditor form={form} field={fields.agenda as AgendaFields} />
      </Section>

      <div className="flex flex-wrap justify-end gap-3">
        <Link to="/admin/events" className={buttonVariants({ variant: "outline" })}>
          Cancel
        </Link>
        <Button type="submit" disabled={saving}>
          {saving
            ? mode === "create"
              ? "Creating..."
              : "Updating..."
            : mode === "create"
              ? "Create Event"
              : "Update Event"}
        </Button>
      </div>
    </Form>
  );
}
