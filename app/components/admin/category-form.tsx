import { getFormProps, getInputProps, getTextareaProps, useForm } from "@conform-to/react";
import { useState } from "react";
import { Form, Link } from "react-router";
import { Required, SaveButton, useFailureToast } from "~/components/admin/entity-form-parts";
import { FormErrorAlert } from "~/components/admin/form-error-alert";
import { buttonVariants } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { Textarea } from "~/components/ui/textarea";
import { DEFAULT_COLOR } from "~/lib/constants";
import { useDeferredSchema } from "~/lib/deferred-validation";
import type { EntityActionData } from "~/models/shared/entity-actions.server";
import { isHexColor } from "./category-colors";

export type TaxonomyFormDefaults = {
  name?: string;
  color?: string;
  icon?: string | null;
  description?: string | null;
  industrySector?: string | null;
};

/**
 * The category form and the event type form (spec §2.15, §5): name, colour (a colour picker
 * beside the #RRGGBB text), icon, description, and the industry sector for categories.
 * Both return to /admin/event-categories.
 */
export function TaxonomyForm({
  kind,
  mode,
  defaultValue,
  actionData,
}: {
  kind: "category" | "type";
  mode: "create" | "edit";
  defaultValue?: TaxonomyFormDefaults;
  actionData?: EntityActionData;
}) {
  const validation = useDeferredSchema(async () => {
    const schemas = await import("~/lib/forms/taxonomy-schema");
    return kind === "category" ? schemas.CategoryFormSchema : schemas.EventTypeFormSchema;
  }, "onSubmit");
  const noun = kind === "category" ? "Category" : "Event Type";
  const [form, fields] = useForm({
    id: `${kind}-form`,
    lastResult: actionData?.result,
    defaultValue: { color: DEFAULT_COLOR, ...defaultValue },
    ...validation,
  });
  useFailureToast(actionData);
  const initialColor = String(fields.color.initialValue ?? DEFAULT_COLOR);
  const [color, setColor] = useState(initialColor);
  const categoryFields = fields as typeof fields & {
    industrySector: typeof fields.name;
  };

  return (
    <Card className="p-6">
      <Form method="post" {...getFormProps(form)} className="grid gap-5">
        <FormErrorAlert
          title={actionData?.error?.title ?? ""}
          message={actionData?.error?.description}
          token={actionData}
        />
        <Field
          label={
            <>
              Name
              <Required />
            </>
          }
          htmlFor={fields.name.id}
          errors={fields.name.errors}
          errorId={fields.name.errorId}
        >
          <Input {...getInputProps(fields.name, { type: "text" })} maxLength={100} />
        </Field>

        <Field
          label={
            <>
              Color
              <Required />
            </>
          }
          htmlFor={fields.color.id}
          errors={fields.color.errors}
          errorId={fields.color.errorId}
          hint="A hex colour such as #0B5FFF. Pick one or type it."
        >
          <div className="flex items-center gap-3">
            <input
              type="color"
              aria-label={`${noun} color picker`}
              value={isHexColor(color) ? color.toLowerCase() : DEFAULT_COLOR.toLowerCase()}
              onChange={(event) => setColor(event.target.value.toUpperCase())}
              className="h-10 w-14 shrink-0 cursor-pointer rounded-md border border-input bg-background p-1 focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-ring"
            />
            <Input
              {...getInputProps(fields.color, { type: "text", value: false })}
              value={color}
              onChange={(event) => setColor(event.target.value)}
              className="font-mono"
              maxLength={7}
            />
          </div>
        </Field>

        <Field
          label="Icon"
          htmlFor={fields.icon.id}
          errors={fields.icon.errors}
          errorId={fields.icon.errorId}
          hint="An icon name, for example presentation, award or users."
        >
          <Input {...getInputProps(fields.icon, { type: "text" })} />
        </Field>

        {kind === "category" ? (
          <Field
            label="Industry Sector"
            htmlFor={categoryFields.industrySector.id}
            errors={categoryFields.industrySector.errors}
            errorId={categoryFields.industrySector.errorId}
          >
            <Input {...getInputProps(categoryFields.industrySector, { type: "text" })} />
          </Field>
        ) : null}

        <Field
          label="Description"
          htmlFor={fields.description.id}
          errors={fields.description.errors}
          errorId={fields.description.errorId}
        >
          <Textarea {...getTextareaProps(fields.description)} rows={4} />
        </Field>

        <div className="flex flex-wrap gap-3">
          <SaveButton mode={mode} label={mode === "create" ? `Create ${noun}` : `Update ${noun}`} />
          <Link to="/admin/event-categories" className={buttonVariants({ variant: "outline" })}>
            Cancel
          </Link>
        </div>
      </Form>
    </Card>
  );
}
