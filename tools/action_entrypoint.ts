/**
 * Entry point of pawl's GitHub Action (a Docker container action; see
 * action.yml). The runner mounts the workspace, the event payload
 * (`GITHUB_EVENT_PATH`) and the file-command files into the container and
 * passes every `GITHUB_*` variable and each input as `INPUT_*`. This script
 * maps the inputs to one `pawl check` or `pawl diff` run in the
 * workspace (so `--now-from event` and the pull request come from the
 * event), then writes the step's outputs — `decision`, `exit-code`,
 * `verdict`, `sarif`, `markdown`, `signed`, `test-result`,
 * `mutation-report` — to
 * `$GITHUB_OUTPUT`, and exits with pawl's exit code (0 accept, 1 reject,
 * 2 undecided).
 *
 * @module
 */
import {
  actionCommandLine,
  ActionInputError,
} from "../src/action/action_command_line.ts";

const MAIN = new URL("../main.ts", import.meta.url).pathname;

async function run(): Promise<number> {
  const env = Deno.env.toObject();
  let line;
  try {
    line = actionCommandLine(env);
  } catch (error) {
    if (!(error instanceof ActionInputError)) throw error;
    await write(Deno.stderr, `pawl action: ${error.message}\n`);
    await writeOutputs(env, { decision: "undecided", "exit-code": "2" });
    return 2;
  }
  const workspace = env["GITHUB_WORKSPACE"] || Deno.cwd();
  const dir = line.files.verdict.slice(0, line.files.verdict.lastIndexOf("/"));
  await Deno.mkdir(`${workspace}/${dir}`, { recursive: true });
  const child = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--cached-only",
      "--frozen",
      "--allow-all",
      MAIN,
      ...line.args,
    ],
    cwd: workspace,
    env: line.env,
    stdin: "null",
    stdout: "inherit",
    stderr: "inherit",
  }).output();
  let decision = "undecided";
  try {
    const verdict = JSON.parse(
      await Deno.readTextFile(`${workspace}/${line.files.verdict}`),
    );
    if (typeof verdict.decision === "string") decision = verdict.decision;
  } catch {
    // No verdict: undecided.
  }
  if (child.code === 2) decision = "undecided";
  const outputs: Record<string, string> = {
    decision,
    "exit-code": String(child.code),
    verdict: line.files.verdict,
    markdown: line.files.markdown,
  };
  if (line.files.sarif !== undefined) outputs["sarif"] = line.files.sarif;
  if (line.files.signed !== undefined && child.code !== 2) {
    outputs["signed"] = line.files.signed;
  }
  if (line.files.testResult !== undefined && child.code !== 2) {
    outputs["test-result"] = line.files.testResult;
  }
  // Written on exit 2 too (a report with no mutants).
  if (line.files.mutationReport !== undefined) {
    outputs["mutation-report"] = line.files.mutationReport;
  }
  await writeOutputs(env, outputs);
  return child.code;
}

async function writeOutputs(
  env: Record<string, string>,
  outputs: Record<string, string>,
): Promise<void> {
  const path = env["GITHUB_OUTPUT"];
  const text = Object.entries(outputs).map(([k, v]) => `${k}=${v}\n`).join("");
  if (path === undefined || path === "") {
    await write(Deno.stdout, text);
    return;
  }
  await Deno.writeTextFile(path, text, { append: true });
}

async function write(
  stream: { write(p: Uint8Array): Promise<number> },
  text: string,
): Promise<void> {
  const bytes = new TextEncoder().encode(text);
  let offset = 0;
  while (offset < bytes.length) {
    offset += await stream.write(bytes.subarray(offset));
  }
}

if (import.meta.main) Deno.exit(await run());
