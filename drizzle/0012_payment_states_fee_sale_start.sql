-- Payments get their own states and refunds name their payment (issue 27); a fee may start its sale later
-- (issue 29); a payment can record the shillings that arrived against a foreign-currency order, with the rate.
CREATE TYPE "public"."payment_state" AS ENUM('recorded', 'partly_refunded', 'refunded');--> statement-breakpoint
ALTER TABLE "event_fees" ADD COLUMN "sale_starts_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "state" "payment_state" DEFAULT 'recorded' NOT NULL;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "refunded_minor" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "received_minor" bigint;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "received_currency" "currency";--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "exchange_rate" text;--> statement-breakpoint
ALTER TABLE "refunds" ADD COLUMN "payment_id" uuid;--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
-- Backfill (exact, no rounding): a refund recorded before payments had states belongs to its order's
-- payment when the order has exactly one; each payment's refunded total and state follow from its refunds.
UPDATE "refunds" r SET "payment_id" = p."id" FROM "payments" p
  WHERE r."payment_id" IS NULL AND p."order_id" = r."order_id"
  AND (SELECT count(*) FROM "payments" q WHERE q."order_id" = r."order_id") = 1;--> statement-breakpoint
UPDATE "payments" p SET "refunded_minor" = s."total" FROM
  (SELECT "payment_id", sum("amount_minor")::bigint AS "total" FROM "refunds" WHERE "payment_id" IS NOT NULL GROUP BY "payment_id") s
  WHERE s."payment_id" = p."id";--> statement-breakpoint
UPDATE "payments" SET "state" = CASE WHEN "refunded_minor" >= "amount_minor" THEN 'refunded'::"payment_state" ELSE 'partly_refunded'::"payment_state" END
  WHERE "refunded_minor" > 0;--> statement-breakpoint
CREATE INDEX "refunds_payment_idx" ON "refunds" USING btree ("payment_id");--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_refunded_within" CHECK ("payments"."refunded_minor" >= 0 AND "payments"."refunded_minor" <= "payments"."amount_minor");--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_received_together" CHECK (("payments"."received_minor" IS NULL) = ("payments"."received_currency" IS NULL) AND ("payments"."received_minor" IS NULL) = ("payments"."exchange_rate" IS NULL));--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_received_pos" CHECK ("payments"."received_minor" IS NULL OR ("payments"."received_minor" > 0 AND "payments"."received_minor" <= 9007199254740991));