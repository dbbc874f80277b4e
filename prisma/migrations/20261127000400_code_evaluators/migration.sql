-- Code evaluators (issue 36): an evaluator is an LLM judge or a function run in a sandbox. A code
-- evaluator keeps its source and language; its prompt and output schema stay empty ([] and {}).
ALTER TABLE "evaluators"
  ADD COLUMN "type" TEXT NOT NULL DEFAULT 'llm',
  ADD COLUMN "code" TEXT,
  ADD COLUMN "language" TEXT;
