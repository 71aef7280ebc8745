/**
 * The sandbox uid range of a command line, as a usage error when it does
 * not read.
 *
 * @module
 */
import { UsageError } from "./parse_command_args.ts";
import {
  sandboxLeaseFrom,
  type SandboxLeaseSettings,
} from "../sandbox/lease_uid.ts";
import { SandboxUidRangeError } from "../sandbox/sandbox_errors.ts";

/**
 * {@linkcode sandboxLeaseFrom} `flag` (named `flagName`) and `env`; throws
 * `UsageError` (exit 2) for a value that does not read.
 */
export function readSandboxLease(
  flag: string | undefined,
  env: Readonly<Record<string, string | undefined>>,
  flagName = "--sandbox-uids",
): SandboxLeaseSettings {
  try {
    return sandboxLeaseFrom(flag, env, flagName);
  } catch (error) {
    if (error instanceof SandboxUidRangeError) {
      throw new UsageError(error.message);
    }
    throw error;
  }
}
