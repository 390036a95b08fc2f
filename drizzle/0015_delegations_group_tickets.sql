-- Delegations and group tickets (issue 30, decision 0093): seats booked together share a booking id;
-- a fee and its tickets admit N people; a group ticket is admitted up to N times per event day.
DROP INDEX "ticket_check_ins_ticket_day_idx";--> statement-breakpoint
ALTER TABLE "event_fees" ADD COLUMN "admits" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "registrations" ADD COLUMN "booking_id" uuid;--> statement-breakpoint
ALTER TABLE "ticket_check_ins" ADD COLUMN "admission" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "tickets" ADD COLUMN "admits" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
CREATE INDEX "registrations_booking_idx" ON "registrations" USING btree ("booking_id");--> statement-breakpoint
CREATE UNIQUE INDEX "ticket_check_ins_ticket_day_admission_idx" ON "ticket_check_ins" USING btree ("ticket_id","day","admission");--> statement-breakpoint
ALTER TABLE "event_fees" ADD CONSTRAINT "event_fees_admits_pos" CHECK ("event_fees"."admits" >= 1);--> statement-breakpoint
ALTER TABLE "ticket_check_ins" ADD CONSTRAINT "ticket_check_ins_admission_pos" CHECK ("ticket_check_ins"."admission" >= 1);--> statement-breakpoint
ALTER TABLE "tickets" ADD CONSTRAINT "tickets_admits_pos" CHECK ("tickets"."admits" >= 1);