/**
 * The registered properties, resolved against the head's git objects.
 *
 * @module
 */
import { modulePath } from "../contract/module_path.ts";
import type { DialectId, PlannedProperty } from "../layouts/dialect.ts";
import type { Tree } from "../git/git.ts";
import type { PythonModule } from "../python/python_module.ts";
import type { LayoutPlans } from "./plan_test_runs.ts";

/** A registered property and where it is at head. */
export interface LocatedProperty extends PlannedProperty {
  /** The layout that registers it. */
  layout: DialectId;
  /** Head file of the test module, when it resolves. */
  file: string | undefined;
  /** 1-based def line, when the function exists at head. */
  line: number | undefined;
  /** pytest node id, when the function exists at head. */
  nodeId: string | undefined;
}

/** Reads one head file's analysis (undefined when it cannot be read). */
export type HeadModuleReader = (
  file: string,
) => Promise<PythonModule | undefined>;

/** Locate every planned property, in plan order. */
export async function locateProperties(
  plans: LayoutPlans,
  headTree: Tree,
  headModule: HeadModuleReader,
): Promise<LocatedProperty[]> {
  const located: LocatedProperty[] = [];
  for (const { layout, plan } of plans) {
    for (const prop of plan.properties) {
      const file = modulePath(prop.module, headTree);
      const fn = file === undefined
        ? undefined
        : (await headModule(file))?.functions.get(prop.name);
      located.push({
        ...prop,
        layout,
        file,
        line: fn?.line,
        nodeId: file === undefined || fn === undefined
          ? undefined
          : `${file}::${
            fn.stateful?.nodeName ?? prop.name.split(".").join("::")
          }`,
      });
    }
  }
  return located;
}
