CREATE TYPE "public"."online_provider" AS ENUM('paystack', 'paypal');--> statement-breakpoint
CREATE TYPE "public"."paystack_checkout_state" AS ENUM('pending', 'paid', 'failed', 'expired');--> statement-breakpoint
CREATE TYPE "public"."provider_refund_state" AS ENUM('requested', 'pending', 'completed', 'failed');--> statement-breakpoint
CREATE TABLE "paystack_checkouts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"order_id" uuid NOT NULL,
	"reference" text NOT NULL,
	"amount_minor" bigint NOT NULL,
	"currency" "currency" NOT NULL,
	"state" "paystack_checkout_state" DEFAULT 'pending' NOT NULL,
	"authorization_url" text,
	"gateway_status" text,
	"payment_id" uuid,
	"requested_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	CONSTRAINT "paystack_checkouts_reference_unique" UNIQUE("reference"),
	CONSTRAINT "paystack_checkouts_amount_pos" CHECK ("paystack_checkouts"."amount_minor" > 0),
	CONSTRAINT "paystack_checkouts_amount_safe" CHECK ("paystack_checkouts"."amount_minor" <= 9007199254740991)
);
--> statement-breakpoint
CREATE TABLE "provider_refunds" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"order_id" uuid NOT NULL,
	"payment_id" uuid NOT NULL,
	"provider" "online_provider" NOT NULL,
	"amount_minor" bigint NOT NULL,
	"currency" "currency" NOT NULL,
	"state" "provider_refund_state" DEFAULT 'requested' NOT NULL,
	"provider_refund_id" text,
	"reason" text,
	"failure" text,
	"refund_id" uuid,
	"requested_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	CONSTRAINT "provider_refunds_amount_pos" CHECK ("provider_refunds"."amount_minor" > 0),
	CONSTRAINT "provider_refunds_amount_safe" CHECK ("provider_refunds"."amount_minor" <= 9007199254740991)
);
--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "provider" "online_provider";--> statement-breakpoint
ALTER TABLE "paystack_checkouts" ADD CONSTRAINT "paystack_checkouts_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "paystack_checkouts" ADD CONSTRAINT "paystack_checkouts_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "paystack_checkouts" ADD CONSTRAINT "paystack_checkouts_requested_by_user_id_fk" FOREIGN KEY ("requested_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "provider_refunds" ADD CONSTRAINT "provider_refunds_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "provider_refunds" ADD CONSTRAINT "provider_refunds_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "provider_refunds" ADD CONSTRAINT "provider_refunds_refund_id_refunds_id_fk" FOREIGN KEY ("refund_id") REFERENCES "public"."refunds"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "provider_refunds" ADD CONSTRAINT "provider_refunds_requested_by_user_id_fk" FOREIGN KEY ("requested_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "paystack_checkouts_order_idx" ON "paystack_checkouts" USING btree ("order_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "paystack_checkouts_state_idx" ON "paystack_checkouts" USING btree ("state","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "provider_refunds_provider_id_idx" ON "provider_refunds" USING btree ("provider","provider_refund_id");--> statement-breakpoint
CREATE INDEX "provider_refunds_payment_idx" ON "provider_refunds" USING btree ("payment_id","state");--> statement-breakpoint
CREATE INDEX "provider_refunds_order_idx" ON "provider_refunds" USING btree ("order_id","created_at");