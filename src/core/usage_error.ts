/**
 * The command line (or an equivalent set of options) is wrong: "could not
 * decide" (exit 2), never an accept.
 *
 * @module
 */

/** The command line is wrong. */
export class UsageError extends TypeError {
  /** Build the error. */
  constructor(message: string) {
    super(message);
    this.name = "UsageError";
  }
}
