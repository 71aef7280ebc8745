/**
 * The "Options:" part of a command's usage, written from the option table
 * the command's parser reads: an option the parser accepts is described,
 * and a described option is one the parser accepts, by construction.
 *
 * @module
 */
import type { CommandOptions } from "./parse_command_args.ts";

/** What a command's `--help` says of one option. */
export interface OptionDoc {
  /** The placeholder of a string option's value, such as `FILE`. */
  value?: string;
  /** What the option does; each "\n" starts a line under the first. */
  text?: string;
  /** Shown on the line of this other option (`--publish, --no-publish`). */
  with?: string;
}

/** One option of a command: what the parser reads, and what help says. */
export type DocumentedOption = CommandOptions[string] & { doc: OptionDoc };

/** A command's option table, each option with its help. */
export type DocumentedOptions = Readonly<Record<string, DocumentedOption>>;

/** The line every command's help ends its options with. */
const HELP_TEXT = "print this usage";

/**
 * The options part of a usage text: one entry per option, in the table's
 * order, `-h, --help` last (main.ts reads it for every command). Labels
 * are padded to one column.
 *
 * @example
 * ```ts
 * import { optionsHelp } from "./options_help.ts";
 * const text = optionsHelp({
 *   out: { type: "string", doc: { value: "FILE", text: "write here" } },
 *   quiet: { type: "boolean", doc: { text: "no progress" } },
 * });
 * if (!text.startsWith("  --out FILE  write here\n  --quiet     no progress\n")) {
 *   throw new Error(text);
 * }
 * ```
 */
export function optionsHelp(options: DocumentedOptions): string {
  const entries: { label: string; lines: string[] }[] = [];
  for (const [name, option] of Object.entries(options)) {
    if (name === "help" || option.doc.with !== undefined) continue;
    const shown = [name, ...sharing(options, name)].map((n) =>
      `--${n}${options[n]?.doc.value ? ` ${options[n]!.doc.value}` : ""}`
    );
    entries.push({
      label: shown.join(", "),
      lines: (option.doc.text ?? "").split("\n"),
    });
  }
  entries.push({ label: "-h, --help", lines: [HELP_TEXT] });
  const column = Math.max(...entries.map((e) => e.label.length)) + 2;
  return entries.map(({ label, lines }) =>
    lines.map((line, i) =>
      `  ${(i === 0 ? label : "").padEnd(column)}${line}`.trimEnd() + "\n"
    ).join("")
  ).join("");
}

/** The options shown on `name`'s line. */
function sharing(options: DocumentedOptions, name: string): string[] {
  return Object.entries(options).filter(([, o]) => o.doc.with === name).map((
    [n],
  ) => n);
}
