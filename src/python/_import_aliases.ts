import type { Node } from "web-tree-sitter";
import { realChildren } from "./_real_children.ts";
import { walk } from "./_walk.ts";

/**
 * Node types that can hold an import statement in a tree without syntax
 * errors (from the grammar's `node-types.json`): the module, blocks, and
 * compound statements and their clauses.
 */
const STATEMENT_CONTAINERS: ReadonlySet<string> = new Set([
  "module",
  "block",
  "if_statement",
  "elif_clause",
  "else_clause",
  "for_statement",
  "while_statement",
  "try_statement",
  "except_clause",
  "finally_clause",
  "with_statement",
  "match_statement",
  "case_clause",
  "function_definition",
  "class_definition",
  "decorated_definition",
]);

/** Prefixes of names worth following through a module-level assignment. */
const MARK_PREFIXES = ["pytest.mark.", "mark.", "unittest."];

/**
 * What the names bound by imports stand for, so `@mark.skip` after
 * `from pytest import mark` and `@pt.mark.skip` after `import pytest as pt`
 * both read as `pytest.mark.skip`. Module-level assignments of marks
 * (`slow_skip = pytest.mark.skipif(...)`) are followed too.
 *
 * Scoping is ignored: an import anywhere in the file counts everywhere, and
 * the first binding of a name wins. Star imports bind nothing.
 */
export class ImportAliases {
  #names = new Map<string, string>();

  /** Collect the imports of a parsed module. */
  static fromModule(root: Node): ImportAliases {
    const aliases = new ImportAliases();
    // Without syntax errors an import is a statement, so only nodes that
    // can hold statements need entering; recovered trees are walked whole.
    const valid = !root.hasError;
    walk(root, (node, _parent, type) => {
      if (type === "import_statement") aliases.#addImport(node);
      else if (type === "import_from_statement") {
        aliases.#addFromImport(node);
      } else if (STATEMENT_CONTAINERS.has(type)) return true;
      return !valid;
    });
    for (const statement of realChildren(root)) {
      aliases.#addMarkAlias(statement);
    }
    return aliases;
  }

  /**
   * The dotted name an identifier or attribute chain stands for, e.g.
   * `pytest.mark.skip`; undefined for anything else (calls, subscripts).
   * Pass `type` when the caller has already read `node.type`.
   */
  canonical(node: Node, type: string = node.type): string | undefined {
    const dotted = dottedName(node, type);
    if (dotted === undefined) return undefined;
    const dot = dotted.indexOf(".");
    const head = dot === -1 ? dotted : dotted.slice(0, dot);
    const target = this.#names.get(head);
    return target === undefined ? dotted : target + dotted.slice(head.length);
  }

  /** {@linkcode ImportAliases.canonical} for a dotted name given as text (`a.b.c`). */
  canonicalText(dotted: string): string {
    const dot = dotted.indexOf(".");
    const head = dot === -1 ? dotted : dotted.slice(0, dot);
    const target = this.#names.get(head);
    return target === undefined ? dotted : target + dotted.slice(head.length);
  }

  #bind(local: string, target: string): void {
    if (!this.#names.has(local)) this.#names.set(local, target);
  }

  #addImport(statement: Node): void {
    for (const name of statement.childrenForFieldName("name")) {
      if (name?.type !== "aliased_import") continue; // `import a.b` binds `a` to itself
      const module = name.childForFieldName("name");
      const alias = name.childForFieldName("alias");
      if (module !== null && alias !== null) {
        this.#bind(alias.text, module.text);
      }
    }
  }

  #addFromImport(statement: Node): void {
    const module = statement.childForFieldName("module_name");
    if (module === null || module.type !== "dotted_name") return; // relative imports
    for (const name of statement.childrenForFieldName("name")) {
      if (name === null) continue;
      if (name.type === "dotted_name") {
        this.#bind(name.text, `${module.text}.${name.text}`);
      } else if (name.type === "aliased_import") {
        const original = name.childForFieldName("name");
        const alias = name.childForFieldName("alias");
        if (original !== null && alias !== null) {
          this.#bind(alias.text, `${module.text}.${original.text}`);
        }
      }
    }
  }

  #addMarkAlias(statement: Node): void {
    if (statement.type !== "expression_statement") return;
    const assignment = realChildren(statement)[0];
    if (assignment?.type !== "assignment") return;
    const left = assignment.childForFieldName("left");
    let right = assignment.childForFieldName("right");
    if (left?.type !== "identifier" || right === null) return;
    if (right.type === "call") right = right.childForFieldName("function");
    const target = right === null ? undefined : this.canonical(right);
    if (
      target !== undefined &&
      MARK_PREFIXES.some((prefix) => target.startsWith(prefix))
    ) {
      this.#bind(left.text, target);
    }
  }
}

/** `a.b.c` for an identifier or attribute chain, else undefined. */
function dottedName(node: Node, type: string): string | undefined {
  if (type === "identifier") return node.text;
  if (type !== "attribute") return undefined;
  const object = node.childForFieldName("object");
  const attribute = node.childForFieldName("attribute");
  if (object === null || attribute === null) return undefined;
  const base = dottedName(object, object.type);
  return base === undefined ? undefined : `${base}.${attribute.text}`;
}
