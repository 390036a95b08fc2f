CREATE TABLE "membership_upgrade_requests" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"membership_id" uuid NOT NULL,
	"from_plan" "membership_plan" NOT NULL,
	"to_plan" "membership_plan" NOT NULL,
	"organisation_name" text,
	"tax_id" text,
	"billing_contact_name" text,
	"billing_contact_email" text,
	"requested_at" timestamp with time zone DEFAULT now() NOT NULL,
	"decision" text,
	"decided_at" timestamp with time zone,
	"decided_by" text,
	CONSTRAINT "membership_upgrade_decision" CHECK ("membership_upgrade_requests"."decision" IS NULL OR "membership_upgrade_requests"."decision" IN ('approved', 'rejected'))
);
--> statement-breakpoint
ALTER TABLE "membership_upgrade_requests" ADD CONSTRAINT "membership_upgrade_requests_membership_id_memberships_id_fk" FOREIGN KEY ("membership_id") REFERENCES "public"."memberships"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "membership_upgrade_requests" ADD CONSTRAINT "membership_upgrade_requests_decided_by_user_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "membership_upgrade_waiting_idx" ON "membership_upgrade_requests" USING btree ("membership_id") WHERE "membership_upgrade_requests"."decided_at" IS NULL;