/**
 * CI reports of a verdict, each a pure function of it: SARIF 2.1.0 for
 * code-scanning upload ({@linkcode renderSarif}), JUnit XML for CI test
 * views with one testcase per finding ({@linkcode renderJunit}), GitLab
 * Code Quality ({@linkcode renderCodeQuality}), GitHub Actions workflow
 * commands that annotate a fork's pull request
 * ({@linkcode renderWorkflowCommands}), the
 * Markdown of the sticky pull-request comment and the job summary
 * ({@linkcode renderMarkdown}, found again by {@linkcode MARKDOWN_MARKER}),
 * and docs/rules.md, the page every SARIF rule links to
 * ({@linkcode renderRulesDoc}).
 *
 * @module
 */
export * from "./render_codequality.ts";
export * from "./render_junit.ts";
export * from "./render_markdown.ts";
export * from "./render_rules_doc.ts";
export * from "./render_sarif.ts";
export * from "./render_workflow_commands.ts";
export * from "./markdown_text.ts";
