/**
 * pawl's version, recorded in every verdict.
 *
 * @module
 */

/** The release version (kept in step with deno.json). */
export const VERSION = "0.1.0";

/**
 * Where pawl's source and documentation live: the one place reports link
 * to (SARIF `informationUri`, every rule's `helpUri` into docs/rules.md).
 */
export const HOME_URL = "https://github.com/your-org/pawl";
