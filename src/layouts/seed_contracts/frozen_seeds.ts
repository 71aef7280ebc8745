/**
 * Which frozen seeds the test stage replays, and which tests a fresh-seed
 * failure may not block: seed 002's "Keep the test required on that seed.
 * Other seeds stay non-blocking until the freeze expires."
 *
 * @module
 */
import { isFreezeExpired } from "./freeze_expiry.ts";
import type { FlakeFreeze } from "./read_flake_freeze.ts";

/** A pinned seed to replay. */
export interface FrozenSeed {
  /** Freeze id. */
  id: string;
  /** pytest node id of the frozen test. */
  test: string;
  /** The pinned seed. */
  seed: number;
  /** The freeze's witness hash (`""` when the freeze has none). */
  witness: string;
}

/** What the freeze file asks of the test stage at `now`. */
export interface FrozenSeeds {
  /** Every unexpired freeze: each must pass on its pinned seed. */
  replays: FrozenSeed[];
  /** Tests of unexpired, well-formed freezes, sorted and unique. */
  nonBlocking: string[];
}

/**
 * Every unexpired freeze is replayed: a replay only adds a requirement, so
 * even a malformed freeze gets one. Only a well-formed unexpired freeze
 * (`skip: false`, non-blank owner, witness and reason) makes its test's
 * fresh-seed failures non-blocking; a malformed one is already a
 * rejection and earns no leniency. An expired freeze gets neither: it is a
 * `freeze.expired` rejection, and "after expiry the same seed is a hard
 * fail".
 *
 * @example
 * ```ts
 * import { frozenSeeds } from "./frozen_seeds.ts";
 * import { NO_FREEZE_LINES } from "./read_flake_freeze.ts";
 * const freeze = { test: "tests/test_a.py::test_a", seed: 7, witness: "ab", owner: "me", reason: "r", skip: false };
 * const plan = frozenSeeds({
 *   lines: NO_FREEZE_LINES,
 *   freezes: [{ ...freeze, id: "F-1", expires: "2026-09-15" }, { ...freeze, id: "F-0", expires: "2026-09-01" }],
 * }, Date.parse("2026-09-08T00:00:00Z"));
 * if (plan.replays.map((r) => r.id).join() !== "F-1") throw new Error();
 * ```
 */
export function frozenSeeds(
  file: FlakeFreeze | null,
  now: number,
): FrozenSeeds {
  const replays: FrozenSeed[] = [];
  const nonBlocking = new Set<string>();
  // Stryker disable next-line ArrayDeclaration: only a missing file takes the fallback, and an element that is not a freeze has no readable expiry, so it is skipped as expired
  for (const freeze of file?.freezes ?? []) {
    if (isFreezeExpired(freeze.expires, now)) continue;
    replays.push({
      id: freeze.id,
      test: freeze.test,
      seed: freeze.seed,
      witness: freeze.witness,
    });
    const wellFormed = freeze.skip === false && freeze.owner.trim() !== "" &&
      freeze.witness.trim() !== "" && freeze.reason.trim() !== "";
    if (wellFormed) nonBlocking.add(freeze.test);
  }
  return { replays, nonBlocking: [...nonBlocking].sort() };
}
