/**
 * Secret bytes that are zeroed once used.
 *
 * @module
 */

/**
 * Run `use` on `secret`, then zero `secret`, whether `use` returned or threw:
 * a decoded key stays in memory no longer than it is needed.
 *
 * @example
 * ```ts
 * import { usedThenWiped } from "./_wipe.ts";
 * const secret = new Uint8Array([1, 2, 3]);
 * const sum = await usedThenWiped(secret, (b) => Promise.resolve(b[0]! + b[1]!));
 * if (sum !== 3 || secret.some((b) => b !== 0)) throw new Error();
 * ```
 */
export async function usedThenWiped<T>(
  secret: Uint8Array,
  use: (secret: Uint8Array) => Promise<T>,
): Promise<T> {
  try {
    return await use(secret);
  } finally {
    secret.fill(0);
  }
}
