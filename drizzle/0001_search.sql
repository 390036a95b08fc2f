-- Search support for the public listings (spec §5: case-insensitive substring match).
-- Trigram GIN indexes serve ILIKE '%term%' on the concatenated searchable text; the full-text
-- indexes serve ranking. The SQL functions are IMMUTABLE so they can be indexed; queries must call
-- them with the same arguments (see app/models/*.server.ts).
CREATE EXTENSION IF NOT EXISTS pg_trgm;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION event_search_text(title text, location text, description text, theme text, category text)
  RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT lower(coalesce(title, '') || ' ' || coalesce(location, '') || ' ' || coalesce(description, '') || ' ' || coalesce(theme, '') || ' ' || coalesce(category, '')) $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION paper_search_text(title text, authors text[], tags text[], abstract text)
  RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT lower(coalesce(title, '') || ' ' || coalesce(array_to_string(authors, ' '), '') || ' ' || coalesce(array_to_string(tags, ' '), '') || ' ' || coalesce(abstract, '')) $$;
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS events_search_trgm_idx ON events USING gin (event_search_text(title, location, description, theme, category) gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS events_search_fts_idx ON events USING gin (to_tsvector('simple', event_search_text(title, location, description, theme, category)));
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS papers_search_trgm_idx ON papers USING gin (paper_search_text(title, authors, tags, abstract) gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS papers_search_fts_idx ON papers USING gin (to_tsvector('simple', paper_search_text(title, authors, tags, abstract)));
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS events_title_trgm_idx ON events USING gin (lower(title) gin_trgm_ops);
--> statement-breakpoint
-- The eight event types the spec names (§3); events default to 'conference', so it must exist.
INSERT INTO event_types (name, description, color, icon) VALUES
  ('conference', 'Multi-day conferences with keynotes, panels and breakout tracks', '#0B5FFF', 'presentation'),
  ('exhibition', 'Exhibitions and expos showcasing products and research', '#7C3AED', 'landmark'),
  ('gala', 'Award ceremonies and gala dinners', '#D97706', 'award'),
  ('workshop', 'Hands-on, small-group practical sessions', '#059669', 'wrench'),
  ('seminar', 'Focused talks and discussions on a single topic', '#0891B2', 'book-open'),
  ('networking', 'Meet-ups and networking receptions', '#DB2777', 'users'),
  ('webinar', 'Online live sessions', '#4F46E5', 'video'),
  ('vendor', 'Vendor showcases and solution briefings', '#DC2626', 'store')
ON CONFLICT (name) DO NOTHING;
