/**
 * Contract files, read strictly and judged purely. The generic pieces live
 * here: {@linkcode parseYamlDocument} (size-capped, alias-free,
 * duplicate-free YAML with source lines), {@linkcode ContractSyntaxError}
 * (the one "cannot decide" error of every reader), RFC 3339 instants
 * ({@linkcode parseRfc3339}) and fixture path hygiene
 * ({@linkcode checkFixturePath}); each contract layout has its own folder
 * under `src/layouts/`, which builds on these. Strict JSON with lines ({@linkcode parseJsonDocument}),
 * schema issues as errors ({@linkcode schemaIssueError}) and Hypothesis
 * settings comparisons ({@linkcode weakenedSettings}) are shared too.
 *
 * @module
 */
export * from "./check_fixture_path.ts";
export * from "./contract_syntax_error.ts";
export * from "./format_key_path.ts";
export * from "./identity_key.ts";
export * from "./module_path.ts";
export * from "./parse_json_document.ts";
export * from "../core/parse_rfc3339.ts";
export * from "./parse_yaml_document.ts";
export * from "./schema_issue_error.ts";
export * from "./weakened_settings.ts";
export * from "./refuse_oversize.ts";
