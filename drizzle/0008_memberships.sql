CREATE TYPE "public"."membership_notice_kind" AS ENUM('renewal_30d', 'renewal_7d', 'ends_today', 'grace');--> statement-breakpoint
CREATE TYPE "public"."membership_notice_status" AS ENUM('sent', 'skipped', 'failed');--> statement-breakpoint
CREATE TYPE "public"."membership_plan" AS ENUM('individual', 'professional', 'corporate');--> statement-breakpoint
CREATE TYPE "public"."membership_state" AS ENUM('applied', 'awaiting_payment', 'active', 'renewal_open', 'grace', 'lapsed', 'rejected', 'cancelled');--> statement-breakpoint
CREATE TYPE "public"."membership_term_kind" AS ENUM('join', 'renewal', 'upgrade');--> statement-breakpoint
CREATE TABLE "membership_notices" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"membership_id" uuid NOT NULL,
	"term_id" uuid NOT NULL,
	"kind" "membership_notice_kind" NOT NULL,
	"status" "membership_notice_status" NOT NULL,
	"reason" text,
	"attempts" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "membership_seats" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"membership_id" uuid NOT NULL,
	"email" text NOT NULL,
	"token_hash" text NOT NULL,
	"user_id" text,
	"invited_at" timestamp with time zone DEFAULT now() NOT NULL,
	"accepted_at" timestamp with time zone,
	"revoked_at" timestamp with time zone,
	CONSTRAINT "membership_seats_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
CREATE TABLE "membership_terms" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"membership_id" uuid NOT NULL,
	"kind" "membership_term_kind" NOT NULL,
	"plan" "membership_plan" NOT NULL,
	"order_id" uuid NOT NULL,
	"starts_at" timestamp with time zone,
	"ends_at" timestamp with time zone,
	"activated_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "membership_terms_order_id_unique" UNIQUE("order_id"),
	CONSTRAINT "membership_terms_dates" CHECK ("membership_terms"."starts_at" IS NULL OR ("membership_terms"."ends_at" IS NOT NULL AND "membership_terms"."ends_at" > "membership_terms"."starts_at"))
);
--> statement-breakpoint
CREATE TABLE "memberships" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" text NOT NULL,
	"plan" "membership_plan" NOT NULL,
	"state" "membership_state" NOT NULL,
	"member_name" text NOT NULL,
	"organisation_name" text,
	"tax_id" text,
	"billing_contact_name" text,
	"billing_contact_email" text,
	"student" boolean DEFAULT false NOT NULL,
	"student_proof_key" text,
	"rejection_reason" text,
	"cancel_requested_at" timestamp with time zone,
	"card_code" text NOT NULL,
	"state_changed_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "memberships_card_code_unique" UNIQUE("card_code")
);
--> statement-breakpoint
ALTER TABLE "membership_notices" ADD CONSTRAINT "membership_notices_membership_id_memberships_id_fk" FOREIGN KEY ("membership_id") REFERENCES "public"."memberships"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "membership_notices" ADD CONSTRAINT "membership_notices_term_id_membership_terms_id_fk" FOREIGN KEY ("term_id") REFERENCES "public"."membership_terms"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "membership_seats" ADD CONSTRAINT "membership_seats_membership_id_memberships_id_fk" FOREIGN KEY ("membership_id") REFERENCES "public"."memberships"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "membership_seats" ADD CONSTRAINT "membership_seats_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "membership_terms" ADD CONSTRAINT "membership_terms_membership_id_memberships_id_fk" FOREIGN KEY ("membership_id") REFERENCES "public"."memberships"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "membership_terms" ADD CONSTRAINT "membership_terms_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "memberships" ADD CONSTRAINT "memberships_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "membership_notices_term_kind_idx" ON "membership_notices" USING btree ("term_id","kind");--> statement-breakpoint
CREATE UNIQUE INDEX "membership_seats_live_email_idx" ON "membership_seats" USING btree ("membership_id","email") WHERE "membership_seats"."revoked_at" IS NULL;--> statement-breakpoint
CREATE INDEX "membership_seats_user_idx" ON "membership_seats" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "membership_terms_membership_idx" ON "membership_terms" USING btree ("membership_id","ends_at");--> statement-breakpoint
CREATE UNIQUE INDEX "memberships_live_user_idx" ON "memberships" USING btree ("user_id") WHERE "memberships"."state" NOT IN ('rejected', 'cancelled');--> statement-breakpoint
CREATE INDEX "memberships_state_idx" ON "memberships" USING btree ("state","state_changed_at");