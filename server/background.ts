// What runs in the background, registered at load by the domains that own it: the work after
// ingest (automation rules' claims, server/ingest/after-ingest.ts, and every second), the jobs' handlers (rule actions, evaluations,
// backfills, prompt webhooks, alert evaluations and notifications: server/jobs/queue.ts) and the periodic upkeep (rollup compaction,
// planner statistics, the blob sweep, trace and audit-log retention and the runs' monthly partitions). Loaded by the web server's start (server/startup.ts) and by the worker.
import "./rules/claim";
import "./rules/deliver";
import "./rules/backfill";
import "./evaluators/evaluate";
import "./prompts/webhooks";
import "./alerts/evaluate";
import "./alerts/notify";
import "./runs/rollups/compact";
import "./sql/statistics";
import "./blobs/sweep";
import "./runs/partitions";
import "./runs/retention";
import "./audit/purge";
