/**
 * Seed 002: "predicates on public functions only". A contract on a private
 * helper is the agent testing its own scaffolding.
 *
 * @module
 */

/**
 * Whether a dotted function path names something private: any segment
 * (package, module, class or function) that starts with `_`, dunders
 * included.
 *
 * @example
 * ```ts
 * import { isPrivateFunction } from "./is_private_function.ts";
 * if (!isPrivateFunction("billing.ledger._apply")) throw new Error();
 * if (!isPrivateFunction("billing._internal.apply")) throw new Error();
 * if (isPrivateFunction("billing.ledger.apply")) throw new Error();
 * ```
 */
export function isPrivateFunction(dotted: string): boolean {
  return dotted.split(".").some((segment) => segment.startsWith("_"));
}
