/**
 * The base's setup step could not give the tests their environment: pawl
 * cannot decide (exit 2), and the pull request is not at fault.
 *
 * @module
 */

/** The setup step failed, or its inputs or cache are unusable. */
export class SetupFailedError extends Error {
  /** Build the error. */
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = "SetupFailedError";
  }
}
