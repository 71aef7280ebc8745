/**
 * A kill that lets a pull request through, confirmed in a fresh process.
 *
 * A warm run forks its child from an interpreter that imported every
 * mutant at once (`schemata.ts`), the one to run picked by a builtin. Code
 * in that process, the pull request's tests or code, can read that
 * builtin and the schemata's text, and so tell a mutant's run from the
 * unmutated one: it can fail only under a mutant (a kill for every
 * mutant) or switch the mutant off. The controls (`warm_controls.ts`)
 * catch a test that tells a fork from a fresh run, not this. So no
 * outcome of a warm run that the pull request's code or tests take part
 * in may count in the pull request's favour on its own: where the base's
 * property killed a mutant and the head's side killed it too (or timed
 * out), that claim runs again cold, the mutant written into a fresh copy
 * of the tree and a fresh pytest (`run_mutants.ts`), where nothing marks
 * it as a mutant. A warm survivor needs no confirmation: it counts
 * against the pull request, and the controls keep a forked run honest
 * about a test that passes.
 *
 * @module
 */
import { plural } from "../core/plural.ts";
import type { Finding } from "../core/finding.ts";
import { coldBaseline, coldLimits } from "./cold_mutants.ts";
import type { KillOutcome, SideOutcomes } from "./judge_kill_sets.ts";
import type { MutantEngineOptions } from "./mutant_engine.ts";
import type { Mutant } from "./mutant.ts";
import {
  cachedRun,
  type MutantSide,
  runCacheKey,
  runMutants,
} from "./run_mutants.ts";

/** A mutant and the properties whose kill of it must be confirmed. */
export interface KillClaim {
  /** The mutant. */
  mutant: Mutant;
  /** Property keys. */
  keys: ReadonlySet<string>;
}

/** What the cold runs said. */
export interface ConfirmedKills {
  /** Each confirmed mutant's cold outcomes of its claimed properties; a mutant the budget cut is absent. */
  outcomes: Map<string, SideOutcomes>;
  /** What pawl's observer caught in the cold runs and the cold baseline. */
  findings: Finding[];
}

/** The outcomes a pull request gains by: the property still catches the mutant. */
export function keeps(outcome: KillOutcome | undefined): boolean {
  return outcome === "killed" || outcome === "timeout";
}

/**
 * The claims a warm side's outcomes make: for each mutant, the properties
 * that killed it on the other side (`killers`) and that the warm run says
 * still kill it.
 */
export function claimsOf(
  ran: readonly {
    mutant: Mutant;
    killers: Iterable<string>;
    warm: SideOutcomes;
  }[],
): KillClaim[] {
  return ran.flatMap(({ mutant, killers, warm }) => {
    const keys = new Set([...killers].filter((k) => keeps(warm[k])));
    return keys.size === 0 ? [] : [{ mutant, keys }];
  });
}

/**
 * A claimed mutant's outcomes on the side, once the cold runs have
 * spoken: the cold outcomes of the claimed properties in place of the
 * warm ones. Unconfirmed (the budget cut its cold run), the warm
 * outcomes of the other properties, when one of them already lets a
 * mutant `base` killed survive; else undefined, nothing that counts.
 */
export function settle(
  base: SideOutcomes,
  warm: SideOutcomes | null,
  claim: KillClaim,
  cold: SideOutcomes | undefined,
): SideOutcomes | undefined {
  const rest = Object.fromEntries(
    Object.entries(warm ?? {}).filter(([k]) => !claim.keys.has(k)),
  );
  if (cold !== undefined) return { ...rest, ...cold };
  const against = Object.entries(rest).some(([k, o]) =>
    o === "survived" && base[k] === "killed"
  );
  return against ? rest : undefined;
}

/**
 * Run every claim cold on `side`: first the unmutated code, then each
 * mutant with the claimed properties that passed there. A claimed
 * property that failed on the unmutated code is `unknown`: nothing it
 * does under a mutant can count as a kill.
 */
export async function confirmKills(
  options: MutantEngineOptions,
  side: MutantSide,
  claims: readonly KillClaim[],
  label: "base" | "head",
): Promise<ConfirmedKills> {
  // Nothing claimed is found whole in the cache too, and starts nothing.
  const cached = await fromCache(options, side, claims, label);
  if (cached !== undefined) return { outcomes: cached, findings: [] };
  const outcomes = new Map<string, SideOutcomes>();
  const claimed = new Set(claims.flatMap((c) => [...c.keys]));
  options.progress?.(
    `mutation: settling ${
      plural(claims.length, "mutant")
    } one process each: a warm kill counts only as a fresh pytest confirms it`,
  );
  const baseline = await coldBaseline(
    options.workers[0]!,
    options,
    { ...side, properties: side.properties.filter((p) => claimed.has(p.key)) },
    options.clock,
    label,
  );
  const findings = [...baseline.findings];
  // One cold run per mutant with its own claimed properties: claims with
  // the same properties run together, in the order they came.
  const groups = new Map<string, KillClaim[]>();
  for (const c of claims) {
    // Stryker disable next-line MethodExpression: the order only batches the runs; claims of the same properties listed in another order run in a batch of their own, with the same outcomes
    const key = JSON.stringify([...c.keys].sort());
    groups.set(key, [...(groups.get(key) ?? []), c]);
  }
  for (const group of groups.values()) {
    const keys = group[0]!.keys;
    const properties = baseline.side.properties.filter((p) => keys.has(p.key));
    const ran = new Set(properties.map((p) => p.key));
    // What failed on the unmutated code ran under no mutant: unknown.
    const failing = Object.fromEntries(
      [...keys].filter((k) => !ran.has(k)).map((k) => [
        k,
        "unknown" as KillOutcome,
      ]),
    );
    if (properties.length === 0) {
      for (const c of group) outcomes.set(c.mutant.id, failing);
      continue;
    }
    const mutated = await runMutants({
      ...options,
      mutants: group.map((c) => c.mutant),
      base: { ...side, properties },
      head: null,
      label,
      limits: coldLimits(options.limits, baseline.ms),
    });
    for (const r of mutated.results) {
      outcomes.set(r.mutant.id, { ...r.base, ...failing });
      findings.push(...(r.findings ?? []));
    }
  }
  return { outcomes, findings };
}

/**
 * Every claim's outcomes from the runner's cache, or undefined when one is
 * missing: an earlier confirmation under the same key (the tree, the
 * mutant, the properties) ran after an unmutated run they all passed.
 */
async function fromCache(
  options: MutantEngineOptions,
  side: MutantSide,
  claims: readonly KillClaim[],
  label: "base" | "head",
): Promise<Map<string, SideOutcomes> | undefined> {
  const out = new Map<string, SideOutcomes>();
  for (const { mutant, keys } of claims) {
    const on = {
      ...side,
      properties: side.properties.filter((p) => keys.has(p.key)),
    };
    const key = await runCacheKey(options, on, mutant, label);
    const hit = await cachedRun(options, on, key);
    if (hit === undefined) return undefined;
    out.set(mutant.id, hit);
  }
  return out;
}
