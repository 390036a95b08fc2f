CREATE TYPE "public"."mpesa_confirmation_state" AS ENUM('reported', 'confirmed', 'recorded', 'unmatched', 'rejected');--> statement-breakpoint
CREATE TYPE "public"."mpesa_push_state" AS ENUM('pending', 'paid', 'cancelled', 'timed_out', 'failed');--> statement-breakpoint
CREATE TYPE "public"."payment_receipt_status" AS ENUM('reported', 'to_be_matched', 'confirmed');--> statement-breakpoint
CREATE TABLE "mpesa_confirmations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"trans_id" text NOT NULL,
	"bill_ref_number" text,
	"amount_minor" bigint NOT NULL,
	"confirmed_amount_minor" bigint,
	"msisdn" text,
	"payer_name" text,
	"trans_time" timestamp with time zone,
	"state" "mpesa_confirmation_state" DEFAULT 'reported' NOT NULL,
	"conversation_id" text,
	"result_code" integer,
	"result_desc" text,
	"payment_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "mpesa_confirmations_trans_id_unique" UNIQUE("trans_id"),
	CONSTRAINT "mpesa_confirmations_amount_pos" CHECK ("mpesa_confirmations"."amount_minor" > 0)
);
--> statement-breakpoint
CREATE TABLE "mpesa_pushes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"order_id" uuid NOT NULL,
	"amount_kes" integer NOT NULL,
	"credit_minor" bigint NOT NULL,
	"exchange_rate" text,
	"phone" text NOT NULL,
	"merchant_request_id" text,
	"checkout_request_id" text NOT NULL,
	"state" "mpesa_push_state" DEFAULT 'pending' NOT NULL,
	"result_code" integer,
	"result_desc" text,
	"callback_receipt" text,
	"callback_at" timestamp with time zone,
	"queries" integer DEFAULT 0 NOT NULL,
	"payment_id" uuid,
	"requested_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	CONSTRAINT "mpesa_pushes_checkout_request_id_unique" UNIQUE("checkout_request_id"),
	CONSTRAINT "mpesa_pushes_amount_pos" CHECK ("mpesa_pushes"."amount_kes" > 0),
	CONSTRAINT "mpesa_pushes_credit_pos" CHECK ("mpesa_pushes"."credit_minor" > 0)
);
--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "payment_reference" text;--> statement-breakpoint
-- Existing invoices get theirs: two-digit year, six-digit sequence, mod-97 check of those digits.
-- (lpad would cut a sequence of more than six digits: the zeros are repeated instead.)
UPDATE "invoices" SET "payment_reference" = lpad(("year" % 100)::text, 2, '0') || repeat('0', greatest(0, 6 - length("sequence"::text))) || "sequence"::text || lpad(((lpad(("year" % 100)::text, 2, '0') || repeat('0', greatest(0, 6 - length("sequence"::text))) || "sequence"::text)::bigint % 97)::text, 2, '0');--> statement-breakpoint
ALTER TABLE "invoices" ALTER COLUMN "payment_reference" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "mpesa_receipt" text;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "receipt_status" "payment_receipt_status";--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "payer_phone" text;--> statement-breakpoint
ALTER TABLE "mpesa_confirmations" ADD CONSTRAINT "mpesa_confirmations_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mpesa_pushes" ADD CONSTRAINT "mpesa_pushes_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mpesa_pushes" ADD CONSTRAINT "mpesa_pushes_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mpesa_pushes" ADD CONSTRAINT "mpesa_pushes_requested_by_user_id_fk" FOREIGN KEY ("requested_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "mpesa_confirmations_state_idx" ON "mpesa_confirmations" USING btree ("state","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "mpesa_confirmations_conversation_idx" ON "mpesa_confirmations" USING btree ("conversation_id");--> statement-breakpoint
CREATE INDEX "mpesa_pushes_order_idx" ON "mpesa_pushes" USING btree ("order_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "mpesa_pushes_state_idx" ON "mpesa_pushes" USING btree ("state","created_at");--> statement-breakpoint
CREATE INDEX "payments_mpesa_receipt_idx" ON "payments" USING btree ("mpesa_receipt");--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_payment_reference_unique" UNIQUE("payment_reference");--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_payment_reference_short" CHECK (length("invoices"."payment_reference") <= 12);