/**
 * GitHub Actions workflow commands for a verdict: one
 * `::error file=…,line=…,title=<rule>::<message>` line per blocking finding
 * and `::warning …` per advisory one, which the runner turns into
 * annotations on the job and the pull request's diff. They need no token,
 * so a pull request from a fork, whose token cannot publish a check run or
 * a comment, still shows every finding where it is.
 *
 * Values are escaped as the runner unescapes them: in the message `%`,
 * `\r` and `\n` become `%25`, `%0D` and `%0A`; in a property also `:` and
 * `,` (`%3A`, `%2C`), so a hostile message or path can neither end the
 * command early, add a property nor start a second command on a new line.
 *
 * @module
 */
import type { Finding } from "../core/finding.ts";
import type { Verdict } from "../core/verdict.ts";
import { repositoryPath } from "./_finding_key.ts";

/**
 * Render each finding of `verdict` as one workflow command line; an
 * accepted verdict without findings gives "".
 *
 * @example
 * ```ts
 * import { renderWorkflowCommands } from "./render_workflow_commands.ts";
 * import { buildVerdict } from "../core/verdict.ts";
 * import { finding } from "../core/finding.ts";
 * const verdict = buildVerdict([
 *   finding("property.removed", "Property a: removed\n100%", { path: "tests/c.yaml", line: 3 }),
 * ], {
 *   pawl: { version: "0.1.0" }, now: "2026-11-30T12:00:00Z", repo: ".", base: "b".repeat(40), head: "h".repeat(40),
 *   contract: { layouts: [], files: [], digest: "", freezeBodyHashes: [] },
 *   options: { allowFixtureRotate: false, isolation: "auto" }, isolation: null, tests: null,
 * });
 * const text = renderWorkflowCommands(verdict);
 * if (text !== "::error file=tests/c.yaml,line=3,title=property.removed::Property a: removed%0A100%25\n") {
 *   throw new Error(text);
 * }
 * ```
 */
export function renderWorkflowCommands(verdict: Verdict): string {
  return verdict.findings.map(findingCommand).join("");
}

/**
 * The one command of a run that could not decide: an error titled
 * `pawl could not decide`, at the file the reason names when it names one.
 */
export function undecidedWorkflowCommand(
  reason: string,
  at: { path?: string | undefined; line?: number | undefined } = {},
): string {
  return workflowCommand("error", {
    ...location(at.path, at.line),
    title: "pawl could not decide",
  }, reason);
}

function findingCommand(f: Finding): string {
  return workflowCommand(
    f.blocking ? "error" : "warning",
    { ...location(f.path, f.line), title: f.rule },
    f.message.trim() === "" ? f.rule : f.message,
  );
}

function location(
  path: string | undefined,
  line: number | undefined,
): Record<string, string> {
  const file = path === undefined ? undefined : repositoryPath(path);
  if (file === undefined) return {};
  const usable = line !== undefined && Number.isInteger(line) && line >= 1;
  return usable ? { file, line: String(line) } : { file };
}

/** `::name key=value,…::message` and a newline, every part escaped. */
function workflowCommand(
  name: "error" | "warning",
  properties: Record<string, string>,
  message: string,
): string {
  const props = Object.entries(properties)
    .map(([key, value]) => `${key}=${escapeProperty(value)}`)
    .join(",");
  return `::${name}${props === "" ? "" : ` ${props}`}::${
    escapeData(message)
  }\n`;
}

/** The message's escaping: the runner reads it up to the end of the line. */
function escapeData(value: string): string {
  return value.replace(/%/g, "%25").replace(/\r/g, "%0D").replace(
    /\n/g,
    "%0A",
  );
}

/** A property's escaping: also `:` (ends the properties) and `,` (separates them). */
function escapeProperty(value: string): string {
  return escapeData(value).replace(/:/g, "%3A").replace(/,/g, "%2C");
}
