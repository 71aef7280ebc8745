/**
 * The GitHub Action's inputs (`INPUT_*`, as the runner passes them to a
 * Docker container action) mapped to one `pawl check` / `pawl diff`
 * command line, and the files whose paths become the step's outputs.
 *
 * @module
 */

/** The files the action asks pawl to write, relative to the workspace. */
export interface ActionFiles {
  /** The verdict JSON (`--out`). */
  verdict: string;
  /** SARIF (`--sarif`), unless the `sarif` input is `false`. */
  sarif?: string;
  /** The Markdown report (`--markdown`). */
  markdown: string;
  /** The signed verdict (`--out-signed`), when a signing key is given. */
  signed?: string;
  /** The signed test-result statement, for `check` with a signing key. */
  testResult?: string;
  /** The mutation-testing-elements JSON (`--mutation-report`), when the `mutation_report` input is `true`. */
  mutationReport?: string;
}

/** What the entry script runs and what it reports. */
export interface ActionCommandLine {
  /** Arguments after `pawl`. */
  args: string[];
  /** Environment to add for pawl (token, signing key). */
  env: Record<string, string>;
  /** Output files. */
  files: ActionFiles;
}

/** An input that cannot be used. */
export class ActionInputError extends TypeError {
  /** Build the error. */
  constructor(message: string) {
    super(message);
    this.name = "ActionInputError";
  }
}

/**
 * Build the command line from the runner's environment. Inputs:
 * `command` (`check` | `diff`, default `check`), `now` (RFC 3339; empty:
 * the event's `pull_request.updated_at`, `--now-from event`), `out_dir`
 * (default `pawl-out`), `isolation` (default `auto`), `sarif`
 * (default `true`), `publish` (default `true`), `token`, `signing_key`
 * (a PEM), `allow_fixture_rotate` (default `false`), `mutation_report`
 * (default `false`; `check` only).
 *
 * @example
 * ```ts
 * import { actionCommandLine } from "./action_command_line.ts";
 * const line = actionCommandLine({ "INPUT_COMMAND": "diff", "INPUT_NOW": "" });
 * if (line.args.join(" ") !== "diff --now-from event --out pawl-out/verdict.json --markdown pawl-out/pawl.md --isolation auto --sarif pawl-out/pawl.sarif --publish") {
 *   throw new Error(line.args.join(" "));
 * }
 * ```
 */
export function actionCommandLine(
  env: Readonly<Record<string, string>>,
): ActionCommandLine {
  const input = (name: string) =>
    (env[`INPUT_${name.toUpperCase()}`] ?? "").trim();
  const command = input("command") || "check";
  if (command !== "check" && command !== "diff") {
    throw new ActionInputError(
      `Cannot use input "command" = "${command}": expected "check" or "diff"`,
    );
  }
  const dir = (input("out_dir") || "pawl-out").replace(/\/+$/, "");
  if (dir.startsWith("/") || dir.split("/").includes("..")) {
    throw new ActionInputError(
      `Cannot use input "out_dir" = "${dir}": it must be a path inside the workspace`,
    );
  }
  const now = input("now");
  const files: ActionFiles = {
    verdict: `${dir}/verdict.json`,
    markdown: `${dir}/pawl.md`,
  };
  const args = [
    command,
    ...(now === "" ? ["--now-from", "event"] : ["--now", now]),
    "--out",
    files.verdict,
    "--markdown",
    files.markdown,
    "--isolation",
    input("isolation") || "auto",
  ];
  if (flag(input, "sarif", true)) {
    files.sarif = `${dir}/pawl.sarif`;
    args.push("--sarif", files.sarif);
  }
  args.push(flag(input, "publish", true) ? "--publish" : "--no-publish");
  if (flag(input, "allow_fixture_rotate", false)) {
    args.push("--allow-fixture-rotate");
  }
  if (flag(input, "mutation_report", false)) {
    if (command !== "check") {
      throw new ActionInputError(
        `Cannot use input "mutation_report" = "true" with "command" = "${command}": pawl diff runs no mutants; use "command" = "check"`,
      );
    }
    files.mutationReport = `${dir}/mutation-report.json`;
    args.push("--mutation-report", files.mutationReport);
  }
  const extra: Record<string, string> = {};
  const token = input("token");
  if (token !== "") extra["GITHUB_TOKEN"] = token;
  const key = env["INPUT_SIGNING_KEY"] ?? "";
  if (key.trim() !== "") {
    extra["PAWL_SIGNING_KEY"] = key;
    files.signed = `${dir}/verdict.dsse.json`;
    args.push("--out-signed", files.signed);
    if (command === "check") {
      files.testResult = `${dir}/test-result.dsse.json`;
      args.push("--out-test-result", files.testResult);
    }
  }
  return { args, env: extra, files };
}

function flag(
  input: (name: string) => string,
  name: string,
  fallback: boolean,
): boolean {
  const value = input(name).toLowerCase();
  if (value === "") return fallback;
  if (value === "true") return true;
  if (value === "false") return false;
  throw new ActionInputError(
    `Cannot use input "${name}" = "${value}": expected "true" or "false"`,
  );
}
