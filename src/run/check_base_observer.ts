/**
 * A test run that never loaded pawl's observer plugin (nothing connected
 * to its stream) may owe that to the base's own test command (`python3
 * -I`, `env -i`, a `PYTHONPATH` of its own under a virtualenv that reads
 * no user site) or to the pull request (a `sitecustomize` it added, a
 * `.pth`, pytest configuration). pytest imports the plugin while it
 * starts, before any test or conftest: the same command on the base's own
 * tree, stopped right after (`--version`), tells the two apart.
 *
 * @module
 */
import type { Sandbox } from "../sandbox/sandbox.ts";
import { observerBlockers } from "./observer_blockers.ts";
import {
  DEFAULT_PYTEST_COMMAND,
  runPytest,
  type RunPytestOptions,
} from "./run_pytest.ts";

/** Lines of the base run's output quoted in the message. */
const QUOTED_LINES = 3;

/**
 * The base's test command does not load pawl's observer on the base's own
 * tree either: could not decide (exit 2), naming what to set instead.
 */
export class ObserverNotLoadedError extends Error {
  /** The base commit. */
  readonly base: string;
  /** What in the command keeps the plugin out, as far as its words tell. */
  readonly causes: readonly string[];

  /**
   * Build the error for `command` (the base's, as run), with the end of
   * the base run's output as `detail`.
   */
  constructor(base: string, command: readonly string[], detail: string) {
    const { causes, pythonpath } = observerBlockers(command);
    const entries = pythonpath.length === 0
      ? ""
      : ` = [${pythonpath.map((e) => JSON.stringify(e)).join(", ")}]`;
    const why = causes.length === 0
      ? "the command's words do not say why (a script may set PYTHONPATH, or the interpreter may be a virtualenv's that reads no user site)"
      : causes.join("; ");
    super(
      `Cannot judge the pull request: pawl's observer plugin does not load under the base's test command at the base commit ${base} either, so the run's failure at head is not the pull request's doing: ${why}; pawl puts the plugin on the run's PYTHONPATH and in its user site (PYTHONUSERBASE), so the base's [tests] command must leave both in place: name the import path in pawl.toml as [environment] pythonpath${entries}, and other variables as [environment] env${
        detail === "" ? "" : `:\n${detail}`
      }`,
    );
    this.name = "ObserverNotLoadedError";
    this.base = base;
    this.causes = causes;
  }
}

/** Options for {@linkcode checkBaseObserver}. */
export interface BaseObserverOptions {
  /** The base commit id, for the message. */
  base: string;
  /** A fresh export of the base tree, prepared for the sandbox. */
  baseWorkDir: () => Promise<string>;
  /** How the run that did not load the observer was made (its observer included). */
  run: Omit<RunPytestOptions, "workDir" | "select">;
}

/**
 * Start the run's command on the base tree, stopped once pytest has
 * loaded its plugins; throw {@linkcode ObserverNotLoadedError} when pawl's
 * observer did not connect there either. Returns when it did: then what
 * kept it out at head is the pull request's.
 */
export async function checkBaseObserver(
  sandbox: Sandbox,
  options: BaseObserverOptions,
): Promise<void> {
  const { run, base } = options;
  if (run.observer === undefined) return;
  const workDir = await options.baseWorkDir();
  // `--version` selects nothing: the command stays whole, positional
  // paths included, as the run that did not load the observer had it.
  const result = await runPytest(sandbox, {
    ...run,
    command: [...(run.command ?? DEFAULT_PYTEST_COMMAND), "--version"],
    workDir,
  });
  // Stryker disable next-line OptionalChaining: a run with an observer always has its channel's observation; the chain only satisfies the type
  if (result.observation?.hello === true) return;
  const module = run.observer.module;
  const detail = result.result.outputTail.split("\n")
    .map((l) => l.trimEnd()).filter((l) => l !== "").slice(-QUOTED_LINES)
    .join("\n").replaceAll(module, "_pawl_observer_…")
    .replaceAll(workDir, "<tree>").replaceAll(run.reportDir, "<reports>");
  throw new ObserverNotLoadedError(
    base,
    run.command ?? DEFAULT_PYTEST_COMMAND,
    detail,
  );
}
