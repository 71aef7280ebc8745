/**
 * What in a test command keeps pawl's observer plugin out of the run. pawl
 * leads the interpreter to the plugin two ways: its directory first on
 * `PYTHONPATH`, and the user site of `PYTHONUSERBASE`. A command that
 * replaces `PYTHONPATH` (`env PYTHONPATH=src python3 -m pytest`) still
 * loads it through the user site, unless the interpreter reads none (a
 * virtualenv made without `--system-site-packages`); one that clears the
 * environment or isolates the interpreter loads it neither way. Read from
 * the command's words alone (a shell script's too, word by word), for the
 * message that says what to change. Pure.
 *
 * @module
 */
import { pythonpathProblem } from "../core/pythonpath_problem.ts";

/** What keeps the plugin out, and what to set instead. */
export interface ObserverBlockers {
  /** One phrase per cause, quoting the command's words, in the command's order. */
  causes: string[];
  /**
   * The repository-relative entries of a `PYTHONPATH=` the command sets,
   * for `[environment] pythonpath`; empty when it sets none or none of its
   * entries can be one.
   */
  pythonpath: string[];
}

/** Interpreter options that keep PYTHONPATH or the user site away, and what each does. */
const PYTHON_FLAGS: ReadonlyMap<string, string> = new Map([
  ["I", "isolates the interpreter from PYTHONPATH and the user site"],
  ["E", "makes the interpreter ignore PYTHONPATH and PYTHONUSERBASE"],
  ["s", "turns the user site off"],
  ["S", "turns the site module off, and with it the user site"],
]);

/** Variables besides PYTHONPATH whose assignment keeps the plugin away. */
const VARIABLES: ReadonlyMap<string, string> = new Map([
  ["PYTHONUSERBASE", "replaces the user base pawl puts the plugin in"],
  ["PYTHONNOUSERSITE", "turns the user site off"],
]);

/**
 * What in `command` keeps pawl's observer from loading, and the
 * `pythonpath` entries a `PYTHONPATH=` in it names.
 *
 * @example
 * ```ts
 * import { observerBlockers } from "./observer_blockers.ts";
 * const b = observerBlockers(["python3", "-I", "-m", "pytest"]);
 * if (!b.causes[0]?.startsWith('"-I"')) throw new Error();
 * const p = observerBlockers(["env", "PYTHONPATH=src:lib", "python3", "-m", "pytest"]);
 * if (p.pythonpath.join() !== "src,lib") throw new Error();
 * ```
 */
export function observerBlockers(command: readonly string[]): ObserverBlockers {
  // Stryker disable next-line Regex: splitting at each separator instead of each run of them only adds empty words, which are dropped
  const words = command.flatMap((arg) => arg.split(/[\s;&|]+/))
    .map(unquote).filter((w) => w !== "");
  const causes: string[] = [];
  const pythonpath: string[] = [];
  for (const [i, word] of words.entries()) {
    const name = basename(word);
    if (name === "env") causes.push(...envCauses(words.slice(i + 1)));
    if (/^(python|pypy)[0-9.]*$/.test(name)) {
      causes.push(...flagCauses(words.slice(i + 1)));
    }
    const assignment = /^([A-Z_][A-Z0-9_]*)=(.*)/.exec(word);
    if (assignment === null) continue;
    // Stryker disable next-line StringLiteral: both groups take part in every match, so the defaults are never taken
    const [, variable = "", value = ""] = assignment;
    if (variable === "PYTHONPATH") {
      causes.push(
        `"${word}" replaces the PYTHONPATH pawl puts the plugin on, and the interpreter does not read the user site pawl also puts it in (a virtualenv made without --system-site-packages reads none)`,
      );
      pythonpath.push(
        ...value.split(":").filter((e) => pythonpathProblem(e) === undefined)
          .map((e) => e.replace(/\/+$/, "")),
      );
    } else if (VARIABLES.has(variable)) {
      causes.push(`"${word}" ${VARIABLES.get(variable)}`);
    }
  }
  return { causes: [...new Set(causes)], pythonpath: [...new Set(pythonpath)] };
}

/** `env` options whose value may be the next word. */
const ENV_VALUE_OPTIONS: ReadonlySet<string> = new Set([
  "-u",
  "--unset",
  "-C",
  "--chdir",
]);

/**
 * What `env`'s own options take away. They come first: the first word
 * that is no option (an assignment or the program) or `--` ends them.
 */
function envCauses(rest: readonly string[]): string[] {
  const causes: string[] = [];
  for (let i = 0; i < rest.length; i++) {
    const word = rest[i] as string;
    if (word === "--" || !word.startsWith("-")) break;
    if (word === "-i" || word === "--ignore-environment" || word === "-") {
      causes.push(
        `"env ${word}" clears the environment pawl gives the run (its PYTHONPATH, PYTHONUSERBASE and the plugin's socket)`,
      );
    }
    const value = ENV_VALUE_OPTIONS.has(word) ? rest[++i] : undefined;
    const unset = word === "-u" || word === "--unset"
      ? value
      : /^(?:-u|--unset=)(.+)/.exec(word)?.[1];
    if (
      unset !== undefined &&
      (/^PYTHON(PATH|USERBASE)$/.test(unset) || unset.startsWith("PAWL_"))
    ) {
      causes.push(`"env -u ${unset}" removes ${unset}, which pawl sets`);
    }
  }
  return causes;
}

/** The interpreter options (before `-m`, `-c` or the script) that take it away. */
function flagCauses(rest: readonly string[]): string[] {
  const causes: string[] = [];
  for (const word of rest) {
    if (!/^-[A-Za-z]+$/.test(word)) break;
    // Stryker disable next-line MethodExpression: the leading dash is neither -m, -c nor a flag that keeps the plugin out, so reading it changes nothing
    for (const flag of word.slice(1)) {
      if (flag === "m" || flag === "c") return causes;
      const why = PYTHON_FLAGS.get(flag);
      if (why !== undefined) causes.push(`"-${flag}" ${why}`);
    }
  }
  return causes;
}

function basename(word: string): string {
  return word.slice(word.lastIndexOf("/") + 1);
}

/** The word as the shell passes it on: without its quotes. */
function unquote(word: string): string {
  return word.replace(/["']/g, "");
}
