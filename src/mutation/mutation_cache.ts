/**
 * The runner's cache of mutant outcomes: one entry per side (the base's
 * oracle or the head's properties) and mutant, so a re-run, or a later
 * pull request on the same base, runs only what it changed.
 *
 * **What a key covers.** A run's outcome is a function of the files the
 * run reads, the command and environment it runs with, and the runner's
 * interpreter and installed packages (the runner's own, the same for
 * every judgement it makes). The key of one side's outcomes on one mutant
 * covers, besides pawl's version and the format of an entry:
 *
 * - the side: a head run is never served from a base entry, nor the
 *   other way round;
 * - the command and environment, which carry the Hypothesis seed and
 *   `CONTRACT_SEED` fixed by the base commit, so an entry belongs to one
 *   base; the properties the run selects; whether pawl's observer watched
 *   the run, and which observer;
 * - the mutant: its file's path, the span it replaces, the text replaced
 *   and the replacement;
 * - the run's scope ({@linkcode CacheScope}): a digest of the files the
 *   run can read, the mutated file's content among them.
 *
 * For the head side the scope is the whole head tree, code and tests.
 * For the base side (the base's test side on the head's code) it is
 * narrower, so that every pull request on a base shares it
 * (`cache_scope.ts`): the test side whole, which the oracle takes from
 * the base whatever the pull request did to its tests; every file of the
 * code side that is not a Python module (code that runs may read any
 * data file, and pawl cannot tell which); and every Python module of the
 * code side the run can import, found by import analysis from the
 * modules of the properties it selects and from the files Python and
 * pytest run unasked (every `conftest.py`, the test side's `__init__.py`
 * files, `sitecustomize.py`, `usercustomize.py`), followed transitively.
 *
 * **Why that is sound.** A Python module the run never imports cannot
 * change what it does; one it imports can, even when the mutated
 * function never calls it: the test may build its inputs or its expected
 * value with it, or the module may change shared state as it is
 * imported. So the key covers every module the run reaches, not just
 * those the mutated function calls, and a pull request that changes any
 * of them reruns the mutant; one that changes only its tests, or only
 * Python files no selected property reaches, reruns none of the base's
 * runs. What the key does not cover: a module the run imports only
 * dynamically (`importlib`, `__import__`, a plugin named in a string),
 * which is also code pawl never mutates, and changes to the runner's
 * installed packages. A timeout is kept as it was found: each run's time
 * limit comes from the unmutated run measured in the same judgement, so
 * it is not part of the key.
 *
 * **The warm engine** (`warm_mutants.ts`) keeps its entries apart, under
 * a format of its own, and its key covers besides the driver that ran
 * the child, the CPU and wall-clock allowances a child's limits are drawn
 * with, and every property its interpreter collected. Its base side's
 * scope is taken over those collected properties, not only the ones a
 * child runs: the interpreter imports all of their modules before it
 * forks. Its base runs select each mutant's tests by the coverage of the
 * unmutated run, inside the driver, after the key is made; the key is not
 * narrowed to the covering tests' modules, and could not soundly be: the
 * other collected modules are imported in the child all the same, and
 * which tests cover a mutant can change with any module the run reaches.
 *
 * The directory is the runner's own: root's (or the invoking user's),
 * mode 0700, never reachable from the sandbox, so the tests cannot plant
 * an entry; only outcomes pawl could trust (no `unknown`) are kept.
 *
 * @module
 */
import { createHash } from "node:crypto";
import type { ObserverPlugin } from "../run/observer.ts";
import { VERSION } from "../version.ts";
import type { KillOutcome, SideOutcomes } from "./judge_kill_sets.ts";
import type { Mutant } from "./mutant.ts";

/** Where results are kept between runs. */
export interface MutationCache {
  /** The outcomes stored under `key`, if any. */
  get(key: string): Promise<SideOutcomes | undefined>;
  /** Store the outcomes under `key`. */
  put(key: string, outcomes: SideOutcomes): Promise<void>;
}

/** A property a run selects: its key (shared by both sides) and pytest node id. */
export interface SelectedProperty {
  /** Key shared by the base's and the head's runs (`layout/id`). */
  key: string;
  /** pytest node id. */
  nodeId: string;
}

/**
 * A digest of the files a run of `mutant` that selects `properties` can
 * read (see the module doc): what of a side's tree its cache key covers.
 */
export type CacheScope = (
  mutant: Mutant,
  properties: readonly SelectedProperty[],
) => Promise<string>;

/** What {@linkcode mutantCacheKey} covers. */
export interface MutantCacheKeyInput {
  /** Which side ran. */
  side: "base" | "head";
  /** The run's {@linkcode CacheScope}. */
  scope: string;
  /** The mutant. */
  mutant: Mutant;
  /** The test command (with the fixed seed). */
  command: readonly string[];
  /** Environment over the sandbox's minimal one (with the fixed seed). */
  env: Readonly<Record<string, string>>;
  /** The properties the run selects. */
  properties: readonly SelectedProperty[];
  /** pawl's observer plugin, when it watched the run. */
  observer?: ObserverPlugin | undefined;
  /**
   * How the run was made, when not as one fresh pytest per side (the
   * warm engine): the format of its entries, kept apart from the cold
   * engine's, and what else its outcomes depend on (see the module doc).
   */
  engine?: { format: string; settings: unknown } | undefined;
}

/** Raised whenever what a cached outcome of a cold run means changes (how a run is classified, what a key covers). */
// Stryker disable next-line StringLiteral: the format keeps this version's entries apart from older formats' and from the warm engine's, which any other text, the empty one too, also does
const CACHE_FORMAT = "outcomes-5";

