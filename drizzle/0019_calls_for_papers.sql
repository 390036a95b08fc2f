CREATE TYPE "public"."review_assignment_state" AS ENUM('invited', 'active', 'conflicted', 'declined', 'cancelled');--> statement-breakpoint
CREATE TYPE "public"."blind_mode" AS ENUM('double', 'single');--> statement-breakpoint
CREATE TYPE "public"."call_state" AS ENUM('draft', 'open', 'closed');--> statement-breakpoint
CREATE TYPE "public"."decision_outcome" AS ENUM('accepted', 'revisions_requested', 'rejected', 'desk_rejected');--> statement-breakpoint
CREATE TYPE "public"."review_recommendation" AS ENUM('accept', 'minor', 'major', 'reject');--> statement-breakpoint
CREATE TYPE "public"."review_state" AS ENUM('draft', 'submitted');--> statement-breakpoint
CREATE TYPE "public"."submission_state" AS ENUM('draft', 'submitted', 'under_review', 'revisions_requested', 'resubmitted', 'accepted', 'rejected', 'withdrawn', 'desk_rejected');--> statement-breakpoint
CREATE TABLE "calls" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"title" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"tracks" text[] DEFAULT '{}'::text[] NOT NULL,
	"submission_deadline" timestamp with time zone NOT NULL,
	"review_deadline" timestamp with time zone NOT NULL,
	"event_id" uuid,
	"blind_mode" "blind_mode" DEFAULT 'double' NOT NULL,
	"criteria" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"state" "call_state" DEFAULT 'draft' NOT NULL,
	"created_by" text,
	"opened_at" timestamp with time zone,
	"closed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "calls_review_after_submission" CHECK ("calls"."review_deadline" >= "calls"."submission_deadline")
);
--> statement-breakpoint
CREATE TABLE "decisions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"submission_id" uuid NOT NULL,
	"round" integer NOT NULL,
	"editor_id" text,
	"outcome" "decision_outcome" NOT NULL,
	"letter" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "review_assignments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"call_id" uuid NOT NULL,
	"submission_id" uuid NOT NULL,
	"reviewer_id" text,
	"invited_email" text NOT NULL,
	"invitation_token_hash" text,
	"due_at" timestamp with time zone NOT NULL,
	"state" "review_assignment_state" DEFAULT 'invited' NOT NULL,
	"conflict_note" text,
	"conflict_declared_at" timestamp with time zone,
	"assigned_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "review_assignments_invitation_token_hash_unique" UNIQUE("invitation_token_hash")
);
--> statement-breakpoint
CREATE TABLE "reviews" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"assignment_id" uuid NOT NULL,
	"submission_id" uuid NOT NULL,
	"round" integer NOT NULL,
	"scores" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"recommendation" "review_recommendation",
	"comments_to_authors" text DEFAULT '' NOT NULL,
	"confidential_comments" text DEFAULT '' NOT NULL,
	"state" "review_state" DEFAULT 'draft' NOT NULL,
	"submitted_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "submission_authors" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"submission_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"name" text NOT NULL,
	"affiliation" text,
	"email" text,
	"orcid" text,
	"corresponding" boolean DEFAULT false NOT NULL
);
--> statement-breakpoint
CREATE TABLE "submission_versions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"submission_id" uuid NOT NULL,
	"round" integer NOT NULL,
	"manuscript_key" text,
	"manuscript_bytes" integer,
	"reviewer_copy_key" text,
	"response_letter" text,
	"submitted_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "submissions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"call_id" uuid NOT NULL,
	"submitter_id" text NOT NULL,
	"title" text DEFAULT '' NOT NULL,
	"abstract" text DEFAULT '' NOT NULL,
	"keywords" text[] DEFAULT '{}'::text[] NOT NULL,
	"track" text,
	"declared_at" timestamp with time zone,
	"state" "submission_state" DEFAULT 'draft' NOT NULL,
	"round" integer DEFAULT 1 NOT NULL,
	"desk_reject_reason" text,
	"submitted_at" timestamp with time zone,
	"decided_at" timestamp with time zone,
	"withdrawn_at" timestamp with time zone,
	"state_changed_at" timestamp with time zone DEFAULT now() NOT NULL,
	"published_paper_id" uuid,
	"agenda_item_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "submissions_published_paper_id_unique" UNIQUE("published_paper_id"),
	CONSTRAINT "submissions_agenda_item_id_unique" UNIQUE("agenda_item_id"),
	CONSTRAINT "submissions_round_pos" CHECK ("submissions"."round" >= 1)
);
--> statement-breakpoint
ALTER TABLE "calls" ADD CONSTRAINT "calls_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "calls" ADD CONSTRAINT "calls_created_by_user_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "decisions" ADD CONSTRAINT "decisions_submission_id_submissions_id_fk" FOREIGN KEY ("submission_id") REFERENCES "public"."submissions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "decisions" ADD CONSTRAINT "decisions_editor_id_user_id_fk" FOREIGN KEY ("editor_id") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review_assignments" ADD CONSTRAINT "review_assignments_call_id_calls_id_fk" FOREIGN KEY ("call_id") REFERENCES "public"."calls"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review_assignments" ADD CONSTRAINT "review_assignments_submission_id_submissions_id_fk" FOREIGN KEY ("submission_id") REFERENCES "public"."submissions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review_assignments" ADD CONSTRAINT "review_assignments_reviewer_id_user_id_fk" FOREIGN KEY ("reviewer_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review_assignments" ADD CONSTRAINT "review_assignments_assigned_by_user_id_fk" FOREIGN KEY ("assigned_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reviews" ADD CONSTRAINT "reviews_assignment_id_review_assignments_id_fk" FOREIGN KEY ("assignment_id") REFERENCES "public"."review_assignments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reviews" ADD CONSTRAINT "reviews_submission_id_submissions_id_fk" FOREIGN KEY ("submission_id") REFERENCES "public"."submissions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "submission_authors" ADD CONSTRAINT "submission_authors_submission_id_submissions_id_fk" FOREIGN KEY ("submission_id") REFERENCES "public"."submissions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "submission_versions" ADD CONSTRAINT "submission_versions_submission_id_submissions_id_fk" FOREIGN KEY ("submission_id") REFERENCES "public"."submissions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "submissions" ADD CONSTRAINT "submissions_call_id_calls_id_fk" FOREIGN KEY ("call_id") REFERENCES "public"."calls"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "submissions" ADD CONSTRAINT "submissions_submitter_id_user_id_fk" FOREIGN KEY ("submitter_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "submissions" ADD CONSTRAINT "submissions_published_paper_id_papers_id_fk" FOREIGN KEY ("published_paper_id") REFERENCES "public"."papers"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "submissions" ADD CONSTRAINT "submissions_agenda_item_id_agenda_items_id_fk" FOREIGN KEY ("agenda_item_id") REFERENCES "public"."agenda_items"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "calls_state_deadline_idx" ON "calls" USING btree ("state","submission_deadline");--> statement-breakpoint
CREATE INDEX "calls_event_idx" ON "calls" USING btree ("event_id");--> statement-breakpoint
CREATE UNIQUE INDEX "decisions_submission_round_idx" ON "decisions" USING btree ("submission_id","round");--> statement-breakpoint
CREATE UNIQUE INDEX "review_assignments_live_email_idx" ON "review_assignments" USING btree ("submission_id","invited_email") WHERE "review_assignments"."state" NOT IN ('cancelled', 'declined');--> statement-breakpoint
CREATE INDEX "review_assignments_reviewer_idx" ON "review_assignments" USING btree ("reviewer_id","call_id");--> statement-breakpoint
CREATE INDEX "review_assignments_due_idx" ON "review_assignments" USING btree ("due_at");--> statement-breakpoint
CREATE UNIQUE INDEX "reviews_assignment_round_idx" ON "reviews" USING btree ("assignment_id","round");--> statement-breakpoint
CREATE INDEX "reviews_submission_round_idx" ON "reviews" USING btree ("submission_id","round");--> statement-breakpoint
CREATE UNIQUE INDEX "submission_authors_position_idx" ON "submission_authors" USING btree ("submission_id","position");--> statement-breakpoint
CREATE INDEX "submission_authors_email_idx" ON "submission_authors" USING btree (lower("email"));--> statement-breakpoint
CREATE UNIQUE INDEX "submission_versions_round_idx" ON "submission_versions" USING btree ("submission_id","round");--> statement-breakpoint
CREATE INDEX "submissions_call_state_idx" ON "submissions" USING btree ("call_id","state","submitted_at");--> statement-breakpoint
CREATE INDEX "submissions_submitter_idx" ON "submissions" USING btree ("submitter_id","updated_at" DESC NULLS LAST);