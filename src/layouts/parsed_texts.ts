/**
 * One judgement's parsed contract texts, so loading a layout twice (the
 * pull request against its base, and the base against itself) parses each
 * file once. Readers are pure functions of the text and the path, so the
 * second load may share the first one's value; nothing outlives the
 * judgement that made it.
 *
 * @module
 */

/** A pure contract reader: the value depends only on `text` and `path`. */
export type ContractReader<T> = (text: string, options: { path: string }) => T;

/** Parsed values by reader, path and text; see the module doc. */
export class ParsedTexts {
  #values = new Map<
    ContractReader<unknown>,
    Map<string, Map<string, unknown>>
  >();

  /**
   * `read(text, { path })`, or the value it gave for the same reader, path
   * and text before. A reader that throws is not remembered: it throws again.
   *
   * @example
   * ```ts
   * import { ParsedTexts } from "./parsed_texts.ts";
   * let calls = 0;
   * const read = (text: string) => ({ length: text.length, call: ++calls });
   * const parsed = new ParsedTexts();
   * const a = parsed.read(read, "abc", { path: "x.yaml" });
   * const b = parsed.read(read, "abc", { path: "x.yaml" });
   * if (a !== b || calls !== 1) throw new Error();
   * ```
   */
  read<T>(read: ContractReader<T>, text: string, options: { path: string }): T {
    const { path } = options;
    const byPath = this.#values.get(read) ?? new Map();
    this.#values.set(read, byPath);
    const byText = byPath.get(path) ?? new Map<string, unknown>();
    byPath.set(path, byText);
    if (byText.has(text)) return byText.get(text) as T;
    const value = read(text, { path });
    byText.set(text, value);
    return value;
  }
}
