ALTER TABLE "events" ADD COLUMN "search_text" text GENERATED ALWAYS AS (event_search_text(title, location, description, theme, category)) STORED;--> statement-breakpoint
ALTER TABLE "papers" ADD COLUMN "search_text" text GENERATED ALWAYS AS (paper_search_text(title, authors, tags, abstract)) STORED;--> statement-breakpoint
-- Search indexes move from the function expressions to the stored columns: the listing filters
-- and counts read a plain column instead of re-building the text for every row.
DROP INDEX IF EXISTS events_search_trgm_idx;--> statement-breakpoint
DROP INDEX IF EXISTS events_search_fts_idx;--> statement-breakpoint
DROP INDEX IF EXISTS papers_search_trgm_idx;--> statement-breakpoint
DROP INDEX IF EXISTS papers_search_fts_idx;--> statement-breakpoint
CREATE INDEX IF NOT EXISTS events_search_text_trgm_idx ON events USING gin (search_text gin_trgm_ops);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS events_search_text_fts_idx ON events USING gin (to_tsvector('simple', search_text));--> statement-breakpoint
CREATE INDEX IF NOT EXISTS papers_search_text_trgm_idx ON papers USING gin (search_text gin_trgm_ops);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS papers_search_text_fts_idx ON papers USING gin (to_tsvector('simple', search_text));
