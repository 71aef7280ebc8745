/**
 * The base has nothing to judge against: "could not decide" (exit 2).
 *
 * @module
 */

/** The base commit has no contract pawl can judge against. */
export class NoContractError extends Error {
  /** Build the error. */
  constructor(message: string) {
    super(message);
    this.name = "NoContractError";
  }
}
