/**
 * docs/rules.md, generated from the rule registry so that the page, the
 * SARIF help and the registry cannot drift apart: one heading per rule id
 * (what it checks, its layer, whether it blocks by default, how to fix).
 *
 * @module
 */
import {
  type Layer,
  LAYERS,
  type RuleId,
  RULES,
  type RuleStage,
} from "../core/rules.ts";
import { HOME_URL } from "../version.ts";
import { plural } from "../core/plural.ts";

/** The rules page, repository-relative. */
export const RULES_DOC_PATH = "docs/rules.md";

/** The rule an undecided run reports (it is in no layer: nothing was judged). */
export const UNDECIDED_RULE = "pawl.undecided";

/** What the undecided rule checks and what to do, for SARIF and the page. */
export const UNDECIDED_HELP = {
  summary: "pawl could not decide, so nothing was accepted",
  fix:
    "Read the reason pawl gives (bad arguments, a base contract that does not parse, a git failure, no test runner or no sandbox), fix its cause and run pawl again.",
} as const;

/**
 * The anchor GitHub gives the heading `### <id>` on the rules page: lower
 * case, punctuation other than `-` and `_` dropped, spaces as `-`.
 *
 * @example
 * ```ts
 * import { ruleAnchor } from "./render_rules_doc.ts";
 * if (ruleAnchor("property.min_examples_lowered") !== "propertymin_examples_lowered") throw new Error();
 * ```
 */
export function ruleAnchor(id: string): string {
  return id.toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, "").replace(
    /\s/g,
    "-",
  );
}

/** The URL of a rule's section of the rules page. */
export function ruleHelpUri(id: string): string {
  return `${HOME_URL}/blob/main/${RULES_DOC_PATH}#${ruleAnchor(id)}`;
}

const STAGE_TEXT: Record<RuleStage, string> = {
  static: "the static checks (`pawl diff` and `pawl check`)",
  tests: "the test runs (`pawl check` only)",
  either: "the static checks or the test runs",
};

const LAYER_TITLES: Record<Layer, string> = {
  config: "The contract files and pawl's own settings",
  harness: "What decides that a test passed",
  property: "Registered properties and contracts",
  fixture: "Content-addressed test data",
  freeze: "Budgeted flake exceptions",
  seed: "Frozen-seed replays and the fresh seed",
  tests: "The suite run",
};

/**
 * The Markdown of docs/rules.md. Pure: the same registry gives the same
 * bytes, which a test compares with the committed page.
 *
 * @example
 * ```ts
 * import { renderRulesDoc } from "./render_rules_doc.ts";
 * if (!renderRulesDoc().includes("\n### property.removed\n")) throw new Error();
 * ```
 */
export function renderRulesDoc(): string {
  const ids = Object.keys(RULES) as RuleId[];
  const lines = [
    "# Rules",
    "",
    "<!-- Generated from src/core/rules.ts by `deno run --allow-write=docs tools/write_rules_doc.ts`; edit the registry, not this page. -->",
    "",
    "Every finding pawl reports carries one of these stable rule ids. A rule that",
    "blocks by default rejects the pull request on its own; an advisory one is a",
    "note. The verdict JSON, SARIF (`ruleId`, with a `helpUri` to the rule's section",
    "here), JUnit (`type`) and the Markdown comment all use the same ids.",
    "",
  ];
  for (const layer of LAYERS) {
    const inLayer = ids.filter((id) => RULES[id].layer === layer);
    lines.push(`- [${layer}](#${layer}): ${plural(inLayer.length, "rule")}`);
  }
  lines.push(`- [${UNDECIDED_RULE}](#${ruleAnchor(UNDECIDED_RULE)})`, "");
  for (const layer of LAYERS) {
    lines.push(`## ${layer}`, "", `${LAYER_TITLES[layer]}.`, "");
    for (const id of ids.filter((id) => RULES[id].layer === layer)) {
      const spec = RULES[id];
      lines.push(
        ...section(id, spec.summary, spec.fix, [
          `- Layer: \`${spec.layer}\``,
          `- Blocks a merge by default: ${spec.blocking ? "yes" : "no"}`,
          `- Raised by: ${STAGE_TEXT[spec.stage]}`,
        ]),
      );
    }
  }
  lines.push(
    "## Undecided",
    "",
    "The one result of a run that could not decide (exit 2).",
    "",
    ...section(UNDECIDED_RULE, UNDECIDED_HELP.summary, UNDECIDED_HELP.fix, [
      "- Layer: none (nothing was judged)",
      "- Blocks a merge: yes, always",
    ]),
  );
  return lines.join("\n").replace(/\n+$/, "\n");
}

function section(
  id: string,
  summary: string,
  fix: string,
  facts: string[],
): string[] {
  return [
    `### ${id}`,
    "",
    ...wrap(inline(`${summary}.`), ""),
    "",
    ...facts,
    ...wrap(`- How to fix: ${inline(fix)}`, "  "),
    "",
  ];
}

/** Characters that Markdown would read as emphasis, links, HTML or mentions. */
const MARKUP = /[_*[\]<>@`]/;

/**
 * Registry text as Markdown: a word Markdown would misread (`__init__.py`,
 * `[[excuses]]`, `@given`) becomes a code span, its punctuation outside.
 */
export function inline(text: string): string {
  return text.split(" ").map((word) => {
    if (!MARKUP.test(word)) return word;
    const match = /^(\(?)(.*?)([.,;:)]*)$/.exec(word);
    const [, open = "", core = "", close = ""] = match ?? [];
    return core === "" ? word : `${open}\`${core}\`${close}`;
  }).join(" ");
}

/** Greedy wrapping at 80 columns, as `deno fmt` wraps prose. */
function wrap(text: string, indent: string): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(" ")) {
    const next = line === "" ? word : `${line} ${word}`;
    if (line !== "" && next.length > 80) {
      lines.push(line);
      line = `${indent}${word}`;
    } else {
      line = next;
    }
  }
  lines.push(line);
  return lines;
}
