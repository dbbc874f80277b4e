-- Feedback on a whole thread (issue 38, LangSmith's thread feedback): no run, the project in
-- `project_id` and the conversation in `thread_id` (runs.thread_id's value). Partial index: run
-- feedback, the common case, adds no entry.
ALTER TABLE "feedback" ADD COLUMN "thread_id" TEXT;
CREATE INDEX "feedback_thread_idx" ON "feedback" ("workspace_id", "project_id", "thread_id") WHERE "thread_id" IS NOT NULL;
