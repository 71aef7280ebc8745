/**
 * Which Hypothesis settings profile is in effect when the tests run, read
 * from `settings.register_profile(...)` and `settings.load_profile(...)`
 * calls in the files pytest imports before it runs a test: every
 * `conftest.py`, the packages' `__init__.py` files and the test modules,
 * taken in pytest's collection order (a profile loaded while collecting
 * one file holds for every test that runs after collection). Shared by
 * `propose` (which proposes the count that runs) and seed 000's
 * `min_examples` rule (which must agree with it).
 *
 * @module
 */
import { HYPOTHESIS_DEFAULT_MAX_EXAMPLES } from "./weakened_settings.ts";
import type {
  PythonExpr,
  PythonFunction,
  PythonModule,
} from "../python/python_module.ts";
import type { Tree } from "../git/git.ts";

/** Where a value was read. */
export interface SourceLine {
  /** Repository-relative path. */
  path: string;
  /** 1-based line. */
  line: number;
}

/** `max_examples` as a profile sets it: a count, or why it is unknown. */
type ProfileValue =
  | { kind: "known"; maxExamples: number }
  | { kind: "unknown"; why: string };

/** The profile in effect after collection. */
export interface ActiveProfile {
  /** The profile's name (`default` when none is loaded). */
  name: string;
  /** Its `max_examples`, or why pawl cannot tell. */
  value: ProfileValue;
  /** The `load_profile` call that chose it, when one did. */
  loadedAt?: SourceLine;
  /** How the name was chosen, when not by a literal (e.g. an environment variable's default). */
  via?: string;
}

/** How many examples one test runs, and where that number comes from. */
export interface ExampleSource {
  /** Examples per run (Hypothesis' default when `unresolved` is set). */
  count: number;
  /** `settings`: written on the test; `profile`: a loaded profile; `default`: Hypothesis' own. */
  from: "settings" | "profile" | "default";
  /**
   * A clause saying where, when it is not the plain `@settings` or
   * Hypothesis' default: `profile "ci" loaded in "tests/conftest.py" line 4`.
   */
  detail?: string;
  /** What pawl could not resolve, when it could not. */
  unresolved?: string;
}

/** One analysed file that may register or load profiles. */
export interface ProfileFile {
  /** Repository-relative path. */
  path: string;
  /** Its analysis. */
  module: PythonModule;
}

const DEFAULT_PROFILE = "default";

/**
 * The files pytest imports before the tests at `tests` that may register
 * or load Hypothesis profiles: every `conftest.py` of `tree`, and the
 * `__init__.py` files of the tests' directories and their parents.
 *
 * @example
 * ```ts
 * import { profileFilePaths } from "./hypothesis_profiles.ts";
 * const file = (path: string) => [path, { path, kind: "file" as const, oid: "1", size: 1 }] as const;
 * const tree = new Map([file("conftest.py"), file("tests/__init__.py"), file("pkg/__init__.py")]);
 * if (profileFilePaths(tree, ["tests/test_a.py"]).join() !== "conftest.py,tests/__init__.py") throw new Error();
 * ```
 */
export function profileFilePaths(
  tree: Tree,
  tests: readonly string[],
): string[] {
  const directories = new Set<string>();
  for (const path of tests) {
    // Stryker disable next-line MethodExpression: a test module's path is a file, and no path of a tree is both a file and a folder, so no __init__.py lies under it
    const parts = path.split("/").slice(0, -1);
    for (let n = 0; n <= parts.length; n++) {
      directories.add(parts.slice(0, n).join("/"));
    }
  }
  return [...tree.values()].filter((entry) => {
    if (entry.kind !== "file" && entry.kind !== "executable") return false;
    const slash = entry.path.lastIndexOf("/");
    const name = entry.path.slice(slash + 1);
    if (name === "conftest.py") return true;
    return name === "__init__.py" &&
      directories.has(slash === -1 ? "" : entry.path.slice(0, slash));
  }).map((entry) => entry.path).sort();
}

/** Options for {@linkcode activeProfile}. */
export interface ActiveProfileOptions {
  /**
   * The base's `[environment] env`: the only variables a test run has
   * beyond the sandbox's own, so the only ones that can choose a profile
   * (`os.environ.get("HYPOTHESIS_PROFILE", "dev")`).
   */
  env?: Readonly<Record<string, string>> | undefined;
}

