-- Who reviews a queue (LangSmith's reviewer_access_mode): any member who may review, or only
-- the queue's assigned reviewers (annotation_queue_reviewers).
ALTER TABLE "annotation_queues"
  ADD COLUMN "reviewer_access_mode" TEXT NOT NULL DEFAULT 'any'
  CHECK ("reviewer_access_mode" IN ('any', 'assigned'));
