/**
 * The files a setup step sees and its cache key covers: the base's copies
 * of the paths `[environment.setup] inputs` names, from the base's tree
 * listing. Pure.
 *
 * @module
 */
import type { Tree, TreeEntry } from "../git/git.ts";
import { SetupFailedError } from "./setup_failed_error.ts";

/** One input file at the base. */
export interface SetupInputFile {
  /** Repository-relative path. */
  path: string;
  /** Blob id at the base. */
  oid: string;
  /** Whether git records it as executable. */
  executable: boolean;
}

/** Options for {@linkcode collectSetupInputs}. */
export interface CollectSetupInputsOptions {
  /** The paths `[environment.setup] inputs` names. */
  inputs: readonly string[];
  /** The base commit, for messages. */
  base: string;
}

/**
 * Every regular file the inputs name at the base, sorted by path: a file
 * path names itself, a directory (with or without a trailing `/`) every
 * file under it. An input the base lacks, a symlink or a submodule is a
 * {@linkcode SetupFailedError}: a key over a link's text would not cover
 * what it points at.
 *
 * @example
 * ```ts
 * import { collectSetupInputs } from "./collect_setup_inputs.ts";
 * const tree = new Map([["uv.lock", { path: "uv.lock", kind: "file" as const, oid: "ab", size: 1 }]]);
 * const files = collectSetupInputs(tree, { inputs: ["uv.lock"], base: "c0ffee" });
 * if (files[0]?.oid !== "ab") throw new Error("unexpected");
 * ```
 */
export function collectSetupInputs(
  tree: Tree,
  options: CollectSetupInputsOptions,
): SetupInputFile[] {
  const found = new Map<string, SetupInputFile>();
  for (const input of options.inputs) {
    const path = input.replace(/\/+$/, "");
    const exact = tree.get(path);
    const entries: TreeEntry[] = exact !== undefined && exact.kind !== "tree"
      ? [exact]
      : [...tree.values()].filter((e) =>
        e.path.startsWith(`${path}/`) && e.kind !== "tree"
      );
    if (entries.length === 0) {
      throw problem(options, input, "is not in the base commit");
    }
    for (const entry of entries) {
      if (entry.kind !== "file" && entry.kind !== "executable") {
        throw problem(
          options,
          input,
          `${
            entry.path === path ? "is" : `holds "${entry.path}",`
          } a ${entry.kind}; name regular files only`,
        );
      }
      found.set(entry.path, {
        path: entry.path,
        oid: entry.oid,
        executable: entry.kind === "executable",
      });
    }
  }
  return [...found.values()].sort((a, b) =>
    a.path < b.path ? -1 : a.path > b.path ? 1 : 0
  );
}

function problem(
  options: CollectSetupInputsOptions,
  input: string,
  why: string,
): SetupFailedError {
  return new SetupFailedError(
    `Cannot run the setup step: input "${input}" of [environment.setup] in pawl.toml ${why} (base ${
      options.base.slice(0, 12)
    }); the pull request is not at fault: fix the base branch`,
  );
}
