-- Pairwise annotation queues (LangSmith's queue_type "pairwise"): an item is two runs side by side,
-- run A (run_id) and run B (paired_run_id), typically one example's runs in two experiments.
ALTER TABLE "annotation_queues" ADD COLUMN "queue_type" TEXT NOT NULL DEFAULT 'single';
ALTER TABLE "annotation_queue_runs" ADD COLUMN "paired_run_id" UUID;
