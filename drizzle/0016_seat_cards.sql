ALTER TABLE "membership_seats" ADD COLUMN "card_code" text;--> statement-breakpoint
ALTER TABLE "membership_seats" ADD CONSTRAINT "membership_seats_card_code_unique" UNIQUE("card_code");--> statement-breakpoint
-- Seats accepted before seat cards existed get their card now.
UPDATE "membership_seats" SET "card_code" = replace(gen_random_uuid()::text, '-', '') WHERE "accepted_at" IS NOT NULL AND "card_code" IS NULL;