/**
 * Run every profile call of `files` in pytest's collection order and
 * return the profile in effect afterwards.
 *
 * @example
 * ```ts
 * import { activeProfile } from "./hypothesis_profiles.ts";
 * const active = activeProfile([], { env: { HYPOTHESIS_PROFILE: "ci" } });
 * if (active.name !== "default") throw new Error();
 * ```
 */
export function activeProfile(
  files: readonly ProfileFile[],
  options: ActiveProfileOptions = {},
): ActiveProfile {
  const env = options.env ?? {};
  const profiles = new Map<string, ProfileValue>([[DEFAULT_PROFILE, {
    kind: "known",
    maxExamples: HYPOTHESIS_DEFAULT_MAX_EXAMPLES,
  }]]);
  let active: ActiveProfile = {
    name: DEFAULT_PROFILE,
    value: profiles.get(DEFAULT_PROFILE)!,
  };
  const ordered = [...files].sort((a, b) => collectionOrder(a.path, b.path));
  for (const { path, module } of ordered) {
    const calls = [...(module.profileCalls ?? [])].sort((a, b) =>
      a.line - b.line
    );
    for (const call of calls) {
      const at = { path, line: call.line };
      const where = `${JSON.stringify(path)} line ${call.line}`;
      const args = argumentsOf(call.expr);
      if (call.kind === "register") {
        const name = literalString(
          resolve(args.positional[0] ?? args.keywords.get("name"), module),
        );
        const value = registeredValue(args, module, profiles, active, where);
        if (name === undefined) {
          // Any profile may be the one registered here.
          for (const key of profiles.keys()) {
            profiles.set(key, {
              kind: "unknown",
              why:
                `${where} registers a profile whose name is not a string literal`,
            });
          }
          continue;
        }
        profiles.set(name, value);
        continue;
      }
      const chosen = profileName(
        resolve(args.positional[0] ?? args.keywords.get("name"), module),
        env,
      );
      if (chosen.name === undefined) {
        active = {
          name: "?",
          value: { kind: "unknown", why: `${where} loads ${chosen.why}` },
          loadedAt: at,
        };
        continue;
      }
      const value = profiles.get(chosen.name) ?? {
        kind: "unknown" as const,
        why: `${where} loads the profile ${
          JSON.stringify(chosen.name)
        }, which no file pawl read registers before it`,
      };
      active = { name: chosen.name, value, loadedAt: at };
      if (chosen.via !== undefined) active.via = chosen.via;
    }
  }
  return active;
}

/**
 * The examples `fn` runs: its own `@settings(max_examples=N)` (for a state
 * machine, its `TestCase` settings) wins; otherwise the active profile's.
 */
export function examplesOf(
  fn: PythonFunction,
  profile: ActiveProfile,
): ExampleSource {
  const written = fn.settings?.maxExamples;
  if (written !== undefined) {
    const machine = fn.stateful !== undefined && fn.stateful.binding !== "def";
    return machine
      ? {
        count: written,
        from: "settings",
        // Stryker disable next-line OptionalChaining: `written` was read from `fn.settings`, so it is set here
        detail: `its state machine's settings (line ${fn.settings?.line})`,
      }
      : { count: written, from: "settings" };
  }
  if (profile.value.kind === "unknown") {
    return {
      count: HYPOTHESIS_DEFAULT_MAX_EXAMPLES,
      from: "default",
      unresolved: profile.value.why,
    };
  }
  if (profile.loadedAt === undefined) {
    return { count: profile.value.maxExamples, from: "default" };
  }
  const where = `${
    JSON.stringify(profile.loadedAt.path)
  } line ${profile.loadedAt.line}`;
  return {
    count: profile.value.maxExamples,
    from: "profile",
    detail: `profile ${JSON.stringify(profile.name)} loaded in ${where}${
      profile.via === undefined ? "" : ` (${profile.via})`
    }`,
  };
}

