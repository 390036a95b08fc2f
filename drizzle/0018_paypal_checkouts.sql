CREATE TYPE "public"."paypal_checkout_state" AS ENUM('created', 'captured', 'cancelled', 'failed');--> statement-breakpoint
ALTER TYPE "public"."payment_method" ADD VALUE 'paypal';--> statement-breakpoint
CREATE TABLE "paypal_checkouts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"order_id" uuid NOT NULL,
	"paypal_order_id" text NOT NULL,
	"amount_minor" bigint NOT NULL,
	"currency" "currency" NOT NULL,
	"state" "paypal_checkout_state" DEFAULT 'created' NOT NULL,
	"capture_id" text,
	"payment_id" uuid,
	"failure" text,
	"requested_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	CONSTRAINT "paypal_checkouts_paypal_order_id_unique" UNIQUE("paypal_order_id"),
	CONSTRAINT "paypal_checkouts_capture_id_unique" UNIQUE("capture_id"),
	CONSTRAINT "paypal_checkouts_amount_pos" CHECK ("paypal_checkouts"."amount_minor" > 0),
	CONSTRAINT "paypal_checkouts_amount_safe" CHECK ("paypal_checkouts"."amount_minor" <= 9007199254740991)
);
--> statement-breakpoint
ALTER TABLE "paypal_checkouts" ADD CONSTRAINT "paypal_checkouts_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "paypal_checkouts" ADD CONSTRAINT "paypal_checkouts_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "paypal_checkouts" ADD CONSTRAINT "paypal_checkouts_requested_by_user_id_fk" FOREIGN KEY ("requested_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "paypal_checkouts_order_idx" ON "paypal_checkouts" USING btree ("order_id","created_at" DESC NULLS LAST);