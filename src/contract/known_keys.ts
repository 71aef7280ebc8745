/**
 * The keys a strict zod object schema allows at a key path, so an unknown
 * key can be answered with the nearest known one.
 *
 * @module
 */
import type { z } from "zod";

/** A key path as zod reports it. */
export type KeyPath = readonly PropertyKey[];

interface Def {
  type: string;
  shape?: Record<string, z.ZodType>;
  innerType?: z.ZodType;
  in?: z.ZodType;
  element?: z.ZodType;
  valueType?: z.ZodType;
  options?: readonly z.ZodType[];
  getter?: () => z.ZodType;
}

/**
 * The allowed keys of the object that `path` leads to inside `schema`
 * (through optional, default, pipe, array, record, union and lazy
 * wrappers); empty when the path does not lead to an object.
 *
 * @example
 * ```ts
 * import { z } from "zod";
 * import { knownKeys } from "./known_keys.ts";
 * const schema = z.strictObject({ tests: z.strictObject({ runner: z.string() }).optional() });
 * if (knownKeys(schema, ["tests"]).join() !== "runner") throw new Error();
 * ```
 */
export function knownKeys(schema: z.ZodType, path: KeyPath): string[] {
  const keys = new Set<string>();
  for (const node of objectsAt(schema, path, 0)) {
    for (const key of Object.keys(defOf(node).shape ?? {})) keys.add(key);
  }
  return [...keys];
}

function defOf(schema: z.ZodType): Def {
  return (schema as unknown as { _zod: { def: Def } })._zod.def;
}

/**
 * The schemas reached by following `path` from index `at`, past their
 * wrappers; only objects among them have keys.
 */
function objectsAt(
  schema: z.ZodType,
  path: KeyPath,
  at: number,
  depth = 0,
): z.ZodType[] {
  // Stryker disable next-line EqualityOperator: the limit only stops a recursive schema; one level more or less decides no real path
  if (depth > 64) return [];
  const def = defOf(schema);
  // Optional, default and pipe (by its input) wrap an inner type; lazy gets it.
  const inner = def.innerType ?? def.in ?? def.getter?.();
  if (inner !== undefined) return objectsAt(inner, path, at, depth + 1);
  if (def.type === "union") {
    return def.options!.flatMap((option) =>
      objectsAt(option, path, at, depth + 1)
    );
  }
  if (at === path.length) return [schema];
  const segment = path[at];
  if (def.type === "object") {
    // Own keys only: "constructor" or "__proto__" in a path is no child.
    const key = String(segment);
    return Object.hasOwn(def.shape!, key)
      ? objectsAt(def.shape![key]!, path, at + 1, depth + 1)
      : [];
  }
  if (def.type === "array") {
    return objectsAt(def.element!, path, at + 1, depth + 1);
  }
  if (def.type === "record") {
    return objectsAt(def.valueType!, path, at + 1, depth + 1);
  }
  return [];
}
