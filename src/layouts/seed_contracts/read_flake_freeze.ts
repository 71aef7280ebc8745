/**
 * Reads seed 002's `flake_freeze.yml` into a typed, line-aware
 * {@linkcode FlakeFreeze}.
 *
 * @module
 */
import { entryLines, readYamlSchema } from "./_read_yaml_schema.ts";
import { flakeFreezeFileSchema } from "./flake_freeze_schema.ts";

/** Where seed 002's freezes live (repository root). */
export const FLAKE_FREEZE_PATH = "flake_freeze.yml";

/** A time-boxed freeze that pins a failing seed of one test. */
export interface SeedFreeze {
  /** Stable id, e.g. `F-184`. */
  id: string;
  /** pytest node id of the frozen test. */
  test: string;
  /** The pinned seed, replayed on every run until expiry. */
  seed: number;
  /** Hash of the shrunk failing input; `""` when absent (a finding). */
  witness: string;
  /** Who owns the expiry; `""` when absent (a finding). */
  owner: string;
  /** `YYYY-MM-DD` or an RFC 3339 date-time, as written. */
  expires: string;
  /** Why the seed is frozen; `""` when absent (a finding). */
  reason: string;
  /**
   * `skip` as written: `undefined` when the key is absent. Anything but
   * the boolean `false` is a finding.
   */
  skip: unknown;
}

/** Source lines of a freeze file, by freeze id. */
export interface SeedFreezeLines {
  /** 1-based line of the `freezes` key. */
  key(name: string): number | undefined;
  /** 1-based line of the freeze with `id`, or of its `key` as written. */
  entry(id: string, key?: string): number | undefined;
}

/** Lines for freeze files built in code. */
export const NO_FREEZE_LINES: SeedFreezeLines = {
  key: () => undefined,
  entry: () => undefined,
};

/** A validated `flake_freeze.yml`. */
export interface FlakeFreeze {
  /** The freezes, in file order. */
  freezes: readonly SeedFreeze[];
  /** Where things are in the file. */
  lines: SeedFreezeLines;
}

/** Options for {@linkcode readFlakeFreeze}. */
export interface ReadFlakeFreezeOptions {
  /** Repository-relative path, for messages (default `flake_freeze.yml`). */
  path?: string;
  /** Refuse files larger than this many bytes (default 1 MiB). */
  maxBytes?: number;
}

/**
 * Parse and validate `flake_freeze.yml`. Throws `ContractSyntaxError`
 * naming the file, the key path (e.g. `freezes[0].notes`) and the line of
 * the first problem; see `flake_freeze_schema.ts` for what is a schema
 * error and what is left to {@linkcode checkFlakeFreeze}.
 *
 * @example
 * ```ts
 * import { readFlakeFreeze } from "./read_flake_freeze.ts";
 * const file = readFlakeFreeze(
 *   "freezes:\n  - id: F-1\n    test: tests/test_a.py::test_a\n    seed: 7\n" +
 *     "    witness_sha256: ab\n    owner: me\n    expires: 2026-09-15\n    reason: r\n    skip: false\n",
 * );
 * if (file.freezes[0]?.seed !== 7 || file.freezes[0].skip !== false) throw new Error();
 * if (file.lines.entry("F-1", "skip") !== 9) throw new Error();
 * ```
 */
export function readFlakeFreeze(
  text: string,
  options: ReadFlakeFreezeOptions = {},
): FlakeFreeze {
  const { data, doc } = readYamlSchema(text, flakeFreezeFileSchema, {
    path: options.path ?? FLAKE_FREEZE_PATH,
    maxBytes: options.maxBytes,
    emptyValue: {},
  });
  const freezes = (data.freezes ?? []).map((f) => ({
    id: f.id,
    test: f.test,
    seed: f.seed,
    witness: f.witness_sha256 ?? "",
    owner: f.owner ?? "",
    expires: f.expires,
    reason: f.reason ?? "",
    skip: f.skip,
  }));
  return {
    freezes,
    lines: entryLines(doc, "freezes", freezes.map((f) => f.id)),
  };
}
