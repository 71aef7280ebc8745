/**
 * The registered properties the test stage runs: located at head, those
 * that resolve, and of those the ones the base's oracle runs (their test
 * is at the base, in the same file).
 *
 * @module
 */
import { modulePath } from "../contract/module_path.ts";
import {
  type HeadModuleReader,
  type LocatedProperty,
  locateProperties,
} from "./locate_properties.ts";
import type { LayoutPlans } from "./plan_test_runs.ts";
import type { Commits } from "./read_commits.ts";

/** The properties of the test stage's runs. */
export interface RunProperties {
  /** Every registered property, located at head, in plan order. */
  located: LocatedProperty[];
  /** Those that resolve (with node ids). */
  resolved: LocatedProperty[];
  /** Of those, the ones whose test the base has in the same file. */
  atBase: LocatedProperty[];
}

/** Locate the properties at head, and find which of them the base has. */
export async function locateRunProperties(
  plans: LayoutPlans,
  commits: Commits,
  readers: { headModule: HeadModuleReader; baseModule: HeadModuleReader },
): Promise<RunProperties> {
  const located = await locateProperties(
    plans,
    commits.headTree,
    readers.headModule,
  );
  const resolved = located.filter((p) => p.nodeId !== undefined);
  const atBase: LocatedProperty[] = [];
  for (const p of resolved) {
    if (
      p.file !== undefined &&
      modulePath(p.module, commits.baseTree) === p.file &&
      (await readers.baseModule(p.file))?.functions.has(p.name) === true
    ) atBase.push(p);
  }
  return { located, resolved, atBase };
}