/** pytest's order: a directory's conftest.py, then its `__init__.py`, then its entries by name. */
function collectionOrder(a: string, b: string): number {
  const key = (path: string) =>
    path.split("/").map((segment, i, all) => {
      if (i < all.length - 1) return `2${segment}`;
      if (segment === "conftest.py") {
        // Stryker disable next-line StringLiteral: "" sorts before "1" and every "2…" key just as "0" does
        return "0";
      }
      return segment === "__init__.py" ? "1" : `2${segment}`;
    });
  const ka = key(a);
  const kb = key(b);
  // Stryker disable next-line EqualityOperator,MethodExpression: past the shorter key an item is undefined, which is neither below nor above a string, so the loop ends in a tie and the lengths decide as before
  for (let i = 0; i < Math.min(ka.length, kb.length); i++) {
    const x = ka[i]!;
    const y = kb[i]!;
    const order = x < y ? -1 : x > y ? 1 : 0;
    if (order !== 0) return order;
  }
  // Stryker disable next-line ArithmeticOperator: keys of two paths of one tree differ before the shorter ends (no path is a folder of another file), so only a path compared with itself gets here
  return ka.length - kb.length;
}

interface Arguments {
  positional: PythonExpr[];
  keywords: Map<string, PythonExpr>;
  splat: boolean;
}

function argumentsOf(call: PythonExpr): Arguments {
  const out: Arguments = { positional: [], keywords: new Map(), splat: false };
  // Stryker disable next-line OptionalChaining,ArrayDeclaration: a profile call is a call, which always has its argument list
  for (const arg of call.children?.[1]?.children ?? []) {
    // Stryker disable next-line ConditionalExpression,Regex,StringLiteral: a leaf always has its text, and only the list's punctuation leaves start or end with `,`, `(` or `)`: every argument is a node with parts, a name, a number or a quoted string
    if (arg.children === undefined && /^[,()]$/.test(arg.text ?? "")) continue;
    if (arg.type === "keyword_argument") {
      // Stryker disable next-line OptionalChaining: a keyword argument always has its name, `=` and value
      const name = arg.children?.[0]?.text;
      // Stryker disable next-line OptionalChaining: a keyword argument always has its name, `=` and value
      const value = arg.children?.[2];
      // Stryker disable next-line ConditionalExpression,LogicalOperator: a keyword argument always has its name, `=` and value
      if (name !== undefined && value !== undefined) {
        out.keywords.set(name, value);
      }
    } else if (arg.type === "list_splat" || arg.type === "dictionary_splat") {
      out.splat = true;
    } else out.positional.push(arg);
  }
  return out;
}

/** A module-level name followed to its one plain assignment. */
function resolve(
  expr: PythonExpr | undefined,
  module: PythonModule,
): PythonExpr | undefined {
  let current = expr;
  for (let i = 0; i < 4 && current?.type === "name"; i++) {
    // Stryker disable next-line OptionalChaining,StringLiteral: every analysis has its definitions (analyze_python.ts sets them), and a name leaf always has its text
    const next = module.definitions?.get(current.text ?? "")?.expr;
    if (next === undefined) break;
    current = next;
  }
  return current;
}

function literalString(expr: PythonExpr | undefined): string | undefined {
  // Stryker disable next-line ConditionalExpression,LogicalOperator: only a string's text is quoted, and a string with parts (an f-string's fields, escapes) holds a `{`, `}` or `\` the pattern below refuses
  if (expr?.type !== "string" || expr.children !== undefined) return undefined;
  // Stryker disable next-line StringLiteral: a string leaf always has its text
  const match = /^"([^"\\{}]*)"$/.exec(expr.text ?? "");
  return match?.[1];
}

function literalInteger(expr: PythonExpr | undefined): number | undefined {
  // Stryker disable next-line OptionalChaining: called only with an argument that was given
  if (expr?.type !== "integer") return undefined;
  const value = Number(expr.text);
  return Number.isSafeInteger(value) ? value : undefined;
}