/**
 * The key of one side's outcomes on one mutant: a SHA-256 digest, in hex,
 * of everything the module doc lists.
 *
 * @example
 * ```ts
 * import { mutantCacheKey } from "./mutation_cache.ts";
 * const mutant = {
 *   id: "m0", file: "m.py", function: "f", line: 1, column: 7, endLine: 1,
 *   endColumn: 8, start: 6, end: 7, original: "<", replacement: "<=",
 *   operator: "comparison" as const,
 * };
 * const input = { side: "base" as const, scope: "s", mutant, command: [], env: {}, properties: [] };
 * if (mutantCacheKey(input) === mutantCacheKey({ ...input, side: "head" })) {
 *   throw new Error("a head run must never be served from a base entry");
 * }
 * ```
 */
export function mutantCacheKey(input: MutantCacheKeyInput): string {
  const { mutant } = input;
  return runKey(input, [
    mutant.file,
    mutant.start,
    mutant.end,
    mutant.original,
    mutant.replacement,
  ]);
}

/**
 * The key of one side's unmutated run (its baseline) on the schemata of
 * `files`: keyed as a mutant's run is, `scope` covering every one of
 * those files, with no mutant. Its entry holds each property's outcome:
 * `survived` when it passed, `killed` when it did not.
 */
export function baselineCacheKey(
  input: Omit<MutantCacheKeyInput, "mutant"> & { files: readonly string[] },
): string {
  // Stryker disable next-line StringLiteral: a baseline's key has two parts where a mutant's has five, so no text of its marker makes the two meet
  return runKey(input, ["baseline", [...input.files].sort()]);
}

/**
 * The key of the entry that says no test of the base's run reaches a
 * mutant, derived from the key of the mutant's outcomes: its entry is
 * empty.
 */
export function notCoveredKey(key: string): string {
  return createHash("sha256").update(`${key}\nnot covered`).digest("hex");
}

/** The mark of a run pawl's observer watched, in its key. */
// Stryker disable next-line StringLiteral: the mark only sets a watched run's part of the key apart from an unwatched run's null, which any text, the empty one too, does
const OBSERVED = "observed";

function runKey(
  input: Omit<MutantCacheKeyInput, "mutant">,
  what: readonly unknown[],
): string {
  const { observer } = input;
  return createHash("sha256").update(JSON.stringify([
    VERSION,
    input.engine?.format ?? CACHE_FORMAT,
    input.side,
    input.scope,
    ...what,
    input.command,
    // Sorted, so the order the environment was written in does not matter.
    Object.keys(input.env).sort().map((k) => [k, input.env[k]]),
    input.properties.map((p) => [p.key, p.nodeId]),
    // Whether pawl's observer watched the run, and which one: an outcome
    // taken without it must never stand in for one checked against it.
    observer === undefined ? null : [OBSERVED, observer.sha256 ?? null],
    input.engine?.settings ?? null,
  ])).digest("hex");
}

const OUTCOMES = new Set<KillOutcome>(["killed", "survived", "timeout"]);

/**
 * A cache in `dir` (created 0700 when missing). Refuses a directory that
 * is not a real directory owned by this process's user or that others may
 * write.
 */
export async function directoryMutationCache(
  dir: string,
): Promise<MutationCache> {
  await Deno.mkdir(dir, { recursive: true, mode: 0o700 });
  const info = await Deno.lstat(dir);
  const uid = Deno.uid();
  // Stryker disable next-line ConditionalExpression: Deno.uid() is null only on Windows, where pawl does not run
  const hasUid = uid !== null;
  if (
    !info.isDirectory || (hasUid && info.uid !== uid) ||
    ((info.mode ?? 0) & 0o022) !== 0
  ) {
    throw new Error(
      `Cannot use the mutation cache "${dir}": it must be a directory of this user's that no one else can write`,
    );
  }
  const path = (key: string) => {
    if (!/^[0-9a-f]{64}$/.test(key)) {
      throw new RangeError(`Invalid mutation cache key "${key}"`);
    }
    return `${dir}/${key}.json`;
  };
  return {
    async get(key) {
      let text: string;
      try {
        text = await Deno.readTextFile(path(key));
      } catch (error) {
        if (error instanceof Deno.errors.NotFound) return undefined;
        throw error;
      }
      let value: unknown;
      // Stryker disable BlockStatement: a text that is not JSON leaves value undefined, which the next check also reads as missing
      try {
        value = JSON.parse(text);
      } catch {
        return undefined;
      }
      // Stryker restore BlockStatement
      if (typeof value !== "object" || value === null) return undefined;
      const entries = Object.entries(value);
      if (!entries.every(([, v]) => OUTCOMES.has(v as KillOutcome))) {
        return undefined;
      }
      return Object.fromEntries(entries) as SideOutcomes;
    },
    async put(key, outcomes) {
      const target = path(key);
      const temp = `${target}.${crypto.randomUUID()}.tmp`;
      await Deno.writeTextFile(temp, JSON.stringify(outcomes), { mode: 0o600 });
      await Deno.rename(temp, target);
    },
  };
}

/** A cache in memory, for tests. */
export function memoryMutationCache(): MutationCache & { size(): number } {
  const map = new Map<string, SideOutcomes>();
  return {
    get: (key) => Promise.resolve(map.get(key)),
    put: (key, outcomes) => {
      map.set(key, outcomes);
      return Promise.resolve();
    },
    size: () => map.size,
  };
}
