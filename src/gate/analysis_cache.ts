/**
 * The runner's cache of Python analyses: what `analyzePython` made of a
 * source, kept by the source's sha256 and the analyser's own identity (the
 * sha256 of its code and grammar), so the next judgement of an unchanged
 * test module reads it instead of parsing it again. An entry is the
 * analysis as V8 serializes it (Maps and all), written whole by rename.
 *
 * Whatever is in it decides what the static rules see, so it is used only
 * in a directory of pawl's own user that no one else may enter (pawl
 * makes it mode 0700), and never while tests run as pawl's own user
 * (`--isolation none`), who could write it.
 *
 * @module
 */
import { createHash } from "node:crypto";
import { deserialize, serialize } from "node:v8";
import type { PythonModule } from "../python/python_module.ts";
import { cacheDirFrom, privateCacheDir } from "../run/private_cache_dir.ts";

/** The cache of one process. */
export interface AnalysisCache {
  /** The analysis of `source` (its bytes), if kept; never throws. */
  get(source: Uint8Array): Promise<PythonModule | undefined>;
  /**
   * Keep the analysis of `source`: serialized now, written meanwhile (see
   * {@linkcode AnalysisCache.flush}); never throws.
   */
  put(source: Uint8Array, analysis: PythonModule): void;
  /** Wait for every write begun; never throws. */
  flush(): Promise<void>;
}

/** The system-wide cache (when pawl is root). */
export const SYSTEM_ANALYSIS_CACHE = "/var/cache/pawl/analysis";

/** Entries kept before the oldest half (by when written) goes. */
export const MAX_ANALYSES = 8192;

/** The analyser's files: its code and the grammar it parses with. */
const ANALYSER = new URL("../python/", import.meta.url);
const GRAMMARS = [
  new URL(
    "../../node_modules/tree-sitter-python/tree-sitter-python.wasm",
    import.meta.url,
  ),
  new URL(
    "../../node_modules/web-tree-sitter/tree-sitter.wasm",
    import.meta.url,
  ),
];

/**
 * The cache `setting` (pawl's `PAWL_ANALYSIS_CACHE`; `off` for none)
 * names, else {@linkcode SYSTEM_ANALYSIS_CACHE} for root; undefined when
 * there is none or it is not pawl's alone (with a note when `setting`
 * named it).
 */
export async function openAnalysisCache(
  setting: string | undefined,
  onNote?: (note: string) => void,
): Promise<AnalysisCache | undefined> {
  if (setting === "off") return undefined;
  const root = cacheDirFrom(setting, SYSTEM_ANALYSIS_CACHE);
  if (root === undefined) return undefined;
  const opened = await privateCacheDir(root, "analysis cache");
  if ("note" in opened) {
    if (setting !== undefined && setting !== "") onNote?.(opened.note);
    return undefined;
  }
  let identity: string;
  try {
    identity = await analyserIdentity();
  } catch {
    return undefined; // the analyser's files cannot be read: parse as ever
  }
  const store = `${opened.dir}/${identity.slice(0, 24)}`;
  const writes: Promise<void>[] = [];
  const path = (source: Uint8Array) => {
    const key = createHash("sha256").update(source).digest("hex");
    return { dir: `${store}/${key.slice(0, 2)}`, file: key };
  };
  return {
    // Read synchronously: a small file in a local directory, looked up
    // once per test module in turn, where an async read costs a round trip
    // through the runtime's thread pool each time (most of a miss, and the
    // cores are busy hashing then).
    get: (source) => {
      const at = path(source);
      return Promise.resolve(readKept(`${at.dir}/${at.file}`));
    },
    put: (source, analysis) => {
      const at = path(source);
      let bytes: Uint8Array;
      try {
        bytes = serialize(analysis);
      } catch {
        return; // not kept: the next judgement parses it again
      }
      writes.push((async () => {
        try {
          await Deno.mkdir(at.dir, { recursive: true, mode: 0o700 });
          const temp = `${at.dir}/.${at.file}.${crypto.randomUUID()}`;
          await Deno.writeFile(temp, bytes, { mode: 0o600, createNew: true });
          await Deno.rename(temp, `${at.dir}/${at.file}`);
        } catch {
          // not kept: the next judgement parses it again
        }
      })());
    },
    flush: async () => {
      const begun = writes.splice(0);
      await Promise.all(begun);
      if (begun.length > 0) await trim(store).catch(() => undefined);
    },
  };
}

/** The analysis kept at `file`, or undefined (a miss); never throws. */
function readKept(file: string): PythonModule | undefined {
  try {
    const kept = deserialize(Deno.readFileSync(file));
    // Written whole by pawl; anything else is a miss.
    return typeof kept === "object" && kept !== null &&
        kept.functions instanceof Map
      ? kept as PythonModule
      : undefined;
  } catch {
    return undefined;
  }
}

/** The sha256 of the analyser's code (every non-test module) and grammars. */
async function analyserIdentity(): Promise<string> {
  const hash = createHash("sha256");
  const names: string[] = [];
  for await (const entry of Deno.readDir(ANALYSER)) {
    if (entry.isFile && entry.name.endsWith(".ts")) names.push(entry.name);
  }
  for (const name of names.sort()) {
    if (name.endsWith("_test.ts")) continue;
    hash.update(name).update("\0");
    hash.update(await Deno.readFile(new URL(name, ANALYSER))).update("\0");
  }
  for (const grammar of GRAMMARS) {
    hash.update(await Deno.readFile(grammar)).update("\0");
  }
  return hash.digest("hex");
}

/** Keep `store` at {@linkcode MAX_ANALYSES} entries: the oldest half goes beyond. */
async function trim(store: string): Promise<void> {
  const paths: string[] = [];
  for await (const shard of Deno.readDir(store)) {
    if (!shard.isDirectory) continue;
    for await (const entry of Deno.readDir(`${store}/${shard.name}`)) {
      if (entry.isFile) paths.push(`${store}/${shard.name}/${entry.name}`);
    }
  }
  if (paths.length <= MAX_ANALYSES) return;
  const entries = await Promise.all(paths.map(async (path) => ({
    path,
    mtime: (await Deno.lstat(path).catch(() => undefined))?.mtime?.getTime() ??
      0,
  })));
  entries.sort((a, b) => a.mtime - b.mtime);
  for (const { path } of entries.slice(0, entries.length - MAX_ANALYSES / 2)) {
    await Deno.remove(path).catch(() => undefined);
  }
}
