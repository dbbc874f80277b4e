-- Annotation queues: runs waiting for human review against a rubric. A queue's runs are its
-- items; each reviewer's completion or skip of an item is a review. An item is archived once
-- the queue's number of reviewers completed it. One reviewer at a time holds an item (the
-- reservation) for the queue's reservation minutes.
CREATE TABLE "annotation_queues" (
  "id" UUID PRIMARY KEY,
  "workspace_id" UUID NOT NULL,
  "name" TEXT NOT NULL,
  "description" TEXT,
  "rubric_instructions" TEXT,
  "rubric_items" JSONB NOT NULL DEFAULT '[]',
  "default_dataset_id" UUID REFERENCES "datasets" ("id") ON DELETE SET NULL,
  "num_reviewers_per_item" INTEGER NOT NULL DEFAULT 1,
  "enable_reservations" BOOLEAN NOT NULL DEFAULT true,
  "reservation_minutes" INTEGER NOT NULL DEFAULT 5,
  "metadata" JSONB,
  "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT now(),
  "updated_at" TIMESTAMPTZ(6) NOT NULL DEFAULT now()
);
CREATE INDEX "annotation_queues_workspace_id_created_at_idx" ON "annotation_queues" ("workspace_id", "created_at" DESC);

CREATE TABLE "annotation_queue_runs" (
  "id" UUID PRIMARY KEY,
  "queue_id" UUID NOT NULL REFERENCES "annotation_queues" ("id") ON DELETE CASCADE,
  "workspace_id" UUID NOT NULL,
  "run_id" UUID NOT NULL REFERENCES "runs" ("id") ON DELETE CASCADE,
  "project_id" UUID NOT NULL,
  "start_time" TIMESTAMPTZ(6) NOT NULL,
  "source_proposed_example_id" UUID,
  "added_at" TIMESTAMPTZ(6) NOT NULL DEFAULT now(),
  "last_reviewed_time" TIMESTAMPTZ(6),
  "completed_count" INTEGER NOT NULL DEFAULT 0,
  "archived" BOOLEAN NOT NULL DEFAULT false,
  "reserved_by" TEXT,
  "reserved_until" TIMESTAMPTZ(6)
);
CREATE UNIQUE INDEX "annotation_queue_runs_queue_id_run_id_key" ON "annotation_queue_runs" ("queue_id", "run_id");
CREATE INDEX "annotation_queue_runs_queue_id_archived_added_at_id_idx" ON "annotation_queue_runs" ("queue_id", "archived", "added_at", "id");
CREATE INDEX "annotation_queue_runs_run_id_idx" ON "annotation_queue_runs" ("run_id");
-- The run a reviewer holds, found without scanning the queue.
CREATE INDEX "annotation_queue_runs_queue_id_reserved_by_idx" ON "annotation_queue_runs" ("queue_id", "reserved_by") WHERE "reserved_by" IS NOT NULL;

-- Rules gain the action "add to annotation queue".
ALTER TABLE "run_rules" ADD COLUMN "add_to_annotation_queue_id" UUID REFERENCES "annotation_queues" ("id") ON DELETE SET NULL;

CREATE TABLE "annotation_queue_reviews" (
  "queue_run_id" UUID NOT NULL REFERENCES "annotation_queue_runs" ("id") ON DELETE CASCADE,
  "reviewer_id" TEXT NOT NULL,
  "status" TEXT NOT NULL CHECK ("status" IN ('completed', 'skipped')),
  "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT now(),
  PRIMARY KEY ("queue_run_id", "reviewer_id")
);
