/**
 * The warm engine's bookkeeping: what became of every selected mutant,
 * phase by phase (the base's warm runs, the head's, the cold engine's for
 * what they left), reported in run order.
 *
 * @module
 */
import { claimsOf, type KillClaim, settle } from "./confirm_kills.ts";
import {
  killedKeys,
  type MutantResult,
  type SideOutcomes,
} from "./judge_kill_sets.ts";
import type { MutantEngineResult } from "./mutant_engine.ts";
import type { Mutant } from "./mutant.ts";
import type { WarmOutcome } from "./warm_child.ts";
import type { WarmJob } from "./warm_session.ts";

/** Every mutant's fate, gathered phase by phase, reported in run order. */
export class WarmResults {
  readonly #order: readonly Mutant[];
  readonly #results = new Map<string, MutantResult>();
  readonly #unrun = new Set<string>();
  readonly #notCovered = new Set<string>();
  readonly #cold = new Set<string>();

  /** Every mutant, in run order; each is left for the cold engine until a phase says otherwise. */
  constructor(order: readonly Mutant[]) {
    this.#order = order;
    for (const m of order) this.#cold.add(m.id);
  }

  /** The budget left these unrun. */
  cut(mutants: readonly Mutant[]): void {
    for (const m of mutants) {
      this.#cold.delete(m.id);
      this.#results.delete(m.id);
      this.#unrun.add(m.id);
    }
  }

  /**
   * The base side's outcomes (only of properties passing everywhere);
   * returns the mutants a base property killed, with those properties.
   */
  base(
    outcomes: ReadonlyMap<string, WarmOutcome>,
    passing: ReadonlySet<string>,
    compiled: readonly Mutant[],
  ): Map<Mutant, Set<string>> {
    const killed = new Map<Mutant, Set<string>>();
    for (const m of compiled) {
      const o = outcomes.get(m.id);
      if (o === undefined || o.kind === "cold") continue;
      this.#cold.delete(m.id);
      if (o.kind === "notCovered") {
        this.#notCovered.add(m.id);
        continue;
      }
      const base = only(o.outcomes, passing);
      this.#results.set(m.id, {
        mutant: m,
        base,
        head: null,
        cached: o.cached,
        ...(o.findings.length === 0 ? {} : { findings: o.findings }),
      });
      const keys = killedKeys(base);
      if (keys.length > 0) killed.set(m, new Set(keys));
    }
    return killed;
  }

  /** The head side's outcomes; a head run lost or cut undoes the base's. */
  head(
    ran: {
      jobs: readonly WarmJob[];
      outcomes: ReadonlyMap<string, WarmOutcome>;
      cut?: readonly WarmJob[];
    } | null,
  ): void {
    if (ran === null) return;
    this.cut((ran.cut ?? []).map((j) => j.mutant));
    for (const { mutant } of ran.jobs) {
      const r = this.#results.get(mutant.id);
      const o = ran.outcomes.get(mutant.id);
      if (
        r === undefined ||
        // Stryker disable next-line ConditionalExpression: cut() deletes the result of every mutant it counts unrun, so for one of those r is already undefined
        this.#unrun.has(mutant.id)
      ) continue;
      if (o?.kind !== "ran") {
        this.#results.delete(mutant.id);
        this.#cold.add(mutant.id);
        continue;
      }
      const head = Object.keys(o.outcomes).length === 0 ? null : o.outcomes;
      const findings = [...(r.findings ?? []), ...o.findings];
      this.#results.set(mutant.id, {
        ...r,
        head,
        ...(findings.length === 0 ? {} : { findings }),
      });
    }
  }

  /**
   * The head's warm kills of mutants a base property killed, in run
   * order: none counts until a cold run confirms it (`confirm_kills.ts`).
   */
  headClaims(): KillClaim[] {
    return claimsOf(this.#order.flatMap((m) => {
      const r = this.#results.get(m.id);
      if (r === undefined || r.head === null) return [];
      const killers = killedKeys(r.base);
      return [{ mutant: m, killers, warm: r.head }];
    }));
  }

  /**
   * The cold runs' outcomes of the claims, in place of the warm ones. A
   * claim the budget left unconfirmed leaves its mutant unrun, unless a
   * property the warm run saw survive already tells against the head.
   */
  confirmed(
    claims: readonly KillClaim[],
    cold: ReadonlyMap<string, SideOutcomes>,
  ): void {
    const settled = claims.map((claim) => {
      const r = this.#results.get(claim.mutant.id)!;
      const head = settle(r.base, r.head, claim, cold.get(claim.mutant.id));
      return { claim, r, head };
    });
    this.cut(
      settled.filter((s) => s.head === undefined).map((s) => s.claim.mutant),
    );
    for (const { claim, r, head } of settled) {
      if (head !== undefined) {
        this.#results.set(claim.mutant.id, { ...r, head });
      }
    }
  }

  /** What is left for the cold engine, in run order. */
  leftovers(): Mutant[] {
    return this.#order.filter((m) => this.#cold.has(m.id));
  }

  /** The cold engine's results and cuts. */
  cold(results: readonly MutantResult[], unrun: readonly Mutant[]): void {
    for (const r of results) this.#results.set(r.mutant.id, r);
    for (const m of unrun) this.#unrun.add(m.id);
    this.#cold.clear();
  }

  /** Everything, in run order. */
  result(): Omit<MutantEngineResult, "baselineFindings"> {
    return {
      results: this.#order.flatMap((m) => this.#results.get(m.id) ?? []),
      unrun: this.#order.filter((m) =>
        this.#unrun.has(m.id) || this.#cold.has(m.id)
      ),
      notCovered: this.#order.filter((m) => this.#notCovered.has(m.id)),
    };
  }
}

/** Outcomes restricted to `keys`. */
function only(outcomes: SideOutcomes, keys: ReadonlySet<string>): SideOutcomes {
  return Object.fromEntries(
    Object.entries(outcomes).filter(([k]) => keys.has(k)),
  );
}
