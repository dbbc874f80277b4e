import { z } from "zod";
import { flag, many } from "../http/query-params";

/** Repo names as LangSmith accepts them: letters, digits, "-", "_" and "."; no "/" or ":" (they split identifiers). */
export const repoHandle = z
  .string()
  .trim()
  .min(1, "must not be empty")
  .max(128)
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, "may contain only letters, digits, '-', '_' and '.', and must start with a letter or digit");

/** Workspace (tenant) handles: lowercase letters, digits, "-" and "_", 3 to 64 characters. */
export const tenantHandle = z
  .string()
  .trim()
  .min(3)
  .max(64)
  .regex(/^[a-z0-9][a-z0-9_-]*$/, "may contain only lowercase letters, digits, '-' and '_', and must start with a letter or digit");

/** What a hub repo holds: a prompt manifest per commit, or (agent, skill) a directory of files. */
export const REPO_TYPES = ["prompt", "agent", "skill"] as const;
export type RepoType = (typeof REPO_TYPES)[number];

const tags = z.array(z.string().trim().min(1).max(128)).max(100);

/** POST /repos/ as the SDKs send it. */
export const repoCreate = z.looseObject({
  repo_handle: repoHandle,
  description: z.string().max(10_000).nullish(),
  readme: z.string().max(1_000_000).nullish(),
  tags: tags.nullish(),
  is_public: z.boolean().nullish(),
  repo_type: z.enum(REPO_TYPES).optional(),
});
type WireRepoCreate = z.infer<typeof repoCreate>;

/** A new repo of the caller's workspace, in the domain's words (a private prompt unless said otherwise). */
export interface NewRepo {
  handle: string;
  repoType?: RepoType;
  description?: string | null;
  readme?: string | null;
  tags?: string[] | null;
  isPublic?: boolean | null;
}

/** POST /repos/' body as a new repo. */
export function newRepoFromWire(body: WireRepoCreate): NewRepo {
  return {
    handle: body.repo_handle,
    repoType: body.repo_type,
    description: body.description,
    readme: body.readme,
    tags: body.tags,
    isPublic: body.is_public,
  };
}

/** PATCH /repos/{owner}/{repo}: any subset; absent and null fields keep their value. */
export const repoUpdate = z.looseObject({
  description: z.string().max(10_000).nullish(),
  readme: z.string().max(1_000_000).nullish(),
  tags: tags.nullish(),
  is_public: z.boolean().nullish(),
  is_archived: z.boolean().nullish(),
});
export type RepoUpdate = z.infer<typeof repoUpdate>;

export const SORT_FIELDS = ["updated_at", "created_at", "num_likes", "num_downloads", "num_views", "repo_handle", "relevance"] as const;

/** GET /repos/ query parameters. */
export const repoListQuery = z.looseObject({
  limit: z.coerce.number().int().min(1).max(1000).default(100),
  offset: z.coerce.number().int().min(0).default(0),
  query: z.string().optional(),
  match_prefix: flag,
  is_public: flag,
  /** "true" archived only, "false" (default) unarchived only, "allow" both. */
  is_archived: z
    .enum(["true", "false", "allow", "True", "False"])
    .default("false")
    .transform((v) => v.toLowerCase() as "true" | "false" | "allow"),
  tags: many(z.string()),
  has_commits: flag,
  is_liked: flag,
  tenant_handle: z.string().optional(),
  tenant_id: z.string().optional(),
  /** One or several kinds; absent lists prompts only, as listPrompts expects (listAgents and listSkills send it). */
  repo_type: many(z.enum(REPO_TYPES)).transform((v): RepoType[] => v ?? ["prompt"]),
  sort_field: z.enum(SORT_FIELDS).default("updated_at"),
  sort_direction: z.enum(["asc", "desc"]).default("desc"),
});
export type WireRepoListQuery = z.infer<typeof repoListQuery>;

/** Which repos a list shows, in the domain's words: every field narrows, absent fields do not. */
export interface RepoFilter {
  /** The kinds listed (prompts only when absent). */
  repoTypes?: RepoType[];
  /** Text in the handle or description; only a handle's beginning with `matchPrefix`. */
  query?: string;
  matchPrefix?: boolean;
  isPublic?: boolean;
  /** "only" archived repos, "none" of them (when absent), or "both". */
  archived?: "only" | "none" | "both";
  /** Every one of these tags. */
  tags?: string[];
  hasCommits?: boolean;
  /** Liked (or not) by the caller. */
  isLiked?: boolean;
  /** Another workspace's public repos, by its handle or id (the caller's own when absent). */
  tenantHandle?: string;
  tenantId?: string;
  /** Newest update first when absent. */
  sortField?: (typeof SORT_FIELDS)[number];
  sortDirection?: "asc" | "desc";
  /** 0 and 100 when absent. */
  offset?: number;
  limit?: number;
}

const ARCHIVED = { true: "only", false: "none", allow: "both" } as const;

