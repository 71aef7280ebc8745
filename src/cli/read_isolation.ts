/**
 * The `--isolation` flag.
 *
 * @module
 */
import { UsageError } from "../core/usage_error.ts";
import type { IsolationRequest } from "../sandbox/probe_isolation.ts";

/** Every value `--isolation` takes, strongest first after `auto`. */
export const ISOLATION_REQUESTS: readonly IsolationRequest[] = [
  "auto",
  "bwrap",
  "unshare",
  "uid",
  "none",
];

/** Read `--isolation`; anything else is a usage error naming the choices. */
export function readIsolation(text: string): IsolationRequest {
  const found = ISOLATION_REQUESTS.find((i) => i === text);
  if (found === undefined) {
    throw new UsageError(
      `Unknown isolation "${text}": expected one of ${
        ISOLATION_REQUESTS.join(", ")
      }`,
    );
  }
  return found;
}
