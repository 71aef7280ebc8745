/**
 * pawl's version, recorded in every verdict.
 *
 * @module
 */

/** The release version (kept in step with deno.json). */
export const VERSION = "0.1.0";
