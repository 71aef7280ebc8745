/**
 * One shell command that runs a failed test in a checkout the way pawl ran
 * it: the base's test command (its positional test paths left out, as in
 * every run that selects tests), the seed flags pawl added, the test's node
 * id, and every variable pawl set that can change the outcome. What exists
 * only inside pawl's sandbox (its observer plugin, the JUnit report, the
 * sandbox's HOME and PATH) is left out.
 *
 * @module
 */
import { selectionCommand } from "./selection_command.ts";

/**
 * Variables every run of pawl's sets (see `pytestEnvironment`) that change
 * what a test does: the hash seed fixes set and dict iteration order.
 */
export const FIXED_RUN_ENV: Readonly<Record<string, string>> = {
  PYTHONHASHSEED: "0",
};

/** Variables of a run that describe the sandbox, not the test: a checkout has its own. */
const SANDBOX_ONLY = new Set(["PATH", "HOME", "TMPDIR"]);

/** Options for {@linkcode reproducer}. */
export interface ReproducerOptions {
  /** Whether a path relative to the repository root is a file or directory of the head's tree. */
  exists: (path: string) => Promise<boolean>;
}

/** Builds the command that reproduces one test's failure, by node id. */
export type Reproducer = (nodeId: string) => string;

/**
 * The reproducer of a run made with `command` and `env` (as planned, before
 * pawl's own report and plugin flags).
 *
 * @example
 * ```ts
 * import { reproducer } from "./reproduce_command.ts";
 * const reproduce = await reproducer(
 *   ["python3", "-m", "pytest", "-q", "tests", "--hypothesis-seed=7"],
 *   { CONTRACT_SEED: "7" },
 *   { exists: (path) => Promise.resolve(path === "tests") },
 * );
 * const command = reproduce("tests/test_a.py::test_a");
 * if (command !== "CONTRACT_SEED=7 PYTHONHASHSEED=0 python3 -m pytest -q --hypothesis-seed=7 'tests/test_a.py::test_a'") {
 *   throw new Error(command);
 * }
 * ```
 */
export async function reproducer(
  command: readonly string[],
  env: Readonly<Record<string, string>>,
  options: ReproducerOptions,
): Promise<Reproducer> {
  const argv = await selectionCommand(command, options);
  return (nodeId) => reproduceCommand(argv, env, nodeId);
}

/**
 * `argv` (already without its positional test paths) run on `nodeId` with
 * `env` and {@linkcode FIXED_RUN_ENV}, every word shell-quoted where it
 * needs it and the node id always.
 */
export function reproduceCommand(
  argv: readonly string[],
  env: Readonly<Record<string, string>>,
  nodeId: string,
): string {
  const vars = { ...FIXED_RUN_ENV, ...env };
  const assignments = Object.keys(vars)
    .filter((name) => !SANDBOX_ONLY.has(name))
    .sort()
    .map((name) => `${name}=${shellWord(vars[name] as string)}`);
  return [
    ...assignments,
    ...argv.map(shellWord),
    quoted(nodeId),
  ].join(" ");
}

/** `word` as the shell reads it back: bare when it is safe so, else single-quoted. */
export function shellWord(word: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(word) ? word : quoted(word);
}

function quoted(word: string): string {
  return `'${word.replaceAll("'", `'\\''`)}'`;
}