/** `max_examples` of a `register_profile` call. */
function registeredValue(
  args: Arguments,
  module: PythonModule,
  profiles: ReadonlyMap<string, ProfileValue>,
  active: ActiveProfile,
  where: string,
): ProfileValue {
  const written = args.keywords.get("max_examples");
  if (written !== undefined) {
    const n = literalInteger(resolve(written, module));
    return n === undefined
      ? {
        kind: "unknown",
        why:
          `${where} sets max_examples to a value that is not an integer literal`,
      }
      : { kind: "known", maxExamples: n };
  }
  if (args.splat) {
    return {
      kind: "unknown",
      why: `${where} registers a profile from a ** splat`,
    };
  }
  const parent = resolve(
    args.keywords.get("parent") ?? args.positional[1],
    module,
  );
  if (parent === undefined || parent.type === "none") {
    // Unset values come from the settings in effect at registration.
    return active.value;
  }
  // Stryker disable next-line OptionalChaining,StringLiteral: a call always has its callee; one with no text (a call of a call) matches neither name below, with "" or any other text
  const callee = parent.type === "call" ? parent.children?.[0]?.text : "";
  if (callee?.endsWith("get_profile") === true) {
    const name = literalString(
      resolve(argumentsOf(parent).positional[0], module),
    );
    // Stryker disable next-line ConditionalExpression: the profiles are keyed by strings, so nothing is under `undefined`
    const found = name === undefined ? undefined : profiles.get(name);
    if (found !== undefined) return found;
  }
  if (callee === "hypothesis.settings" || callee === "settings") {
    const inner = argumentsOf(parent);
    const count = inner.keywords.get("max_examples");
    if (count !== undefined) {
      const n = literalInteger(resolve(count, module));
      if (n !== undefined) return { kind: "known", maxExamples: n };
    } else if (inner.positional.length === 0 && !inner.splat) {
      return active.value;
    }
  }
  return {
    kind: "unknown",
    why: `${where} registers a profile whose parent settings pawl cannot read`,
  };
}

/** The profile name `load_profile` gets, or what it depends on. */
function profileName(
  expr: PythonExpr | undefined,
  env: Readonly<Record<string, string>>,
): { name?: string; why: string; via?: string } {
  const literal = literalString(expr);
  // Stryker disable next-line StringLiteral: `why` is read only when no name was found
  if (literal !== undefined) return { name: literal, why: "" };
  // Stryker disable next-line ConditionalExpression: only a call's first child is a callee; another node led by the name os.getenv or os.environ.get (an item of that function, an `or`) gives an unknown profile either way, only worded differently
  if (expr?.type === "call") {
    // Stryker disable next-line OptionalChaining,StringLiteral: a call always has its callee; one with no text (a call of a call) matches neither name below, with "" or any other text
    const callee = expr.children?.[0]?.text ?? "";
    if (callee === "os.environ.get" || callee === "os.getenv") {
      const args = argumentsOf(expr);
      const variable = literalString(args.positional[0]);
      const fallback = args.positional[1] ?? args.keywords.get("default");
      const shown = variable === undefined
        ? "an environment variable"
        : `$${variable}`;
      const set = setByEnvironment(variable, env);
      if (set !== undefined) return set;
      if (variable === undefined && Object.keys(env).length > 0) {
        return {
          why:
            "a profile chosen by an environment variable whose name is not a string literal",
        };
      }
      if (fallback === undefined) {
        return {
          why:
            `a profile chosen by ${shown}, which has no default (pawl's sandbox starts from an empty environment, so the call gets None)`,
        };
      }
      const name = literalString(fallback);
      if (name === undefined) {
        return { why: `a profile chosen by ${shown} with a computed default` };
      }
      return {
        name,
        // Stryker disable next-line StringLiteral: `why` is read only when no name was found
        why: "",
        via: `${shown} is unset in pawl's sandbox, so its default applies`,
      };
    }
  }
  if (expr?.type === "subscript") {
    // Stryker disable next-line ArrayDeclaration: a subscript always has its parts
    const [target, , key] = expr.children ?? [];
    // Stryker disable next-line OptionalChaining: a subscript always has its target
    if (target?.text === "os.environ") {
      const set = setByEnvironment(literalString(key), env);
      if (set !== undefined) return set;
    }
    return {
      why:
        "a profile named by an environment variable without a default (os.environ[...])",
    };
  }
  return { why: "a profile whose name is computed" };
}

/** The profile a variable of the base's `[environment] env` names, if it sets it. */
function setByEnvironment(
  variable: string | undefined,
  env: Readonly<Record<string, string>>,
): { name: string; why: string; via: string } | undefined {
  if (variable === undefined || !Object.hasOwn(env, variable)) return undefined;
  return {
    name: env[variable]!,
    // Stryker disable next-line StringLiteral: `why` is read only when no name was found
    why: "",
    via: `$${variable} is ${
      JSON.stringify(env[variable])
    } in the base's [environment] env`,
  };
}
