/**
 * The error an audit's command line raises when a selection or clock
 * option cannot be read.
 *
 * @module
 */

/** An audit option (`--prs`, `--since`, `--shard`, ...) cannot be read. */
export class AuditOptionError extends RangeError {
  /** Build the error. */
  constructor(message: string) {
    super(message);
    this.name = "AuditOptionError";
  }
}
