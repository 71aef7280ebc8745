/**
 * Test helper: a {@linkcode ProposalInput} from a few files, parsed with
 * the real Python grammar and hashed for real.
 *
 * @module
 */
import { createHash } from "node:crypto";
import type { EntryKind, TreeEntry } from "../git/git.ts";
import { analyzePython } from "../python/analyze_python.ts";
import { loadPythonParser } from "../python/load_python_parser.ts";
import type { PythonModule } from "../python/python_module.ts";
import type { ProposalInput } from "./build_proposal.ts";
import type { ProposalLayout } from "./layout_files.ts";
import { proposalReads } from "./proposal_reads.ts";

/** A commit id for tests. */
export const COMMIT = "3f2c9a1b7d4e5f60718293a4b5c6d7e8f9012345";

/** One test file: text, or a symlink. */
export type TestFile = string | { symlink: string };

/**
 * Build the input the shell would build for `layout` from `files` (tree
 * entries in the order given, parent directories added).
 */
export async function inputFor(
  files: Readonly<Record<string, TestFile>>,
  layout: ProposalLayout,
  overrides: { digests?: ReadonlyMap<string, string> } = {},
): Promise<ProposalInput> {
  const tree = new Map<string, TreeEntry>();
  const add = (path: string, kind: EntryKind, content: string) => {
    const oid = createHash("sha1").update(`${kind}:${content}`).digest("hex");
    tree.set(path, { path, kind, oid, size: content.length });
  };
  for (const [path, content] of Object.entries(files)) {
    const segments = path.split("/");
    for (let n = 1; n < segments.length; n++) {
      const dir = segments.slice(0, n).join("/");
      if (!tree.has(dir)) add(dir, "tree", dir);
    }
    if (typeof content === "string") add(path, "file", content);
    else add(path, "symlink", content.symlink);
  }
  const reads = proposalReads(tree, { layout });
  const parser = await loadPythonParser();
  const modules = new Map<string, PythonModule>();
  for (const path of reads.python) {
    modules.set(path, analyzePython(parser, files[path] as string));
  }
  const digests = new Map<string, string>();
  for (const path of reads.fixtures) {
    digests.set(
      path,
      overrides.digests?.get(path) ??
        createHash("sha256").update(files[path] as string).digest("hex"),
    );
  }
  return { commit: COMMIT, tree, modules, fixtureDigests: digests };
}

/** Join lines with `\n`, ending with one. */
export function lines(...rows: string[]): string {
  return rows.join("\n") + "\n";
}
