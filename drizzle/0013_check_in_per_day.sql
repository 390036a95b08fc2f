-- Check-in per event day (issue 30): admissions move from tickets.checked_in_at to ticket_check_ins,
-- one per ticket per day of the event; events get an optional check-in opening time.
CREATE TABLE "ticket_check_ins" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"ticket_id" uuid NOT NULL,
	"event_id" uuid NOT NULL,
	"day" date NOT NULL,
	"checked_in_at" timestamp with time zone DEFAULT now() NOT NULL,
	"checked_in_by" text
);
--> statement-breakpoint
ALTER TABLE "tickets" DROP CONSTRAINT "tickets_checked_in_by_user_id_fk";
--> statement-breakpoint
DROP INDEX "tickets_event_idx";--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "check_in_opens_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "ticket_check_ins" ADD CONSTRAINT "ticket_check_ins_ticket_id_tickets_id_fk" FOREIGN KEY ("ticket_id") REFERENCES "public"."tickets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ticket_check_ins" ADD CONSTRAINT "ticket_check_ins_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ticket_check_ins" ADD CONSTRAINT "ticket_check_ins_checked_in_by_user_id_fk" FOREIGN KEY ("checked_in_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "ticket_check_ins_ticket_day_idx" ON "ticket_check_ins" USING btree ("ticket_id","day");--> statement-breakpoint
CREATE INDEX "ticket_check_ins_event_day_idx" ON "ticket_check_ins" USING btree ("event_id","day","checked_in_at");--> statement-breakpoint
CREATE INDEX "tickets_event_idx" ON "tickets" USING btree ("event_id");--> statement-breakpoint
-- Every earlier check-in becomes the admission for the event day it happened on (in the event's zone).
INSERT INTO "ticket_check_ins" ("ticket_id", "event_id", "day", "checked_in_at", "checked_in_by")
  SELECT t."id", t."event_id", (t."checked_in_at" AT TIME ZONE e."time_zone")::date, t."checked_in_at", t."checked_in_by"
  FROM "tickets" t JOIN "events" e ON e."id" = t."event_id"
  WHERE t."checked_in_at" IS NOT NULL;--> statement-breakpoint
ALTER TABLE "tickets" DROP COLUMN "checked_in_at";--> statement-breakpoint
ALTER TABLE "tickets" DROP COLUMN "checked_in_by";