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
import type { LineOf } from "../contract/schema_issue_error.ts";
import { tomlErrorSentence, tomlKeyLines } from "../contract/toml_key_lines.ts";
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
        `not valid TOML: ${tomlErrorSentence(error.message)}`,
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
  const lineOf = tomlKeyLines(text);
  const issues = reportMisspelling(parsed.error.issues.map((issue) => {
    const described = describeSettingsIssue(
      issue as z.core.$ZodIssue,
      SettingsSchema,
      raw,
    );
    return { ...described, line: nearestKeyLine(lineOf, described.path) };
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
function nearestKeyLine(
  lineOf: LineOf,
  keyPath: readonly (string | number)[],
): number | undefined {
  for (let n = keyPath.length; n > 0; n--) {
    const line = lineOf(keyPath.slice(0, n));
    if (line !== undefined) return line;
  }
  return undefined;
}
