/**
 * Head test sources for the test stage, read from git objects (never
 * from a tree the tests ran in), each file parsed once.
 *
 * @module
 */
import type { Git, Tree } from "../git/git.ts";
import { analyzePython } from "../python/analyze_python.ts";
import { loadPythonParser } from "../python/load_python_parser.ts";
import type { PythonModule } from "../python/python_module.ts";
import { SOURCE_MAX_BYTES } from "./analyze_modules.ts";
import type { HeadModuleReader } from "./locate_properties.ts";

/**
 * A caching reader of head analyses, starting from those the static stage
 * already made.
 */
export function headModuleReader(
  git: Git,
  headTree: Tree,
  known: ReadonlyMap<string, PythonModule>,
): HeadModuleReader {
  const modules = new Map<string, Promise<PythonModule | undefined>>(
    [...known].map(([path, m]) => [path, Promise.resolve(m)]),
  );
  return (file) => {
    let module = modules.get(file);
    if (module === undefined) {
      module = read(git, headTree, file);
      modules.set(file, module);
    }
    return module;
  };
}

async function read(
  git: Git,
  headTree: Tree,
  file: string,
): Promise<PythonModule | undefined> {
  const entry = headTree.get(file);
  if (
    entry === undefined ||
    (entry.kind !== "file" && entry.kind !== "executable") ||
    entry.size > SOURCE_MAX_BYTES
  ) return undefined;
  const bytes = await git.readBlob(entry.oid, { maxBytes: SOURCE_MAX_BYTES });
  return analyzePython(
    await loadPythonParser(),
    new TextDecoder().decode(bytes),
  );
}
