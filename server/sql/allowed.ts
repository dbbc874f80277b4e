/**
 * What a read-only SQL query may contain, by name. Everything not listed is refused before the
 * query reaches the database, which enforces the same bounds again (its role, row-level security,
 * a read-only transaction): these lists keep out what the database would allow a role to call
 * anyway (`set_config`, `pg_sleep`, file and large-object functions, catalog lookups).
 */

/** The views of schema tracelight_sql, the only relations a query may name. */
export const VIEWS = new Set(["runs", "feedback"]);

/** Parse-tree nodes of a SELECT and of the expressions inside it. */
export const NODES = new Set([
  "SelectStmt",
  "ResTarget",
  "ColumnRef",
  "A_Star",
  "A_Const",
  "A_Expr",
  "A_Indirection",
  "A_Indices",
  "A_ArrayExpr",
  "BoolExpr",
  "BooleanTest",
  "NullTest",
  "CaseExpr",
  "CaseWhen",
  "CoalesceExpr",
  "MinMaxExpr",
  "NullIfExpr",
  "RowExpr",
  "SubLink",
  "FuncCall",
  "NamedArgExpr",
  "TypeCast",
  "TypeName",
  "CollateClause",
  "SortBy",
  "WindowDef",
  "GroupingSet",
  "RangeVar",
  "RangeSubselect",
  "RangeFunction",
  "JoinExpr",
  "Alias",
  "CommonTableExpr",
  "SQLValueFunction",
  "String",
  "Integer",
  "Float",
  "Boolean",
  "List",
]);

/** SQL-standard value functions allowed: the clock, not who is asking. */
export const VALUE_FUNCTIONS = new Set([
  "SVFOP_CURRENT_DATE",
  "SVFOP_CURRENT_TIME",
  "SVFOP_CURRENT_TIME_N",
  "SVFOP_CURRENT_TIMESTAMP",
  "SVFOP_CURRENT_TIMESTAMP_N",
  "SVFOP_LOCALTIME",
  "SVFOP_LOCALTIME_N",
  "SVFOP_LOCALTIMESTAMP",
  "SVFOP_LOCALTIMESTAMP_N",
]);

/** Functions without side effects or access beyond their arguments (aggregates, windows, scalars). */
export const FUNCTIONS = new Set([
  // aggregates
  ...["count", "sum", "avg", "min", "max", "stddev", "stddev_pop", "stddev_samp", "variance", "var_pop", "var_samp"],
  ...["percentile_cont", "percentile_disc", "mode", "bool_and", "bool_or", "every", "array_agg", "string_agg"],
  ...["json_agg", "jsonb_agg", "json_object_agg", "jsonb_object_agg", "corr", "covar_pop", "covar_samp"],
  ...["regr_slope", "regr_intercept", "regr_r2", "regr_count"],
  // window functions
  ...["row_number", "rank", "dense_rank", "percent_rank", "cume_dist", "ntile", "lag", "lead"],
  ...["first_value", "last_value", "nth_value"],
  // numbers
  ...["abs", "ceil", "ceiling", "floor", "round", "trunc", "sqrt", "cbrt", "power", "pow", "ln", "log", "log10"],
  ...["exp", "sign", "mod", "div", "width_bucket", "greatest", "least", "scale", "to_number"],
  // text
  ...["lower", "upper", "initcap", "length", "char_length", "character_length", "octet_length", "substring"],
  ...["substr", "left", "right", "position", "strpos", "btrim", "ltrim", "rtrim", "trim", "replace"],
  ...["split_part", "concat", "concat_ws", "starts_with", "regexp_replace", "regexp_match", "regexp_like"],
  ...["regexp_count", "regexp_substr", "reverse", "lpad", "rpad", "md5", "translate", "format", "quote_literal"],
  ...["to_char", "overlay"],
  // time
  ...["now", "date_trunc", "date_part", "extract", "date_bin", "age", "to_timestamp", "to_date", "make_interval"],
  ...["make_date", "make_timestamptz", "justify_interval", "justify_hours", "justify_days", "timezone", "isfinite"],
  ...["statement_timestamp", "transaction_timestamp", "clock_timestamp", "overlaps"],
  // json
  ...["json_extract_path", "json_extract_path_text", "jsonb_extract_path", "jsonb_extract_path_text"],
  ...["json_array_length", "jsonb_array_length", "json_typeof", "jsonb_typeof", "json_array_elements"],
  ...["jsonb_array_elements", "json_array_elements_text", "jsonb_array_elements_text", "json_each", "jsonb_each"],
  ...["json_each_text", "jsonb_each_text", "json_object_keys", "jsonb_object_keys", "to_json", "to_jsonb"],
  ...["json_build_object", "jsonb_build_object", "json_build_array", "jsonb_build_array", "jsonb_strip_nulls"],
  ...["jsonb_path_exists", "jsonb_path_query_first", "jsonb_pretty"],
  // arrays
  ...["array_length", "cardinality", "unnest", "array_to_string", "array_position", "array_remove"],
  ...["array_cat", "array_append", "array_prepend", "array_upper", "array_lower"],
  // conditionals written as functions
  ...["coalesce", "nullif", "num_nulls", "num_nonnulls"],
]);

/** Types a value may be cast to (arrays of them too). */
export const TYPES = new Set([
  ...["int2", "int4", "int8", "smallint", "integer", "int", "bigint", "numeric", "decimal", "float4", "float8", "real"],
  ...["text", "varchar", "bpchar", "char", "name", "bool", "boolean", "uuid", "json", "jsonb"],
  ...["date", "time", "timetz", "timestamp", "timestamptz", "interval"],
]);

/** Functions that answer a set of rows (their number unknown to the planner, which takes 100). */
export const SET_RETURNING = new Set([
  ...["json_array_elements", "jsonb_array_elements", "json_array_elements_text", "jsonb_array_elements_text"],
  ...["json_each", "jsonb_each", "json_each_text", "jsonb_each_text", "json_object_keys", "jsonb_object_keys", "unnest"],
]);

/** Functions a start_time bound may be written with: times from literals and the clock. */
export const BOUND_FUNCTIONS = new Set([
  ...["now", "date_trunc", "date_bin", "make_interval", "make_date", "make_timestamptz", "to_timestamp", "to_date"],
  ...["timezone", "statement_timestamp", "transaction_timestamp", "clock_timestamp"],
]);
