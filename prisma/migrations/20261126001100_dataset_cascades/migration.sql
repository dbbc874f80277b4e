-- A dataset's example versions and tags belong to it: deleting the dataset deletes them (until
-- now the service deleted each table's rows by hand). Rows of a dataset already gone, which no
-- read can reach, go first so the keys can be added.
DELETE FROM "example_versions" v WHERE NOT EXISTS (SELECT 1 FROM "datasets" d WHERE d."id" = v."dataset_id");
DELETE FROM "dataset_tags" g WHERE NOT EXISTS (SELECT 1 FROM "datasets" d WHERE d."id" = g."dataset_id");

ALTER TABLE "example_versions" ADD CONSTRAINT "example_versions_dataset_id_fkey"
  FOREIGN KEY ("dataset_id") REFERENCES "datasets"("id") ON DELETE CASCADE;
ALTER TABLE "dataset_tags" ADD CONSTRAINT "dataset_tags_dataset_id_fkey"
  FOREIGN KEY ("dataset_id") REFERENCES "datasets"("id") ON DELETE CASCADE;
