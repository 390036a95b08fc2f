CREATE TABLE "refunds" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"order_id" uuid NOT NULL,
	"amount_minor" bigint NOT NULL,
	"currency" "currency" NOT NULL,
	"method" "payment_method" NOT NULL,
	"reference" text NOT NULL,
	"reason" text,
	"credit_note_number" text NOT NULL,
	"year" integer NOT NULL,
	"sequence" integer NOT NULL,
	"recorded_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "refunds_credit_note_number_unique" UNIQUE("credit_note_number"),
	CONSTRAINT "refunds_amount_pos" CHECK ("refunds"."amount_minor" > 0),
	CONSTRAINT "refunds_amount_safe" CHECK ("refunds"."amount_minor" <= 9007199254740991)
);
--> statement-breakpoint
ALTER TABLE "event_fees" ADD COLUMN "max_per_order" integer DEFAULT 10 NOT NULL;--> statement-breakpoint
ALTER TABLE "event_fees" ADD COLUMN "max_per_account" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "membership_seats" ADD COLUMN "expires_at" timestamp with time zone DEFAULT now() + interval '30 days' NOT NULL;--> statement-breakpoint
UPDATE "membership_seats" SET "expires_at" = "invited_at" + interval '30 days';--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "refunded_minor" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_recorded_by_user_id_fk" FOREIGN KEY ("recorded_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "refunds_year_sequence_idx" ON "refunds" USING btree ("year","sequence");--> statement-breakpoint
CREATE INDEX "refunds_order_idx" ON "refunds" USING btree ("order_id","created_at");--> statement-breakpoint
ALTER TABLE "event_fees" ADD CONSTRAINT "event_fees_max_per_order_pos" CHECK ("event_fees"."max_per_order" >= 1);--> statement-breakpoint
ALTER TABLE "event_fees" ADD CONSTRAINT "event_fees_max_per_account_pos" CHECK ("event_fees"."max_per_account" >= 1);--> statement-breakpoint
ALTER TABLE "order_lines" ADD CONSTRAINT "order_lines_total_safe" CHECK ("order_lines"."line_total_minor" <= 9007199254740991);--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_total_safe" CHECK ("orders"."total_minor" <= 9007199254740991);--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_paid_safe" CHECK ("orders"."paid_minor" <= 9007199254740991);--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_refunded_range" CHECK ("orders"."refunded_minor" >= 0 AND "orders"."refunded_minor" <= "orders"."paid_minor");--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_amount_safe" CHECK ("payments"."amount_minor" <= 9007199254740991);