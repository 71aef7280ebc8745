import type { Tree } from "../git/git.ts";
import type {
  PythonDefinition,
  PythonModule,
} from "../python/python_module.ts";

/** One commit's analysed Python files, for following names across modules. */
export interface NameSide {
  /** Analyses keyed by path. */
  modules: ReadonlyMap<string, PythonModule>;
  /** The commit's tree, to find which file a dotted module is. */
  tree: Tree;
}

/** A module in one commit. */
export interface Located {
  /** Repository-relative path. */
  path: string;
  /** Its analysis. */
  module: PythonModule;
}

/** A module-level definition and the module it lives in. */
export interface Resolved {
  /** The definition. */
  definition: PythonDefinition;
  /** Where it is. */
  at: Located;
}

/** The analysed file a dotted module resolves to, relative imports included. */
export function locateModule(
  side: NameSide,
  dotted: string,
  from?: string,
): Located | undefined {
  let name = dotted;
  if (name.startsWith(".") && from !== undefined) {
    // Stryker disable next-line OptionalChaining,Regex: the name starts with a dot here, so the pattern matches, at its start
    const dots = /^\.+/.exec(name)?.[0].length ?? 0;
    const parts = from.split("/").slice(0, -1);
    const up = parts.slice(0, Math.max(0, parts.length - (dots - 1)));
    const rest = name.slice(dots);
    name = [...up, ...(rest === "" ? [] : rest.split("."))].join(".");
  }
  // The rules ask for the same few modules thousands of times: the answers
  // for one set of analyses are kept with it (and dropped if it grew).
  let known = located.get(side.modules);
  // Stryker disable next-line ConditionalExpression: a pure performance shortcut: answers found again are the same answers
  if (known === undefined || known.size !== side.modules.size) {
    known = { size: side.modules.size, answers: new Map() };
    located.set(side.modules, known);
  }
  // Stryker disable next-line ConditionalExpression: a pure performance shortcut: an answer looked up again is the same answer
  if (known.answers.has(name)) return known.answers.get(name);
  const found = lookUpModule(side.modules, name);
  known.answers.set(name, found);
  return found;
}

/** Answers of {@linkcode locateModule}, by the analyses they were read from. */
const located = new WeakMap<
  ReadonlyMap<string, PythonModule>,
  { size: number; answers: Map<string, Located | undefined> }
>();

function lookUpModule(
  modules: ReadonlyMap<string, PythonModule>,
  name: string,
): Located | undefined {
  const base = name.split(".").join("/");
  for (
    const path of [
      `${base}/__init__.py`,
      `${base}.py`,
      `src/${base}/__init__.py`,
      `src/${base}.py`,
    ]
  ) {
    const module = modules.get(path);
    if (module !== undefined) return { path, module };
  }
  return undefined;
}

/**
 * Follow a name (`x`, or a dotted `mod.x`) from module `at` to the
 * module-level definition it stands for: through `from m import x`, module
 * aliases and dotted module paths, as far as the analysed files reach.
 */
export function resolveName(
  side: NameSide,
  at: Located,
  dotted: string,
  depth = 0,
): Resolved | undefined {
  if (depth > 8) return undefined;
  const parts = dotted.split(".");
  const first = parts[0] as string;
  // Stryker disable next-line OptionalChaining: every analysis has its definitions (analyze_python.ts sets them)
  const definition = at.module.definitions?.get(first);
  if (parts.length === 1) {
    if (definition === undefined) return undefined;
    // Stryker disable next-line LogicalOperator,ConditionalExpression: only an import has `from`, and a `from` import always has it
    if (definition.kind === "import" && definition.from !== undefined) {
      const target = locateModule(side, definition.from.module, at.path);
      if (target !== undefined) {
        const inner = resolveName(
          side,
          target,
          definition.from.name,
          depth + 1,
        );
        if (inner !== undefined) return inner;
        // `from pkg import submodule` is a module, not a name in pkg.
      }
    }
    return { definition, at };
  }
  if (definition?.kind === "import" && definition.from !== undefined) {
    const expanded = [
      definition.from.module,
      definition.from.name,
      ...parts.slice(1),
    ]
      .join(".");
    if (!definition.from.module.startsWith(".")) {
      return resolveName(side, at, expanded, depth + 1);
    }
    const target = locateModule(
      side,
      `${definition.from.module}${
        definition.from.module.endsWith(".") ? "" : "."
      }${definition.from.name}`,
      at.path,
    );
    if (target !== undefined && parts.length === 2) {
      return resolveName(side, target, parts[1] as string, depth + 1);
    }
    return undefined;
  }
  for (let i = parts.length - 1; i >= 1; i--) {
    const target = locateModule(side, parts.slice(0, i).join("."));
    if (target !== undefined) {
      return resolveName(side, target, parts.slice(i).join("."), depth + 1);
    }
  }
  return undefined;
}
