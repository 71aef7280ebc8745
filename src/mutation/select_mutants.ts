/**
 * Which mutants run: every mutant of a function the pull request touched,
 * then a sample of the rest in an order drawn from the run's seed, up to
 * the cap. The same seed and mutants give the same selection, so a
 * verdict can be reproduced.
 *
 * @module
 */
import { createHash } from "node:crypto";
import type { Mutant } from "./mutant.ts";

/** Options for {@linkcode selectMutants}. */
export interface SelectMutantsOptions {
  /** Whether a mutant lies in a function the pull request touched. */
  touched: (mutant: Mutant) => boolean;
  /** Whether a mutant lies near what the pull request changed: sampled before the rest. */
  near?: ((mutant: Mutant) => boolean) | undefined;
  /** The seed the sample of the rest is drawn from. */
  seed: number;
  /** Most mutants selected. */
  max: number;
}

/** What was selected. */
export interface MutantSelection {
  /** The mutants to run, in run order: touched first, then the sample. */
  selected: Mutant[];
  /** How many of `selected` lie in touched functions. */
  touched: number;
  /** Mutants left out by the cap. */
  capped: number;
}

/**
 * Select up to `max` mutants.
 *
 * @example
 * ```ts
 * import { selectMutants } from "./select_mutants.ts";
 * const s = selectMutants([], { touched: () => true, seed: 1, max: 5 });
 * if (s.selected.length !== 0) throw new Error("unexpected");
 * ```
 */
export function selectMutants(
  mutants: readonly Mutant[],
  options: SelectMutantsOptions,
): MutantSelection {
  const touched = mutants.filter((m) => options.touched(m));
  const others = mutants.filter((m) => !options.touched(m));
  const near = options.near;
  const key = new Map(others.map((m) => [m.id, draw(options.seed, m.id)]));
  const sampled = (list: Mutant[]) =>
    list.sort((a, b) =>
      // Stryker disable next-line EqualityOperator: the keys are digests of distinct ids, so no two are equal and `<` and `<=` agree
      (key.get(a.id) as string) < (key.get(b.id) as string) ? -1 : 1
    );
  const all = near === undefined ? [...touched, ...sampled(others)] : [
    ...touched,
    ...sampled(others.filter((m) => near(m))),
    ...sampled(others.filter((m) => !near(m))),
  ];
  const selected = all.slice(0, options.max);
  return {
    selected,
    touched: Math.min(touched.length, options.max),
    capped: all.length - selected.length,
  };
}

function draw(seed: number, id: string): string {
  return createHash("sha256").update(`${seed}:${id}`).digest("hex");
}
