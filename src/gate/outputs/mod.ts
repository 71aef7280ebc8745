/**
 * The one home of everything a judgement is written to: the verdict file,
 * the signed envelope, the seed ledger, SARIF/JUnit/Markdown, the Actions
 * step summary, the pull request on GitHub, and the "undecided" rewrite of
 * every report when a run cannot decide. A new output goes here.
 *
 * @module
 */
export * from "./write_outputs.ts";
export * from "./write_undecided_outputs.ts";
export * from "./publish_to_pull_request.ts";
export * from "./write_output_file.ts";
