/**
 * The test command of a run that selects node ids or files: the base's
 * command without the positional arguments that name tests, so pytest
 * runs the selection and nothing else. `pytest tests tests/x.py::t` runs
 * the whole `tests` directory as well as `t`; a run of the registered
 * properties on their own, the base's oracle, a frozen-seed replay, a
 * failure repeated at the base, a collection at the base or a mutant must
 * run only what it selects.
 *
 * @module
 */
import {
  FLAG_OPTIONS,
  OPTIONAL_VALUE_OPTIONS,
  VALUE_OPTIONS,
} from "./_pytest_options.ts";

/** Options for {@linkcode selectionCommand}. */
export interface SelectionCommandOptions {
  /**
   * Whether `path` (relative to the run's working directory, normalized:
   * no `.` or `..` segment, `""` for the directory itself) is a file or
   * directory of the tree the run runs in (see {@linkcode treeHas}).
   */
  exists: (path: string) => Promise<boolean>;
}

/**
 * The base's test `command` for a run that appends a selection: the same
 * argv without each positional argument of pytest that names tests,
 * that is a path of the tree being run (a file or directory, `.` too, or
 * a node id in one) or, under `--pyargs`, a dotted package name. Options
 * and their values stay (`-k expr`, `-m mark`, `-p plugin`, `-o ini=val`,
 * `--rootdir dir`, `--ignore path`, `--deselect id`, in either
 * `--opt value` or `--opt=value` form), and so does:
 *
 * - a positional argument that is no path of the tree: a plugin may read
 *   it, and pytest says "file or directory not found" for it as it does
 *   in the full run;
 * - the argument right after an option pytest 7.2 does not define (a
 *   plugin's, such as `-n 4`): it may be that option's value;
 * - every argument of a command that does not run pytest itself (a
 *   script, `tox`, `make`), whose arguments are not pytest's.
 *
 * pytest's arguments start after `-m pytest` (or `-m py.test`) or after a
 * program named `pytest`/`py.test`; what comes before (the interpreter and
 * its options, `env`, `coverage run`) is kept as is.
 *
 * @example
 * ```ts
 * import { selectionCommand } from "./selection_command.ts";
 * const tree = new Set(["tests"]);
 * const argv = await selectionCommand(
 *   ["python3", "-m", "pytest", "-q", "-k", "tests", "tests"],
 *   { exists: (path) => Promise.resolve(tree.has(path)) },
 * );
 * if (argv.join(" ") !== "python3 -m pytest -q -k tests") throw new Error();
 * ```
 */
export async function selectionCommand(
  command: readonly string[],
  options: SelectionCommandOptions,
): Promise<string[]> {
  const start = pytestArgsStart(command);
  if (start === undefined) return [...command];
  const args = command.slice(start);
  const kinds = argumentKinds(args);
  const pyargs = args.some((a, i) => kinds[i] === "option" && a === "--pyargs");
  const out = command.slice(0, start);
  for (const [i, arg] of args.entries()) {
    if (kinds[i] !== "positional" || !await namesTests(arg, pyargs, options)) {
      out.push(arg);
    }
  }
  return out;
}

/** The real `exists` of {@linkcode selectionCommand}: whether `path` is a file or directory under `workDir`. */
export function treeHas(workDir: string): (path: string) => Promise<boolean> {
  return async (path) => {
    try {
      // Stryker disable next-line ConditionalExpression,StringLiteral: the directory with a trailing slash is the directory itself
      await Deno.lstat(path === "" ? workDir : `${workDir}/${path}`);
      return true;
    } catch {
      // Missing, or unreadable (a symlink loop): not a path the run can
      // collect, so the argument stays as in the full run.
      return false;
    }
  };
}

/** The programs and modules that are pytest. */
const PYTEST = /^(?:pytest|py\.test)(?:-?3)?$/;

/** Index of pytest's first argument, or undefined when `command` does not run pytest itself. */
function pytestArgsStart(command: readonly string[]): number | undefined {
  for (const [i, arg] of command.entries()) {
    // Stryker disable next-line ArithmeticOperator,LogicalOperator,StringLiteral: the word is read only for "-m pytest", which the program-name rule also finds on that next word, at the same index; the word before has been judged by that rule already, and a missing word names no pytest
    const next = command[i + 1] ?? "";
    // Stryker disable next-line ConditionalExpression,StringLiteral: "-m pytest" is also found by the program-name rule on the next word, at the same index; a missing next word names no pytest
    if (arg === "-m" && PYTEST.test(next)) return i + 2;
    if (arg.startsWith("-m") && PYTEST.test(arg.slice(2))) return i + 1;
    if (PYTEST.test(arg.slice(arg.lastIndexOf("/") + 1))) return i + 1;
  }
  return undefined;
}

