CREATE TYPE "public"."registration_state" AS ENUM('awaiting_payment', 'confirmed', 'cancelled', 'expired');--> statement-breakpoint
CREATE TYPE "public"."waitlist_state" AS ENUM('waiting', 'offered', 'claimed', 'expired', 'left');--> statement-breakpoint
CREATE TABLE "registrations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"event_id" uuid NOT NULL,
	"fee_id" uuid,
	"ticket_label" text NOT NULL,
	"unit_amount_minor" bigint DEFAULT 0 NOT NULL,
	"currency" "currency",
	"user_id" text,
	"attendee_name" text NOT NULL,
	"attendee_email" text NOT NULL,
	"quantity" integer NOT NULL,
	"state" "registration_state" NOT NULL,
	"order_id" uuid,
	"hold_until" timestamp with time zone,
	"confirmed_at" timestamp with time zone,
	"cancelled_at" timestamp with time zone,
	"cancelled_by" text,
	"cancel_reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "registrations_quantity_pos" CHECK ("registrations"."quantity" >= 1)
);
--> statement-breakpoint
CREATE TABLE "tickets" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"registration_id" uuid NOT NULL,
	"event_id" uuid NOT NULL,
	"seat" integer NOT NULL,
	"code" text NOT NULL,
	"checked_in_at" timestamp with time zone,
	"checked_in_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "tickets_code_unique" UNIQUE("code")
);
--> statement-breakpoint
CREATE TABLE "waitlist_entries" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"event_id" uuid NOT NULL,
	"fee_id" uuid,
	"user_id" text,
	"name" text NOT NULL,
	"email" text NOT NULL,
	"quantity" integer DEFAULT 1 NOT NULL,
	"state" "waitlist_state" DEFAULT 'waiting' NOT NULL,
	"offered_at" timestamp with time zone,
	"offer_expires_at" timestamp with time zone,
	"registration_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "waitlist_quantity_pos" CHECK ("waitlist_entries"."quantity" >= 1)
);
--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "capacity" integer;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "cancelled_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "offices" ADD COLUMN "opening_hours" text;--> statement-breakpoint
ALTER TABLE "offices" ADD COLUMN "services" text[];--> statement-breakpoint
ALTER TABLE "registrations" ADD CONSTRAINT "registrations_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "registrations" ADD CONSTRAINT "registrations_fee_id_event_fees_id_fk" FOREIGN KEY ("fee_id") REFERENCES "public"."event_fees"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "registrations" ADD CONSTRAINT "registrations_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "registrations" ADD CONSTRAINT "registrations_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "registrations" ADD CONSTRAINT "registrations_cancelled_by_user_id_fk" FOREIGN KEY ("cancelled_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tickets" ADD CONSTRAINT "tickets_registration_id_registrations_id_fk" FOREIGN KEY ("registration_id") REFERENCES "public"."registrations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tickets" ADD CONSTRAINT "tickets_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tickets" ADD CONSTRAINT "tickets_checked_in_by_user_id_fk" FOREIGN KEY ("checked_in_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "waitlist_entries" ADD CONSTRAINT "waitlist_entries_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "waitlist_entries" ADD CONSTRAINT "waitlist_entries_fee_id_event_fees_id_fk" FOREIGN KEY ("fee_id") REFERENCES "public"."event_fees"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "waitlist_entries" ADD CONSTRAINT "waitlist_entries_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "waitlist_entries" ADD CONSTRAINT "waitlist_entries_registration_id_registrations_id_fk" FOREIGN KEY ("registration_id") REFERENCES "public"."registrations"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "registrations_event_state_idx" ON "registrations" USING btree ("event_id","state");--> statement-breakpoint
CREATE INDEX "registrations_fee_state_idx" ON "registrations" USING btree ("fee_id","state");--> statement-breakpoint
CREATE INDEX "registrations_user_idx" ON "registrations" USING btree ("user_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "registrations_order_idx" ON "registrations" USING btree ("order_id");--> statement-breakpoint
CREATE UNIQUE INDEX "tickets_registration_seat_idx" ON "tickets" USING btree ("registration_id","seat");--> statement-breakpoint
CREATE INDEX "tickets_event_idx" ON "tickets" USING btree ("event_id","checked_in_at");--> statement-breakpoint
CREATE INDEX "waitlist_event_state_idx" ON "waitlist_entries" USING btree ("event_id","state","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "waitlist_live_person_idx" ON "waitlist_entries" USING btree ("event_id","fee_id","user_id") WHERE "waitlist_entries"."state" IN ('waiting', 'offered');--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_capacity_pos" CHECK ("events"."capacity" IS NULL OR "events"."capacity" >= 1);