/** GET /repos/' query parameters as a filter. */
export function repoFilterFromWire(q: WireRepoListQuery): RepoFilter {
  return {
    repoTypes: q.repo_type,
    query: q.query,
    matchPrefix: q.match_prefix,
    isPublic: q.is_public,
    archived: ARCHIVED[q.is_archived],
    tags: q.tags,
    hasCommits: q.has_commits,
    isLiked: q.is_liked,
    tenantHandle: q.tenant_handle,
    tenantId: q.tenant_id,
    sortField: q.sort_field,
    sortDirection: q.sort_direction,
    offset: q.offset,
    limit: q.limit,
  };
}

/** POST /commits/{owner}/{repo}: the manifest is opaque JSON (a serialized LangChain object, messages...). */
export const commitCreate = z.looseObject({
  manifest: z.unknown().refine((v) => v !== undefined && v !== null, "is required: the prompt's serialized JSON"),
  parent_commit: z.string().trim().nullish(),
  description: z.string().max(10_000).nullish(),
  examples: z.array(z.unknown()).max(1000).nullish(),
});
type WireCommitCreate = z.infer<typeof commitCreate>;

/** A new commit of a prompt: its manifest on top of `parentCommit` (a hash or prefix; the latest when absent). */
export interface NewCommit {
  manifest: unknown;
  parentCommit?: string | null;
  description?: string | null;
  examples?: unknown[] | null;
}

/** POST /commits/{owner}/{repo}'s body as a new commit. */
export function newCommitFromWire(body: WireCommitCreate): NewCommit {
  return { manifest: body.manifest, parentCommit: body.parent_commit, description: body.description, examples: body.examples };
}

export const commitListQuery = z.looseObject({
  limit: z.coerce.number().int().min(1).max(1000).default(100),
  offset: z.coerce.number().int().min(0).default(0),
});
/** A page of a repo's commits, newest first (the query parameters and the domain's words are the same). */
export interface CommitPage {
  offset: number;
  limit: number;
}

export const commitReadQuery = z.looseObject({ include_model: flag, is_view: flag });

export const likeBody = z.looseObject({ like: z.boolean() });

export const tagCreate = z.looseObject({
  tag_name: z
    .string()
    .trim()
    .min(1)
    .max(128)
    .regex(/^[^/:\s]+$/, "must not contain '/', ':' or spaces"),
  commit_id: z.string().trim().min(1),
});

export const handleBody = z.looseObject({ tenant_handle: tenantHandle });

/** The repo kinds whose commits hold a directory of files instead of a manifest. */
export const DIRECTORY_TYPES = ["agent", "skill"] as const;
export type DirectoryType = (typeof DIRECTORY_TYPES)[number];

/**
 * A path in an agent's or skill's directory: relative, "/"-separated, no empty, "." or ".."
 * segment, no backslash or control character, so every client can write it to a disk as it is.
 */
const isDirectoryPath = (p: string) =>
  p.length > 0 && p.length <= 1024 && !/[\\\p{Cc}]/u.test(p) && p.split("/").every((s) => s !== "" && s !== "." && s !== "..");

const dropNullish = <T extends Record<string, unknown>>(entry: T) =>
  Object.fromEntries(Object.entries(entry).filter(([, v]) => v !== null && v !== undefined)) as T;

const linkEntry = <T extends DirectoryType>(type: T) =>
  z
    .object({
      type: z.literal(type),
      repo_handle: repoHandle,
      owner: z.string().max(128).nullish(),
      commit_id: z.uuid().nullish(),
      commit_hash: z
        .string()
        .regex(/^[0-9a-f]{8,64}$/, "must be 8-64 lowercase hex digits")
        .nullish(),
    })
    .transform(dropNullish);

/** A file (its text) or a link to another agent or skill repo, as the SDKs' `Entry` types describe them. */
export const directoryEntry = z.discriminatedUnion("type", [
  z.object({ type: z.literal("file"), content: z.string() }),
  linkEntry("agent"),
  linkEntry("skill"),
]);
export type DirectoryEntry = z.infer<typeof directoryEntry>;

/** POST /v1/platform/hub/repos/{owner}/{repo}/directories/commits: changes on top of the latest commit; null removes a path. */
export const directoryCommitCreate = z.looseObject({
  files: z.record(z.string(), directoryEntry.nullable()).superRefine((files, ctx) => {
    const paths = Object.keys(files);
    if (paths.length === 0)
      ctx.addIssue({ code: "custom", message: "must name at least one path (an entry to write, or null to remove it)" });
    // Checked here rather than by a key schema, whose failure would not say what a path must be.
    for (const path of paths.filter((p) => !isDirectoryPath(p))) {
      ctx.addIssue({
        code: "custom",
        path: [path],
        message:
          "must be a relative path of '/'-separated names, 1-1024 characters (no leading or doubled '/', no '.' or '..', no '\\' or control characters)",
      });
    }
  }),
  parent_commit: z.string().trim().min(4).max(64).nullish(),
});
export type DirectoryCommitCreate = z.infer<typeof directoryCommitCreate>;

/** GET /v1/platform/hub/repos/{owner}/{repo}/directories: `commit` is a hash (prefix), a tag or "latest" (the default). */
export const directoryReadQuery = z.looseObject({
  repo_type: z.enum(DIRECTORY_TYPES).optional(),
  commit: z.string().trim().min(1).max(128).optional(),
});
export type DirectoryReadQuery = z.infer<typeof directoryReadQuery>;