/**
 * How pytest's parser reads each argument: an option, an option's value,
 * the next argument after an unknown option (which may be its value), or
 * a positional argument.
 */
type ArgumentKind = "option" | "value" | "maybe-value" | "positional";

function argumentKinds(args: readonly string[]): ArgumentKind[] {
  const kinds: ArgumentKind[] = [];
  let next: ArgumentKind | "optional-value" = "positional";
  let rest = false;
  for (const arg of args) {
    const option = !rest && arg.length > 1 && arg.startsWith("-");
    // Stryker disable next-line ConditionalExpression,StringLiteral: a non-option after a positional is pushed as that next kind, "positional", as the branch below pushes it
    if (next === "value" || (next !== "positional" && !option)) {
      // Stryker disable next-line ConditionalExpression,EqualityOperator,StringLiteral: only whether a kind is "positional" or "option" is ever read, and this one is neither
      kinds.push(next === "optional-value" ? "value" : next);
      next = "positional";
      continue;
    }
    next = "positional";
    if (!option) {
      kinds.push("positional");
      continue;
    }
    kinds.push("option");
    if (arg === "--") rest = true;
    else next = arg.startsWith("--") ? longOption(arg) : shortOptions(arg);
  }
  return kinds;
}

/** What the argument after the long option `arg` is. */
function longOption(arg: string): ArgumentKind | "optional-value" {
  if (arg.includes("=")) return "positional";
  if (VALUE_OPTIONS.has(arg)) return "value";
  // An optional value is read as an unknown option's maybe-value is: the
  // kind only names what pytest does.
  // Stryker disable next-line ConditionalExpression,StringLiteral: any kind other than "value" and "positional" reads the next argument the same way
  if (OPTIONAL_VALUE_OPTIONS.has(arg)) return "optional-value";
  // Stryker disable next-line StringLiteral: any kind other than "value" and "positional" reads the next argument as "maybe-value" does
  return FLAG_OPTIONS.has(arg) ? "positional" : "maybe-value";
}

/**
 * What the argument after the short options `arg` is: flags may be
 * grouped (`-vx`), and the first that takes a value takes the rest of
 * `arg` (`-kexpr`, `-k=expr`), or the next argument when nothing is left.
 */
function shortOptions(arg: string): ArgumentKind {
  // Stryker disable next-line EqualityOperator: one more turn reads "-undefined", an unknown option that is not last, so "positional" as after the loop
  for (let i = 1; i < arg.length; i++) {
    const option = `-${arg[i]}`;
    const last = i === arg.length - 1;
    if (VALUE_OPTIONS.has(option)) return last ? "value" : "positional";
    // Stryker disable next-line StringLiteral: any kind other than "value" and "positional" reads the next argument as "maybe-value" does
    if (!FLAG_OPTIONS.has(option)) return last ? "maybe-value" : "positional";
  }
  return "positional";
}

/** A dotted Python name, as `--pyargs` reads a positional argument. */
const DOTTED = /^[\p{L}_][\p{L}\p{N}_]*(?:\.[\p{L}_][\p{L}\p{N}_]*)*$/u;

/** Whether the positional argument `arg` names tests pytest would collect. */
async function namesTests(
  arg: string,
  pyargs: boolean,
  options: SelectionCommandOptions,
): Promise<boolean> {
  // Stryker disable next-line StringLiteral: split() always gives at least one part, so the fallback is never taken
  const target = arg.split("::")[0] ?? "";
  const path = treePath(target);
  if (path !== undefined && await options.exists(path)) return true;
  return pyargs && DOTTED.test(target);
}

/**
 * `arg` as a normalized path relative to the working directory, or
 * undefined when it is empty, absolute or leaves the tree.
 */
function treePath(arg: string): string | undefined {
  if (arg === "" || arg.startsWith("/")) return undefined;
  const parts: string[] = [];
  for (const part of arg.split("/")) {
    if (part === "" || part === ".") continue;
    if (part === "..") {
      if (parts.pop() === undefined) return undefined;
    } else parts.push(part);
  }
  return parts.join("/");
}
