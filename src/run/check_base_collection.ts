/**
 * A test file that fails to collect at head although the pull request did
 * not change it may be broken at the base already: then the failure is not
 * the pull request's fault and pawl cannot decide (exit 2) until the base
 * is fixed. Collecting the same files on the base tree tells the two apart.
 *
 * @module
 */
import type { Sandbox } from "../sandbox/sandbox.ts";
import { runPytest, type RunPytestOptions } from "./run_pytest.ts";
import { locateCase } from "./test_id.ts";

/** The base commit itself cannot collect its tests: could not decide. */
export class BaseProblemError extends Error {
  /** The base commit. */
  readonly base: string;
  /** The files that fail to collect at the base. */
  readonly files: readonly string[];

  /** Build the error: `files` fail to collect (or, with `what` "pass", those tests fail) at the base. */
  constructor(
    base: string,
    files: readonly string[],
    detail: string,
    what: "collect" | "pass" = "collect",
  ) {
    const one = files.length === 1;
    super(
      `Cannot judge the pull request: at the base commit ${base}, ${
        files.map((f) => `"${f}"`).join(", ")
      } already fail${one ? "s" : ""} ${
        what === "collect" ? "to collect" : "on this runner"
      }, so ${
        one ? "its" : "their"
      } failure at head is not the pull request's doing; fix the base first${
        what === "collect"
          ? ""
          : `, or, if ${
            one ? "it fails" : "they fail"
          } only on this runner, excuse ${
            one ? "it" : "them"
          } in the base's pawl.toml ([[excuses]] test = "${
            files[0]
          }" with owner, expires and reason)`
      }:\n${detail}`,
    );
    this.name = "BaseProblemError";
    this.base = base;
    this.files = files;
  }
}

/** Options for {@linkcode checkBaseCollection}. */
export interface BaseCollectionOptions {
  /** The base commit id, for the message. */
  base: string;
  /** Files (unchanged base → head) that failed to collect at head. */
  files: readonly string[];
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
  const command = options.run.command ?? [];
  const run = await runPytest(sandbox, {
    ...options.run,
    command: [...command, "--collect-only"],
    workDir: await options.baseWorkDir(),
    select: options.files,
  });
  const streamed = run.observation?.collectErrors ?? [];
  const reported = (run.cases ?? []).filter((c) => c.classname === "");
  const broken = options.files.filter((file) =>
    streamed.some((e) => e.nodeId === file) ||
    reported.some((c) =>
      c.name === file ||
      c.name === file.replace(/\.py$/, "").replaceAll("/", ".")
    )
  );
  if (broken.length === 0) return;
  const first = streamed.find((e) => broken.includes(e.nodeId))?.text ??
    reported[0]?.message ?? "";
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

/** Options for {@linkcode checkBaseFailures}. */
export interface BaseFailuresOptions {
  /** The base commit id, for the message. */
  base: string;
  /** Node ids of tests in files unchanged base → head that failed or errored at head. */
  nodeIds: readonly string[];
  /** A fresh export of the base tree, prepared for the sandbox. */
  baseWorkDir: () => Promise<string>;
  /** How the run is made. */
  run: Omit<RunPytestOptions, "workDir" | "select">;
}

/** A test that fails at the base as well, with the start of its failure there. */
export interface BaseFailure {
  /** pytest node id. */
  nodeId: string;
  /** The first lines of its failure at the base. */
  detail: string;
}

/**
 * Run `nodeIds` on the base tree and return those that fail or error there
 * too: a test that already fails at the base (on this runner's Python, say)
 * is not the pull request's doing.
 */
export async function checkBaseFailures(
  sandbox: Sandbox,
  options: BaseFailuresOptions,
): Promise<BaseFailure[]> {
  if (options.nodeIds.length === 0) return [];
  const run = await runPytest(sandbox, {
    ...options.run,
    workDir: await options.baseWorkDir(),
    select: options.nodeIds,
  });
  const wanted = new Set(options.nodeIds);
  const found = new Map<string, string>();
  for (const c of run.cases ?? []) {
    if (c.outcome !== "failed" && c.outcome !== "error") continue;
    if (c.classname === "") continue;
    const { nodeId } = locateCase(c);
    if (!wanted.has(nodeId) || found.has(nodeId)) continue;
    found.set(
      nodeId,
      (c.message ?? "").split("\n").map((l) => l.trimEnd())
        .filter((l) => l !== "").slice(0, 12).join("\n"),
    );
  }
  return [...found].sort(([a], [b]) => a < b ? -1 : a > b ? 1 : 0)
    .map(([nodeId, detail]) => ({ nodeId, detail }));
}
