/**
 * A test file that fails to collect at head although the pull request did
 * not change it may be broken at the base already: then the failure is not
 * the pull request's fault and pawl cannot decide (exit 2) until the base
 * is fixed. Collecting the same files on the base tree tells the two apart.
 *
 * @module
 */
import type { Sandbox } from "../sandbox/sandbox.ts";
import {
  DEFAULT_PYTEST_COMMAND,
  runPytest,
  type RunPytestOptions,
} from "./run_pytest.ts";

/** The base commit itself cannot collect its tests: could not decide. */
export class BaseProblemError extends Error {
  /** The base commit. */
  readonly base: string;
  /** The files that fail to collect at the base. */
  readonly files: readonly string[];

  /**
   * Build the error: `files` fail to collect at the base; with `what`
   * "pass", those tests fail there (an excuse may cover them on this
   * runner); with "property", they include a registered property, which no
   * excuse may hide; with "run", the base's test command leaves no usable
   * report at all (`files` is then empty).
   */
  constructor(
    base: string,
    files: readonly string[],
    detail: string,
    what: "collect" | "pass" | "property" | "run" = "collect",
  ) {
    super(baseProblemText(base, files, detail, what));
    this.name = "BaseProblemError";
    this.base = base;
    this.files = files;
  }
}

/** Options for {@linkcode checkBaseCollection}. */
export interface BaseCollectionOptions {
  /** The base commit id, for the message. */
  base: string;
  /** Files the base has that failed to collect at head. */
  files: readonly string[];
  /**
   * Whether `file` failing at the base with `text` is the way it failed at
   * the head (default: any failure is).
   */
  same?: (file: string, text: string) => boolean;
  /** A fresh export of the base tree, prepared for the sandbox. */
  baseWorkDir: () => Promise<string>;
  /** How the run is made. */
  run: Omit<RunPytestOptions, "workDir" | "select">;
  /** A sentence to add to the error for this traceback (what to configure), if any. */
  hint?: (detail: string, files: readonly string[]) => string | undefined;
}

/**
 * Collect `files` on the base tree (`--collect-only`); throw
 * {@linkcode BaseProblemError} when any of them fails there too.
 */
export async function checkBaseCollection(
  sandbox: Sandbox,
  options: BaseCollectionOptions,
): Promise<void> {
  if (options.files.length === 0) return;
  const command = options.run.command ?? DEFAULT_PYTEST_COMMAND;
  const run = await runPytest(sandbox, {
    ...options.run,
    command: [...command, "--collect-only"],
    workDir: await options.baseWorkDir(),
    select: options.files,
  });
  // Stryker disable next-line ArrayDeclaration: an element of the fallback that is no collection error has no node id, so no file finds it
  const streamed = run.observation?.collectErrors ?? [];
  // Stryker disable next-line ArrayDeclaration: an element of the fallback that is no test case has no classname, so the filter drops it
  const reported = (run.cases ?? []).filter((c) => c.classname === "");
  const textAtBase = (file: string) =>
    streamed.find((e) => e.nodeId === file)?.text ??
      reported.find((c) =>
        c.name === file ||
        c.name === file.replace(/\.py$/, "").replaceAll("/", ".")
      )?.message;
  const broken = options.files.filter((file) => {
    const text = textAtBase(file);
    return text !== undefined && (options.same?.(file, text) ?? true);
  });
  if (broken.length === 0) return;
  // Stryker disable next-line StringLiteral: a file is broken only when it has a text at the base, so the fallback is never taken
  const first = textAtBase(broken[0] as string) ?? "";
  const detail = first.split("\n").map((l) => l.trimEnd()).filter((l) =>
    l !== ""
  ).slice(0, 12).join("\n");
  const hint = options.hint?.(first, broken);
  throw new BaseProblemError(
    options.base,
    broken,
    hint === undefined ? detail : `${detail}\n${hint}`,
  );
}

function baseProblemText(
  base: string,
  files: readonly string[],
  detail: string,
  what: "collect" | "pass" | "property" | "run",
): string {
  if (what === "run") {
    return `Cannot judge the pull request: at the base commit ${base}, the test run leaves no usable report either, so its failure at head is not the pull request's doing; fix the base's tests or its pawl.toml [tests] and [environment] settings first:\n${detail}`;
  }
  const one = files.length === 1;
  return `Cannot judge the pull request: at the base commit ${base}, ${
    files.map((f) => `"${f}"`).join(", ")
  } already fail${one ? "s" : ""} ${
    what === "collect" ? "to collect" : "on this runner"
  }, so ${
    one ? "its" : "their"
  } failure at head is not the pull request's doing; fix the base first${
    what !== "pass"
      ? ""
      : `, or, if ${
        one ? "it fails" : "they fail"
      } only on this runner, excuse ${
        one ? "it" : "them"
      } in the base's pawl.toml ([[excuses]] test = "${
        files[0]
      }" with owner, expires and reason)`
  }:\n${detail}`;
}
