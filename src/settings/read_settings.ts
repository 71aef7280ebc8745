/**
 * Read `pawl.toml` text into typed settings, with errors that name the file,
 * the key and the line.
 *
 * @module
 */
import { parse as parseToml, TomlError } from "smol-toml";
import type { z } from "zod";
import { ContractSyntaxError } from "../contract/contract_syntax_error.ts";
import { type Settings, SettingsSchema } from "./settings.ts";

/** Options for {@linkcode readSettings}. */
export interface ReadSettingsOptions {
  /** Repository-relative path, for messages. */
  path?: string;
}

/**
 * Parse and validate `pawl.toml`. Unknown keys are errors.
 *
 * @example
 * ```ts
 * import { readSettings } from "./read_settings.ts";
 * const s = readSettings('[tests]\ntimeout_seconds = 60\n');
 * if (s.tests.timeout_seconds !== 60) throw new Error("unexpected");
 * ```
 */
export function readSettings(
  text: string,
  options: ReadSettingsOptions = {},
): Settings {
  const path = options.path ?? "pawl.toml";
  let raw: unknown;
  try {
    raw = parseToml(text);
  } catch (error) {
    if (error instanceof TomlError) {
      throw new ContractSyntaxError(path, firstLine(error.message), {
        line: error.line,
        column: error.column,
      });
    }
    throw error;
  }
  const parsed = SettingsSchema.safeParse(raw);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0] as z.core.$ZodIssue;
  const keys = issue.code === "unrecognized_keys" ? issue.keys : [];
  const keyPath = [...issue.path.map(String), ...keys.slice(0, 1)];
  const line = tomlKeyLine(text, keyPath);
  const what = issue.code === "unrecognized_keys"
    ? `unknown key "${keyPath.join(".")}"`
    : `key "${keyPath.join(".")}": ${issue.message}`;
  throw new ContractSyntaxError(path, what, {
    line,
    key: keyPath.join("."),
  });
}

function firstLine(message: string): string {
  return (message.split("\n")[0] ?? message).replace(/\.$/, "");
}

/** Locate `a.b` as key `b` inside table `[a]` (or as a top-level key). */
function tomlKeyLine(text: string, keyPath: string[]): number | undefined {
  const key = keyPath.at(-1);
  if (key === undefined) return undefined;
  const table = keyPath.slice(0, -1).join(".");
  let current = "";
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const line = (lines[i] ?? "").trim();
    const header = /^\[\[?\s*([^\]]+?)\s*\]\]?/.exec(line);
    if (header !== null) {
      current = header[1] ?? "";
      if (current === keyPath.join(".")) return i + 1;
      continue;
    }
    const eq = line.indexOf("=");
    if (eq > 0 && current === table) {
      const name = line.slice(0, eq).trim().replace(/^["']|["']$/g, "");
      if (name === key) return i + 1;
    }
  }
  return undefined;
}
