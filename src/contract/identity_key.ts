/**
 * How pawl compares owners and ids: two names that a reviewer cannot tell
 * apart are the same name. Modelled on the UTS #39 skeleton, kept small:
 * NFKC (fullwidth and mathematical letters become ASCII), default-ignorable
 * characters dropped (zero-width spaces and joiners, soft hyphens,
 * variation selectors, bidi marks), case folded, white space trimmed and
 * collapsed, and the Cyrillic, Greek and Latin-extension letters that look
 * like ASCII letters mapped onto them.
 *
 * @module
 */

/** Look-alikes of ASCII letters (after NFKC and lower-casing). */
const CONFUSABLES: ReadonlyMap<string, string> = new Map(
  Object.entries({
    // Cyrillic
    "а": "a",
    "в": "b",
    "ԁ": "d",
    "е": "e",
    "ё": "e",
    "һ": "h",
    "і": "i",
    "ї": "i",
    "ј": "j",
    "к": "k",
    "ӏ": "l",
    "м": "m",
    "н": "h",
    "о": "o",
    "р": "p",
    "ԛ": "q",
    "г": "r",
    "ѕ": "s",
    "т": "t",
    "ц": "u",
    "ѵ": "v",
    "ԝ": "w",
    "х": "x",
    "у": "y",
    "з": "3",
    // Greek
    "α": "a",
    "β": "b",
    "ε": "e",
    "η": "n",
    "ι": "i",
    "κ": "k",
    "ν": "v",
    "ο": "o",
    "ρ": "p",
    "τ": "t",
    "υ": "u",
    "χ": "x",
    "γ": "y",
    // Latin extensions and IPA
    "ı": "i",
    "ȷ": "j",
    "ɑ": "a",
    "ɡ": "g",
    "ɩ": "i",
    "ո": "n",
    "ս": "u",
    "ց": "g",
    "օ": "o",
  }),
);

/**
 * Unicode default-ignorable code points that commonly hide inside names:
 * soft hyphen, combining grapheme joiner, Hangul fillers, Mongolian vowel
 * separator, zero-width space/joiners, bidi marks and embeddings, word
 * joiner and invisible operators, variation selectors, the byte order mark.
 */
const IGNORABLE =
  /[\u00AD\u034F\u115F\u1160\u17B4\u17B5\u180B-\u180F\u200B-\u200F\u202A-\u202E\u2060-\u206F\u3164\uFE00-\uFE0F\uFEFF\uFFA0\u{1D173}-\u{1D17A}\u{E0000}-\u{E0FFF}]/gu;

/**
 * The comparison key of an owner or id: equal keys are names a reviewer
 * cannot tell apart.
 *
 * @example
 * ```ts
 * import { identityKey } from "./identity_key.ts";
 * for (const name of ["аgent", "Agent", " agent ", "a\u200bgent", "ＡＧＥＮＴ", "αgεnt"]) {
 *   if (identityKey(name) !== "agent") throw new Error(name);
 * }
 * ```
 */
export function identityKey(text: string): string {
  const folded = text.normalize("NFKC").replace(IGNORABLE, "")
    .toLowerCase().normalize("NFKC");
  let out = "";
  for (const char of folded) out += CONFUSABLES.get(char) ?? char;
  return out.replace(/\s+/gu, " ").trim();
}

/**
 * Whether `owner` names the agent: `agent` in any case, spacing, width or
 * look-alike letters.
 *
 * @example
 * ```ts
 * import { isAgentName } from "./identity_key.ts";
 * if (!isAgentName("аgent") || isAgentName("agents")) throw new Error();
 * ```
 */
export function isAgentName(owner: string | undefined | null): boolean {
  return typeof owner === "string" && identityKey(owner) === "agent";
}

/**
 * The message for an id that repeats an earlier one (`first`), saying so
 * when the two are only look-alikes.
 *
 * @example
 * ```ts
 * import { duplicateIdMessage } from "./identity_key.ts";
 * if (duplicateIdMessage("a", "a", "freezes") !== 'duplicate id "a" in "freezes"') throw new Error();
 * ```
 */
export function duplicateIdMessage(
  id: string,
  first: string,
  section: string,
): string {
  const same = id === first
    ? ""
    : ` (it reads as ${JSON.stringify(first)}, an earlier id)`;
  return `duplicate id ${JSON.stringify(id)}${same} in "${section}"`;
}
