-- Event fees become integer minor units like every other money column (issue 27, decision 0081).
-- UGX and RWF join the currency enum (0 decimals, see app/lib/money.ts); nothing in this migration uses them.
ALTER TYPE "public"."currency" ADD VALUE IF NOT EXISTS 'UGX';--> statement-breakpoint
ALTER TYPE "public"."currency" ADD VALUE IF NOT EXISTS 'RWF';--> statement-breakpoint
ALTER TABLE "event_fees" DROP CONSTRAINT "event_fees_amount_nonneg";--> statement-breakpoint
DROP INDEX "event_fees_event_amount_idx";--> statement-breakpoint
ALTER TABLE "event_fees" ADD COLUMN "amount_minor" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
-- Every existing fee is in a two-decimal currency and amount is numeric(12,2), so amount * 100 is an
-- exact integer in numeric arithmetic: round() only makes the type integral, it never rounds a value.
UPDATE "event_fees" SET "amount_minor" = round("amount" * 100)::bigint;--> statement-breakpoint
CREATE INDEX "event_fees_event_amount_idx" ON "event_fees" USING btree ("event_id","amount_minor");--> statement-breakpoint
ALTER TABLE "event_fees" DROP COLUMN "amount";--> statement-breakpoint
ALTER TABLE "event_fees" ADD CONSTRAINT "event_fees_amount_safe" CHECK ("event_fees"."amount_minor" <= 9007199254740991);--> statement-breakpoint
ALTER TABLE "event_fees" ADD CONSTRAINT "event_fees_amount_nonneg" CHECK ("event_fees"."amount_minor" >= 0);
