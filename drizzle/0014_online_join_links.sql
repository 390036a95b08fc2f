ALTER TABLE "event_fees" ADD COLUMN "join_url" text;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "join_url" text;--> statement-breakpoint
ALTER TABLE "event_fees" ADD CONSTRAINT "event_fees_join_url_https" CHECK ("event_fees"."join_url" IS NULL OR "event_fees"."join_url" LIKE 'https://%');--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_join_url_https" CHECK ("events"."join_url" IS NULL OR "events"."join_url" LIKE 'https://%');