/**
 * The tests no excuse may deselect: every registered property and every
 * frozen seed's test, of the base's contract and of the head's additions.
 *
 * @module
 */
import { modulePath } from "../contract/module_path.ts";
import type { Tree } from "../git/git.ts";
import type { LoadedDialect, StaticInput } from "../layouts/dialect.ts";
import type { GuardedTest } from "./judge_excuses.ts";
import { layoutName } from "../core/layout_name.ts";

/**
 * List the guarded tests of the pull request (`loaded` over `input`) and
 * of the base judged against itself (`selves` over `baseInput`); a test
 * the base's plan has is `atBase`.
 */
export function guardedTests(
  sides: {
    loaded: readonly LoadedDialect[];
    selves: readonly LoadedDialect[];
  },
  inputs: { input: StaticInput; baseInput: StaticInput },
): GuardedTest[] {
  const base = sides.selves.flatMap((d) =>
    planned(d, inputs.baseInput, inputs.baseInput.baseTree)
  );
  const atBase = new Set(base.map((t) => t.nodeId));
  const head = sides.loaded.flatMap((d) =>
    planned(d, inputs.input, inputs.input.headTree)
  ).filter((t) => !atBase.has(t.nodeId));
  return [
    ...base.map((t) => ({ ...t, atBase: true })),
    ...head.map((t) => ({ ...t, atBase: false })),
  ];
}

function planned(
  dialect: LoadedDialect,
  input: StaticInput,
  tree: Tree,
): Omit<GuardedTest, "atBase">[] {
  const plan = dialect.plan(input);
  return [
    ...plan.properties.map((p) => ({
      nodeId: `${
        modulePath(p.module, tree) ?? `${p.module.replaceAll(".", "/")}.py`
      }::${p.name.split(".").join("::")}`,
      what: `the registered property ${JSON.stringify(p.id)} (layout ${
        layoutName(dialect.id)
      })`,
    })),
    ...plan.replays.map((r) => ({
      nodeId: r.test,
      what: `the test of frozen seed ${r.seed} (freeze ${
        JSON.stringify(r.id)
      }, layout ${layoutName(dialect.id)})`,
    })),
  ];
}
