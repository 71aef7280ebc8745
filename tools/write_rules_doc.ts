/**
 * Write docs/rules.md from the rule registry. Run after changing
 * src/core/rules.ts: `deno run --allow-write=docs tools/write_rules_doc.ts`.
 *
 * @module
 */
import {
  renderRulesDoc,
  RULES_DOC_PATH,
} from "../src/report/render_rules_doc.ts";

if (import.meta.main) {
  await Deno.writeTextFile(
    new URL(`../${RULES_DOC_PATH}`, import.meta.url),
    renderRulesDoc(),
  );
}
