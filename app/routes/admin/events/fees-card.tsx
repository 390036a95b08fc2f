import {
  getFormProps,
  getInputProps,
  getSelectProps,
  type SubmissionResult,
  useForm,
} from "@conform-to/react";
import { useEffect, useRef } from "react";
import { useFetcher } from "react-router";
import type { z } from "zod";
import { Plus, Trash2 } from "~/components/icons";
import { Button } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { NativeSelect } from "~/components/ui/native-select";
import { CURRENCIES, EVENT_TIME_ZONE, FEE_TYPE_ADMIN_LABELS, FEE_TYPES } from "~/lib/constants";
import { useDeferredSchema } from "~/lib/deferred-validation";
import { currencyExponent, isCurrency, minorToDecimal } from "~/lib/money";
import { toast } from "~/lib/notify";
import { withoutKey } from "~/lib/utils";
import { FEES_FORM_ID } from "./editor-guard";
import type { FeesFormSchema, feesFormSchema } from "./event-schema";

type FeesInput = z.input<typeof FeesFormSchema>;
type FeesOutput = z.output<ReturnType<typeof feesFormSchema>>;

export type FeeRowData = {
  id: string;
  feeType: string;
  currency: string;
  /** The price in the currency's minor units (shown in the form as decimal text). */
  amountMinor: number;
  maxQuantity: number | null;
  maxPerOrder: number;
  maxPerAccount: number;
  /** People one ticket admits (a group ticket: more than 1). */
  admits: number;
  availableUntil: string | null;
  /** Wall-clock `datetime-local` text in the event's zone; null: on sale at once. */
  saleStartsAt: string | null;
  /** The ticket's own online join link; null: the event's. */
  joinUrl: string | null;
  description: string | null;
};

/** What the edit action answers for the fees card (`_form` = fees or delete-fee). */
export type FeesActionData = {
  fees: {
    result?: SubmissionResult<string[]>;
    /** Success text ('Event fees saved successfully' / 'Fee removed successfully'). */
    message?: string;
    removedId?: string;
    error?: { title: string; description: string };
  };
};

function toFormRow(fee: FeeRowData) {
  return {
    id: fee.id,
    feeType: fee.feeType as (typeof FEE_TYPES)[number],
    currency: fee.currency as (typeof CURRENCIES)[number],
    amount: minorToDecimal(fee.amountMinor, fee.currency),
    maxQuantity: fee.maxQuantity === null ? "" : String(fee.maxQuantity),
    maxPerOrder: String(fee.maxPerOrder),
    maxPerAccount: String(fee.maxPerAccount),
    admits: String(fee.admits),
    availableUntil: fee.availableUntil ?? "",
    saleStartsAt: fee.saleStartsAt ?? "",
    joinUrl: fee.joinUrl ?? "",
    description: fee.description ?? "",
  };
}

/** The amount field's step: one minor unit of the row's currency (1 for UGX, 0.01 for USD). */
function stepFor(currency: string | undefined) {
  const exponent = currency && isCurrency(currency) ? currencyExponent(currency) : 2;
  return exponent === 0 ? "1" : `0.${"1".padStart(exponent, "0")}`;
}

const NEW_ROW = {
  feeType: "conference_only",
  currency: "USD",
  amount: "0",
  maxPerOrder: "10",
  maxPerAccount: "1",
  admits: "1",
} as const;

/** Shows a fetcher's outcome once, when it settles (toast + optional follow-up). */
function useSettled(
  fetcher: { state: string; data: unknown },
  onSettled: (data: FeesActionData | undefined) => void,
) {
  const busy = useRef(false);
  const callback = useRef(onSettled);
  callback.current = onSettled;
  useEffect(() => {
    if (fetcher.state !== "idle") {
      busy.current = true;
      return;
    }
    if (!busy.current) return;
    busy.current = false;
    callback.current(fetcher.data as FeesActionData | undefined);
  }, [fetcher.state, fetcher.data]);
}

/**
 * The event's fees (spec §2.15): rows added and removed here, then 'Save All Fees' replaces the
 * whole set in one transaction. Removing a saved row deletes it at once. Edit mode only.
 */
export function FeesCard({
  mode,
  fees,
  timeZone = EVENT_TIME_ZONE,
  documentActionData,
  onSaved,
}: {
  mode: "create" | "edit";
  fees: FeeRowData[];
  /** The event's saved time zone: sale starts are typed and shown in it. */
  timeZone?: string;
  /** The action's answer when the card was posted without JavaScript. */
  documentActionData?: FeesActionData;
  /** Called once the fees were saved (the page may then save the event details too). */
  onSaved?: () => void;
}) {
  if (mode === "create") {
    return (
      <Card className="gap-3 p-5 sm:p-6">
        <h2 className="text-lg font-semibold">Event Fees</h2>
        <p className="text-sm text-muted-foreground">
          Save the event first to add fees and pricing options.
        </p>
        {documentActionData?.fees.error ? (
          <p role="alert" className="text-sm text-destructive">
            {documentActionData.fees.error.description}
          </p>
        ) : null}
      </Card>
    );
  }
  return (
    <FeesEditor
      fees={fees}
      timeZone={timeZone}
      documentActionData={documentActionData}
      onSaved={onSaved}
    />
  );
}

