/**
 * Python sources of both commits, read from git objects and analysed.
 *
 * @module
 */
import type { Git, Tree } from "../git/git.ts";
import { analyzePython } from "../python/analyze_python.ts";
import {
  loadPythonParser,
  type PythonParser,
} from "../python/load_python_parser.ts";
import type { AnalysisCache } from "./analysis_cache.ts";
import type { PythonModule } from "../python/python_module.ts";

/** Python sources larger than this are not analysed. */
export const SOURCE_MAX_BYTES = 4 * 1024 * 1024;

/** The Python files to analyse in one commit. */
export interface ModuleReads {
  /** The commit's tree. */
  tree: Tree;
  /** Files to analyse (absent, non-regular and oversized ones are skipped). */
  paths: readonly string[];
}

/** Analyses of both sides, keyed by path. */
export interface AnalyzedModules {
  /** Head analyses. */
  headModules: Map<string, PythonModule>;
  /** Base analyses. */
  baseModules: Map<string, PythonModule>;
}

/** Test sources read ahead of the one being parsed. */
const READ_AHEAD = 16;

/**
 * Analyse the head's and the base's Python files. Keyed by blob, so a file
 * the patch did not touch is read and parsed once for both sides (analysis
 * is pure, so sharing the result is safe). Blobs are requested a few ahead
 * of the parse, so git reads the next ones while this thread parses.
 */
export async function analyzeModules(
  git: Git,
  sides: { head: ModuleReads; base: ModuleReads },
  options: { cache?: AnalysisCache | undefined } = {},
): Promise<AnalyzedModules> {
  const { cache } = options;
  // The parser loads only when a source is not in the cache.
  let parser: Promise<PythonParser> | undefined;
  const wanted = (reads: ModuleReads) =>
    [...new Set(reads.paths)].flatMap((path) => {
      const entry = reads.tree.get(path);
      return entry !== undefined &&
          (entry.kind === "file" || entry.kind === "executable") &&
          entry.size <= SOURCE_MAX_BYTES
        ? [{ path, oid: entry.oid }]
        : [];
    });
  const head = wanted(sides.head);
  const base = wanted(sides.base);
  const oids = [...new Set([...head, ...base].map((w) => w.oid))];
  const reads = new Map<string, Promise<Uint8Array>>();
  const request = (index: number) => {
    const oid = oids[index];
    if (oid === undefined) return;
    const bytes = git.readBlob(oid, { maxBytes: SOURCE_MAX_BYTES });
    // Awaited in order below; an early failure must not go unobserved.
    bytes.catch(() => {});
    reads.set(oid, bytes);
  };
  for (let i = 0; i < READ_AHEAD; i++) request(i);
  const analyzed = new Map<string, PythonModule>();
  const decoder = new TextDecoder();
  for (const [index, oid] of oids.entries()) {
    request(index + READ_AHEAD);
    const bytes = await (reads.get(oid) as Promise<Uint8Array>);
    reads.delete(oid);
    const kept = await cache?.get(bytes);
    if (kept !== undefined) {
      analyzed.set(oid, kept);
      continue;
    }
    const made = analyzePython(
      await (parser ??= loadPythonParser()),
      decoder.decode(bytes),
    );
    analyzed.set(oid, made);
    cache?.put(bytes, made);
  }
  const byPath = (list: { path: string; oid: string }[]) =>
    new Map(list.map((w) => [w.path, analyzed.get(w.oid) as PythonModule]));
  return { headModules: byPath(head), baseModules: byPath(base) };
}
