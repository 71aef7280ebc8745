/**
 * pawl's own settings, from the base commit only.
 *
 * @module
 */
import { ContractSyntaxError } from "../contract/contract_syntax_error.ts";
import { type Finding, finding } from "../core/finding.ts";
import { BlobTooLargeError } from "../git/git_error.ts";
import type { Git, Tree } from "../git/git.ts";
import { readSettings } from "../settings/read_settings.ts";
import { DEFAULT_SETTINGS, type Settings } from "../settings/settings.ts";

/** pawl's own settings file (read from the base commit only). */
export const SETTINGS_PATH = "pawl.toml";

/** Config files larger than this are refused before parsing. */
export const CONFIG_MAX_BYTES = 1024 * 1024;

/** The base's settings, and a finding when the pull request changes them. */
export interface BaseSettings {
  /** The settings that judge this pull request. */
  settings: Settings;
  /** `config.settings_ignored` when the head's copy differs. */
  findings: Finding[];
}

/**
 * Read `pawl.toml` at base (defaults when absent). Throws
 * `ContractSyntaxError` when the base's copy cannot be read.
 */
export async function readBaseSettings(
  git: Git,
  trees: { baseTree: Tree; headTree: Tree },
): Promise<BaseSettings> {
  const base = trees.baseTree.get(SETTINGS_PATH);
  const head = trees.headTree.get(SETTINGS_PATH);
  const findings: Finding[] = [];
  if (base?.oid !== head?.oid || base?.kind !== head?.kind) {
    findings.push(finding(
      "config.settings_ignored",
      `The pull request changes "${SETTINGS_PATH}"; only the base commit's copy decides how it is judged`,
      { path: SETTINGS_PATH },
    ));
  }
  if (base === undefined) return { settings: DEFAULT_SETTINGS, findings };
  if (base.kind !== "file" && base.kind !== "executable") {
    throw new ContractSyntaxError(SETTINGS_PATH, "it is not a regular file", {
      subject: "settings",
    });
  }
  let bytes: Uint8Array;
  try {
    bytes = await git.readBlob(base.oid, { maxBytes: CONFIG_MAX_BYTES });
  } catch (error) {
    if (error instanceof BlobTooLargeError) {
      throw new ContractSyntaxError(
        SETTINGS_PATH,
        `larger than ${CONFIG_MAX_BYTES} bytes; refused before parsing`,
        { subject: "settings" },
      );
    }
    throw error;
  }
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new ContractSyntaxError(SETTINGS_PATH, "not valid UTF-8", {
      subject: "settings",
    });
  }
  return {
    settings: readSettings(text, { path: SETTINGS_PATH }),
    findings,
  };
}
