/**
 * Which files the registered properties reach, by import analysis: from
 * each test module, every `import` and `from … import` (relative ones
 * too, anywhere in the file) that resolves to a Python file of the tree,
 * followed transitively. A package's `__init__.py` on the way counts, as
 * Python runs it. Dynamic imports (`importlib`, `__import__`) are not
 * followed.
 *
 * @module
 */
import type { Node } from "web-tree-sitter";
import type { PythonParser } from "../python/load_python_parser.ts";

/** Options for {@linkcode reachableFiles}. */
export interface ReachableFilesOptions {
  /** The tree's paths (a module resolves only to one of these). */
  has: (path: string) => boolean;
  /** A file's text, or undefined when it cannot be read. */
  read: (path: string) => Promise<string | undefined>;
  /** Directories absolute imports resolve from, besides each entry's own root (default `["", "src"]`). */
  roots?: readonly string[] | undefined;
}

/**
 * Every Python file reached from `entries` (test modules), the entries
 * included, sorted.
 */
export async function reachableFiles(
  parser: PythonParser,
  entries: readonly string[],
  options: ReachableFilesOptions,
): Promise<string[]> {
  const roots = options.roots ?? ["", "src"];
  const seen = new Set<string>();
  const queue = entries.filter((e) => options.has(e));
  for (const e of queue) seen.add(e);
  while (queue.length > 0) {
    const file = queue.shift() as string;
    const text = await options.read(file);
    if (text === undefined) continue;
    for (const path of importedPaths(parser, file, text, roots, options.has)) {
      if (seen.has(path)) continue;
      seen.add(path);
      queue.push(path);
    }
  }
  return [...seen].sort();
}

/** The tree's files that `file`'s imports resolve to. */
export function importedPaths(
  parser: PythonParser,
  file: string,
  text: string,
  roots: readonly string[],
  has: (path: string) => boolean,
): string[] {
  const out = new Set<string>();
  parser.withTree(text, (tree) => {
    const dir = file.includes("/") ? file.slice(0, file.lastIndexOf("/")) : "";
    const resolve = (base: string, dotted: string[]) => {
      for (let i = 1; i <= dotted.length; i++) {
        const stem = join(base, dotted.slice(0, i).join("/"));
        for (const p of [`${stem}/__init__.py`, `${stem}.py`]) {
          if (has(p)) out.add(p);
        }
      }
    };
    const absolute = (dotted: string[]) => {
      for (const root of [...roots, dir]) resolve(root, dotted);
    };
    visit(tree.rootNode, (node) => {
      if (node.type === "import_statement") {
        for (const name of node.childrenForFieldName("name")) {
          const dotted = dottedOf(name);
          // Stryker disable next-line ConditionalExpression,EqualityOperator: resolving no name adds no file
          if (dotted.length > 0) absolute(dotted);
        }
        return;
      }
      // Stryker disable next-line ConditionalExpression: no other node has a module name, so the check below returns for it anyway
      if (node.type !== "import_from_statement") return;
      const module = node.childForFieldName("module_name");
      // Stryker disable next-line ConditionalExpression: the grammar gives every from-import a module name; the check only narrows the type
      if (module === null) return;
      const names = node.childrenForFieldName("name").map(dottedOf);
      if (module.type === "relative_import") {
        const prefix = module.children.find((c) =>
          // Stryker disable next-line OptionalChaining,ConditionalExpression: a node's children are never null, and a relative import's dots are always its first child
          c?.type === "import_prefix"
        );
        // Stryker disable next-line OptionalChaining: a relative import always has its dots
        const dots = prefix?.text.length ?? 0;
        let base = dir;
        for (let i = 1; i < dots; i++) {
          base = base.includes("/") ? base.slice(0, base.lastIndexOf("/")) : "";
        }
        const rest = module.namedChildren.find((c) =>
          // Stryker disable next-line OptionalChaining: a node's children are never null; the check only narrows the type
          c?.type === "dotted_name"
        );
        // Stryker disable next-line ConditionalExpression: find() gives a node or undefined, never null; the check only narrows the type
        const dotted = rest === undefined || rest === null
          ? []
          : rest.text.split(".");
        if (dotted.length > 0) resolve(base, dotted);
        else if (has(join(base, "__init__.py"))) {
          out.add(join(base, "__init__.py"));
        }
        for (const n of names) resolve(base, [...dotted, ...n]);
      } else {
        const dotted = module.text.split(".");
        absolute(dotted);
        for (const n of names) {
          for (const root of [...roots, dir]) {
            const stem = join(root, [...dotted, ...n].join("/"));
            for (const p of [`${stem}/__init__.py`, `${stem}.py`]) {
              if (has(p)) out.add(p);
            }
          }
        }
      }
    });
  });
  out.delete(file);
  return [...out].sort();
}

function dottedOf(node: Node | null): string[] {
  // Stryker disable next-line ConditionalExpression,ArrayDeclaration: an import's names are never null nodes; the check only narrows the type
  if (node === null) return [];
  const name = node.type === "aliased_import"
    ? node.childForFieldName("name")
    : node;
  // Stryker disable next-line ConditionalExpression,LogicalOperator,ArrayDeclaration: the grammar makes an import's name, and an aliased import's, a dotted_name; the check only narrows the type
  if (name === null || name.type !== "dotted_name") return [];
  return name.text.split(".");
}

function join(dir: string, rest: string): string {
  return dir === "" ? rest : `${dir}/${rest}`;
}

function visit(node: Node, f: (node: Node) => void): void {
  f(node);
  for (const child of node.namedChildren) {
    // Stryker disable next-line ConditionalExpression: a node's named children are never null; the check only narrows the type
    if (child !== null) visit(child, f);
  }
}