function FeesEditor({
  fees,
  timeZone,
  documentActionData,
  onSaved,
}: {
  fees: FeeRowData[];
  timeZone: string;
  documentActionData?: FeesActionData;
  onSaved?: () => void;
}) {
  const save = useFetcher<FeesActionData>();
  const remove = useFetcher<FeesActionData>();
  const reply = save.data?.fees ?? documentActionData?.fees;
  const validation = useDeferredSchema<FeesInput, FeesOutput>(async () =>
    (await import("./event-schema")).feesFormSchema(timeZone),
  );
  const [form, fields] = useForm<FeesInput, FeesOutput>({
    id: FEES_FORM_ID,
    defaultValue: { fees: fees.map(toFormRow) },
    lastResult: save.state === "idle" ? reply?.result : undefined,
    ...validation,
  });
  const rows = fields.fees.getFieldList();

  useSettled(save, (data) => {
    if (data?.fees.error)
      toast.error(data.fees.error.title, { description: data.fees.error.description });
    else if (data?.fees.message) {
      toast.success(data.fees.message);
      onSaved?.();
    }
  });
  useSettled(remove, (data) => {
    if (data?.fees.error) {
      toast.error(data.fees.error.title, { description: data.fees.error.description });
      return;
    }
    if (!data?.fees.removedId) return;
    toast.success(data.fees.message ?? "Fee removed successfully");
    const index = fields.fees
      .getFieldList()
      .findIndex((row) => row.getFieldset().id.value === data.fees.removedId);
    if (index >= 0) form.remove({ name: fields.fees.name, index });
  });

  const saving = save.state !== "idle";
  const status = documentActionData?.fees.message ?? documentActionData?.fees.error?.description;

  return (
    <Card className="gap-5 p-5 sm:p-6">
      <div className="grid gap-1">
        <h2 className="text-lg font-semibold">Event Fees</h2>
        <p className="text-sm text-muted-foreground">
          Registration options shown on the event page. Saving replaces all fees at once.
        </p>
      </div>
      {status ? (
        <p role="status" className="text-sm font-medium">
          {status}
        </p>
      ) : null}
      <save.Form method="post" {...getFormProps(form)} className="grid gap-4">
        <input type="hidden" name="_form" value="fees" />
        {rows.length === 0 ? (
          <p className="text-sm text-muted-foreground">
            No fees yet. Add a fee to offer registration.
          </p>
        ) : (
          <ol className="grid gap-4">
            {rows.map((row, index) => {
              const f = row.getFieldset();
              const n = index + 1;
              const savedId = f.id.value;
              const label = (text: string) => (
                <>
                  <span className="sr-only">Fee {n} </span>
                  {text}
                </>
              );
              return (
                <li key={row.key} className="grid gap-3 rounded-lg border border-border p-4">
                  {savedId ? <input type="hidden" name={f.id.name} value={savedId} /> : null}
                  <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
                    <Field
                      label={label("Fee Type")}
                      htmlFor={f.feeType.id}
                      errors={f.feeType.errors}
                      errorId={f.feeType.errorId}
                    >
                      <NativeSelect key={f.feeType.key} {...withoutKey(getSelectProps(f.feeType))}>
                        {FEE_TYPES.map((type) => (
                          <option key={type} value={type}>
                            {FEE_TYPE_ADMIN_LABELS[type]}
                          </option>
                        ))}
                      </NativeSelect>
                    </Field>
                    <Field
                      label={label("Currency")}
                      htmlFor={f.currency.id}
                      errors={f.currency.errors}
                      errorId={f.currency.errorId}
                    >
                      <NativeSelect
                        key={f.currency.key}
                        {...withoutKey(getSelectProps(f.currency))}
                      >
                        {CURRENCIES.map((currency) => (
                          <option key={currency} value={currency}>
                            {currency}
                          </option>
                        ))}
                      </NativeSelect>
                    </Field>
                    <Field
                      label={label("Amount")}
                      htmlFor={f.amount.id}
                      errors={f.amount.errors}
                      errorId={f.amount.errorId}
                    >
                      <Input
                        key={f.amount.key}
                        min={0}
                        step={stepFor(f.currency.value)}
                        inputMode="decimal"
                        {...withoutKey(getInputProps(f.amount, { type: "number" }))}
                      />
                    </Field>
                    <Field
                      label={label("Max Quantity")}
                      htmlFor={f.maxQuantity.id}
                      errors={f.maxQuantity.errors}
                      errorId={f.maxQuantity.errorId}
                    >
                      <Input
                        key={f.maxQuantity.key}
                        min={1}
                        step={1}
                        placeholder="Unlimited"
                        {...withoutKey(getInputProps(f.maxQuantity, { type: "number" }))}
                      />
                    </Field>
                    <Field
                      label={label("Max Per Order")}
                      htmlFor={f.maxPerOrder.id}
                      errors={f.maxPerOrder.errors}
                      errorId={f.maxPerOrder.errorId}
                      hint="Seats one registration may take"
                    >
                      <Input
                        key={f.maxPerOrder.key}
                        min={1}
                        max={1000}
                        step={1}
                        {...withoutKey(getInputProps(f.maxPerOrder, { type: "number" }))}
                      />
                    </Field>
                    <Field
                      label={label("Max Per Account")}
                      htmlFor={f.maxPerAccount.id}
                      errors={f.maxPerAccount.errors}
                      errorId={f.maxPerAccount.errorId}
                      hint="Registrations one account may hold or have confirmed"
                    >
                      <Input
                        key={f.maxPerAccount.key}
                        min={1}
                        max={100}
                        step={1}
                        {...withoutKey(getInputProps(f.maxPerAccount, { type: "number" }))}
                      />
                    </Field>
                    <Field
                      label={label("Admits")}
                      htmlFor={f.admits.id}
                      errors={f.admits.errors}
                      errorId={f.admits.errorId}
                      hint="People one ticket lets in (a group ticket: more than 1)"
                    >
                      <Input
                        key={f.admits.key}
                        min={1}
                        max={1000}
                        step={1}
                        {...withoutKey(getInputProps(f.admits, { type: "number" }))}
                      />
                    </Field>
                    <Field
                      label={label("Available Until")}
                      htmlFor={f.availableUntil.id}
                      errors={f.availableUntil.errors}
                      errorId={f.availableUntil.errorId}
                    >
                      <Input
                        key={f.availableUntil.key}
                        {...withoutKey(getInputProps(f.availableUntil, { type: "date" }))}
                      />
                    </Field>
                    <Field
                      label={label("Sale Starts")}
                      htmlFor={f.saleStartsAt.id}
                      errors={f.saleStartsAt.errors}
                      errorId={f.saleStartsAt.errorId}
                      hint={`Optional, ${timeZone} time. Before it the ticket shows as not yet on sale`}
                    >
                      <Input
                        key={f.saleStartsAt.key}
                        {...withoutKey(getInputProps(f.saleStartsAt, { type: "datetime-local" }))}
                      />
                    </Field>
                    <Field
                      label={label("Join Link")}
                      htmlFor={f.joinUrl.id}
                      errors={f.joinUrl.errors}
                      errorId={f.joinUrl.errorId}
                      hint="Optional: this ticket's own online room, instead of the event's join link"
                    >
                      <Input
                        key={f.joinUrl.key}
                        inputMode="url"
                        {...withoutKey(getInputProps(f.joinUrl, { type: "url" }))}
                      />
                    </Field>
                    <Field
                      label={label("Description")}
                      htmlFor={f.description.id}
                      errors={f.description.errors}
                      errorId={f.description.errorId}
                    >
                      <Input
                        key={f.description.key}
                        {...withoutKey(getInputProps(f.description, { type: "text" }))}
                      />
                    </Field>
                  </div>
                  <div className="flex justify-end">
                    {savedId ? (
                      <Button
                        type="submit"
                        name="deleteFee"
                        value={savedId}
                        formNoValidate
                        variant="outline"
                        size="sm"
                        className="text-destructive"
                        disabled={remove.state !== "idle"}
                        onClick={(event) => {
                          event.preventDefault();
                          remove.submit(
                            { _form: "delete-fee", feeId: savedId },
                            { method: "post" },
                          );
                        }}
                      >
                        <Trash2 aria-hidden />
                        Remove fee {n}
                      </Button>
                    ) : (
                      <Button
                        variant="outline"
                        size="sm"
                        className="text-destructive"
                        {...form.remove.getButtonProps({ name: fields.fees.name, index })}
                      >
                        <Trash2 aria-hidden />
                        Remove fee {n}
                      </Button>
                    )}
                  </div>
                </li>
              );
            })}
          </ol>
        )}
        <div className="flex flex-wrap justify-between gap-3">
          <Button
            variant="outline"
            {...form.insert.getButtonProps({ name: fields.fees.name, defaultValue: NEW_ROW })}
          >
            <Plus aria-hidden />
            Add Fee
          </Button>
          <Button type="submit" disabled={saving}>
            {saving ? "Saving..." : "Save All Fees"}
          </Button>
        </div>
      </save.Form>
    </Card>
  );
}
