/**
 * The signing key a run was given: a PEM file (`--key`) or the
 * `PAWL_SIGNING_KEY` environment variable.
 *
 * @module
 */
import { UsageError } from "../core/usage_error.ts";
import { readSigningKey, type SigningKey } from "./signing_key.ts";

/** A signing key and the file it came from. */
export interface LoadedSigningKey {
  /** The key. */
  key: SigningKey;
  /** The key file's resolved path (hidden from the sandbox); undefined for the environment. */
  path: string | undefined;
}

/**
 * Read the key from `path`, else from `PAWL_SIGNING_KEY` in `env`;
 * undefined when neither is given. Read before anything from the
 * repository runs.
 */
export async function loadSigningKey(
  path: string | undefined,
  env: Readonly<Record<string, string>>,
): Promise<LoadedSigningKey | undefined> {
  if (path !== undefined) {
    let pem: string;
    try {
      pem = await Deno.readTextFile(path);
    } catch (error) {
      throw new UsageError(
        `Cannot read signing key "${path}": ${
          error instanceof Error ? error.message : String(error)
        }`,
      );
    }
    // The sandbox hides the key file itself, by its resolved path.
    return {
      key: await readSigningKey(pem, path),
      path: await Deno.realPath(path),
    };
  }
  const pem = env["PAWL_SIGNING_KEY"];
  if (pem === undefined || pem === "") return undefined;
  return {
    key: await readSigningKey(pem, "PAWL_SIGNING_KEY"),
    path: undefined,
  };
}
