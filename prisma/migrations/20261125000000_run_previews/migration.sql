-- A short plain-text preview of each run's inputs and outputs, computed at ingest, so the runs
-- table shows what a run was about without reading its (possibly large) JSON. Runs stored before
-- this migration have none.
ALTER TABLE runs ADD COLUMN input_preview text, ADD COLUMN output_preview text;
