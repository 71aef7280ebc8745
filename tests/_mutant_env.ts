/**
 * The variable that switches on one mutant during `deno task mutate`
 * (tools/mutate/), as an environment entry; empty outside a mutation run.
 * A test that starts pawl with a cleared environment adds it, or pawl would
 * run without the mutant and every such mutant would look undetected.
 */
export function activeMutantEnv(): Record<string, string> {
  const id = Deno.env.get("__STRYKER_ACTIVE_MUTANT__");
  return id === undefined ? {} : { __STRYKER_ACTIVE_MUTANT__: id };
}
