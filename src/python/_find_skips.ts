import type { Node } from "web-tree-sitter";
import type { SkipMarker } from "./python_module.ts";
import type { ImportAliases } from "./_import_aliases.ts";
import { sameNode } from "./_same_node.ts";
import { NESTED_SCOPES } from "./_nested_scopes.ts";
import { walk } from "./_walk.ts";

type SkipKind = SkipMarker["kind"];

/** Marks that skip or xfail whatever they are applied to. */
const MARKS: ReadonlyMap<string, SkipKind> = new Map([
  ["pytest.mark.skip", "skip"],
  ["pytest.mark.skipif", "skipif"],
  ["pytest.mark.xfail", "xfail"],
  // `mark` bound by a star import or not at all.
  ["mark.skip", "skip"],
  ["mark.skipif", "skipif"],
  ["mark.xfail", "xfail"],
  ["unittest.skip", "skip"],
  ["unittest.skipIf", "skipif"],
  ["unittest.skipUnless", "skipif"],
  ["unittest.expectedFailure", "xfail"],
]);

/** Functions and exceptions that skip or xfail when called or raised. */
const CALLS: ReadonlyMap<string, SkipKind> = new Map([
  ["pytest.skip", "skip"],
  ["pytest.skip.Exception", "skip"],
  ["pytest.xfail", "xfail"],
  ["pytest.importorskip", "importorskip"],
  ["unittest.SkipTest", "skip"],
  ["unittest.case.SkipTest", "skip"],
]);

/** Parents under which an identifier is not a reference to a value. */
const NOT_REFERENCES = new Set([
  "attribute",
  "dotted_name",
  "aliased_import",
  "import_prefix",
  "relative_import",
]);

/** Options for {@linkcode findSkips}. */
export interface FindSkipsOptions {
  /** Report references to skip marks, not only skip calls (default true). */
  marks?: boolean;
  /** Look inside nested functions, classes and lambdas (default true). */
  enterDefinitions?: boolean;
}

/**
 * Every skip or xfail in a subtree: references to skip marks
 * (`pytest.mark.skip`, `unittest.skipIf`, also inside `pytest.param(...,
 * marks=...)` and `request.applymarker(...)`), calls to `pytest.skip`,
 * `pytest.xfail`, `pytest.importorskip` and `self.skipTest`, and raising
 * `unittest.SkipTest` or `pytest.skip.Exception`.
 */
export function findSkips(
  root: Node,
  aliases: ImportAliases,
  options: FindSkipsOptions = {},
): SkipMarker[] {
  const marks = options.marks ?? true;
  const enterDefinitions = options.enterDefinitions ?? true;
  const found: SkipMarker[] = [];
  walk(root, (node, parent, type, parentType) => {
    if (!enterDefinitions && node !== root && NESTED_SCOPES.has(type)) {
      return false;
    }
    if (type !== "identifier" && type !== "attribute") return;
    if (parentType !== undefined && NOT_REFERENCES.has(parentType)) {
      return false;
    }
    if (
      parentType === "keyword_argument" &&
      sameNode(parent?.childForFieldName("name"), node)
    ) {
      return false;
    }
    const kind = skipKind(node, type, parent, parentType, aliases, marks);
    if (kind !== undefined) {
      found.push({ kind, line: node.startPosition.row + 1 });
    }
    // Parts of an attribute chain are skipped above (their parent is an
    // attribute), but a call inside one (`f().x`) is still visited.
  });
  return found;
}

function skipKind(
  reference: Node,
  type: string,
  parent: Node | null,
  parentType: string | undefined,
  aliases: ImportAliases,
  marks: boolean,
): SkipKind | undefined {
  const name = aliases.canonical(reference, type);
  if (name === undefined) return undefined;
  if (marks) {
    const kind = MARKS.get(name);
    if (kind !== undefined) return kind;
  }
  const called = parentType === "call" &&
    sameNode(parent?.childForFieldName("function"), reference);
  const raised = parentType === "raise_statement";
  if (!called && !raised) return undefined;
  if (called && name.endsWith(".skipTest")) return "skip";
  return CALLS.get(name);
}
