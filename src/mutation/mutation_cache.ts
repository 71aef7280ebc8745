/**
 * The runner's cache of mutant results, keyed by a digest of (mutant,
 * the run tree's code and test content, command, environment, selection):
 * a re-run, or a later pull request on the same base, reuses what already
 * ran. The directory is the runner's own: root's (or the invoking user's),
 * mode 0700, never reachable from the sandbox, so the tests cannot plant
 * an entry.
 *
 * @module
 */
import type { KillOutcome, SideOutcomes } from "./judge_kill_sets.ts";

/** Where results are kept between runs. */
export interface MutationCache {
  /** The outcomes stored under `key`, if any. */
  get(key: string): Promise<SideOutcomes | undefined>;
  /** Store the outcomes under `key`. */
  put(key: string, outcomes: SideOutcomes): Promise<void>;
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
  if (
    !info.isDirectory || (uid !== null && info.uid !== uid) ||
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
      try {
        const value = JSON.parse(text) as unknown;
        if (typeof value !== "object" || value === null) return undefined;
        const entries = Object.entries(value);
        if (!entries.every(([, v]) => OUTCOMES.has(v as KillOutcome))) {
          return undefined;
        }
        return Object.fromEntries(entries) as SideOutcomes;
      } catch {
        return undefined;
      }
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
