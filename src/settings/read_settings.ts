/**
 * Read `pawl.toml` text into typed settings, with errors that name the file,
 * the key and the line.
 *
 * @module
 */
import { parse as parseToml, TomlError } from "smol-toml";
import type { z } from "zod";
import { ContractSyntaxError } from "../contract/contract_syntax_error.ts";
import { reportMisspelling } from "../contract/report_misspelling.ts";
import { describeSettingsIssue } from "./_settings_issue.ts";
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
      throw new ContractSyntaxError(
        path,
        `not valid TOML: ${firstLine(error.message)}`,
        {
          line: error.line,
          column: error.column,
          subject: "settings",
        },
      );
    }
    throw error;
  }
  const parsed = SettingsSchema.safeParse(raw);
  if (parsed.success) return parsed.data;
  // The problem nearest the top of the file comes first, a misspelt key
  // rather than the key it was meant to be.
  const issues = reportMisspelling(parsed.error.issues.map((issue) => {
    const described = describeSettingsIssue(
      issue as z.core.$ZodIssue,
      SettingsSchema,
      raw,
    );
    return { ...described, line: nearestKeyLine(text, described.path) };
  }));
  issues.sort((a, b) => (a.line ?? Infinity) - (b.line ?? Infinity));
  const first = issues[0]!;
  throw new ContractSyntaxError(path, first.detail, {
    line: first.line,
    key: first.key,
    subject: "settings",
    lineAfter: first.keyText,
    hint: first.hint,
  });
}

/** The line of `keyPath`, or of its closest ancestor table. */
function nearestKeyLine(text: string, keyPath: string[]): number | undefined {
  for (let n = keyPath.length; n > 0; n--) {
    const line = tomlKeyLine(text, keyPath.slice(0, n));
    if (line !== undefined) return line;
  }
  return undefined;
}

function firstLine(message: string): string {
  return (message.split("\n")[0] ?? message).replace(/\.$/, "");
}

/**
 * Locate `a.b` as key `b` inside table `[a]`, as the dotted key `a.b` at
 * the top level, or as `b.c` inside `[a]` for `a.b.c`; `a.1.b` is key `b`
 * under the second `[[a]]` header.
 */
function tomlKeyLine(text: string, keyPath: string[]): number | undefined {
  if (keyPath.length === 0) return undefined;
  const wanted = keyPath.join(".");
  let current: string[] = [];
  // An array of tables (`[[excuses]]`) is indexed: its Nth header opens `excuses.N`.
  const arrays = new Map<string, number>();
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const line = (lines[i] ?? "").trim();
    const header = /^\[\[?\s*([^\]]+?)\s*\]\]?/.exec(line);
    if (header !== null) {
      const table = dottedKey(header[1] ?? "");
      current = table;
      if (line.startsWith("[[")) {
        const index = arrays.get(table.join(".")) ?? 0;
        arrays.set(table.join("."), index + 1);
        current = [...table, String(index)];
      }
      if (
        current.join(".") === wanted || table.join(".") === wanted
      ) return i + 1;
      continue;
    }
    const eq = line.indexOf("=");
    if (eq > 0 && !line.startsWith("#")) {
      const name = [...current, ...dottedKey(line.slice(0, eq))];
      if (name.join(".") === wanted) return i + 1;
    }
  }
  return undefined;
}

/** The parts of a TOML key such as `tests . "command"`, unquoted. */
function dottedKey(text: string): string[] {
  return text.split(".").map((part) => part.trim().replace(/^["']|["']$/g, ""));
}
