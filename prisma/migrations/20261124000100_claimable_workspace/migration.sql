-- The workspace start-up creates (and prints a key for) waits for its owner: the first account to
-- sign up joins it as admin instead of getting a new, empty workspace. An install that started
-- before this change gets the same for its first workspace if nobody has joined it yet.
ALTER TABLE "workspaces" ADD COLUMN "claimable" BOOLEAN NOT NULL DEFAULT false;
UPDATE "workspaces" SET "claimable" = true
WHERE "id" = (SELECT "id" FROM "workspaces" ORDER BY "created_at", "id" LIMIT 1)
  AND NOT EXISTS (SELECT 1 FROM "memberships" m WHERE m."workspace_id" = "workspaces"."id");
