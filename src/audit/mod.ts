/**
 * Audits of past pull requests (`pawl audit`): which pull requests to
 * judge (`--prs`, `--since`, `--shard`), the clock each is judged at (one
 * `--now`, or its own `merged_at` / `created_at`), one record per pull
 * request, and the report folded from every record of an output directory
 * — `audit.json`, `audit.md` and a self-contained `audit.html` with
 * decisions and the most common weakening rules over time. Everything
 * here is pure except the audit's shell: `runAudit` lists, judges each pull
 * request through the gate and writes the records (`plan_audit_jobs.ts`)
 * and the report (`write_audit_report.ts`); `src/cli/audit_command.ts`
 * only maps the flags and prints.
 *
 * @module
 */
export * from "./audit_option_error.ts";
export * from "./parse_pull_request_numbers.ts";
export * from "./parse_shard.ts";
export * from "./parse_since.ts";
export * from "./audit_pull_request.ts";
export * from "./select_pull_requests.ts";
export * from "./choose_clock.ts";
export * from "./audit_record.ts";
export * from "./read_audit_record.ts";
export * from "./build_audit_report.ts";
export * from "./render_audit_json.ts";
export * from "./render_audit_markdown.ts";
export * from "./render_audit_html.ts";
export * from "./run_pool.ts";
export * from "./plan_audit_jobs.ts";
export * from "./write_audit_report.ts";
export * from "./run_audit.ts";
