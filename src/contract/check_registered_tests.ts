/**
 * What pytest will run for a registered test, compared base → head in
 * every layout: the binding of its name (the last one wins), its
 * decorators (`@given` strategies, `@settings` through aliases and
 * parents, `@example`s, anything else), `assume()` calls in it and its
 * helpers, Hypothesis profiles in the test-side tree, and, for seed 002's
 * contract tests, the module-level code and helpers the test relies on.
 *
 * @module
 */
import { plural } from "../core/plural.ts";
import { type Finding, finding } from "../core/finding.ts";
import type { Tree } from "../git/git.ts";
import type {
  PythonDecorator,
  PythonDefinition,
  PythonExpr,
  PythonFunction,
  PythonModule,
} from "../python/python_module.ts";
import { exprKey } from "../python/_python_expr.ts";
import {
  type Difference,
  ExprComparison,
  numberOf,
  type Placed,
  textOf,
} from "./_compare_exprs.ts";
import { type Located, type NameSide, resolveName } from "./_resolve_names.ts";
import {
  type AssertionComparison,
  compareAssertions,
  type ScopedAssertion,
} from "./_compare_assertions.ts";
import type { RenamingScope } from "./_renaming.ts";
import { weakenedSettings } from "./weakened_settings.ts";

/** A registered test, from any layout's plan. */
export interface RegisteredTest {
  /** Layout id (`000`, `003`, `002`). */
  layout: string;
  /** Contract id. */
  id: string;
  /** Dotted module. */
  module: string;
  /** `test_x` or `Class.test_x`. */
  name: string;
}

/** Options for {@linkcode checkRegisteredTests}. */
export interface CheckRegisteredTestsOptions {
  /** Base analyses (registered modules and changed files). */
  baseModules: ReadonlyMap<string, PythonModule>;
  /** Head analyses (registered modules and changed files). */
  headModules: ReadonlyMap<string, PythonModule>;
  /** Base tree. */
  baseTree: Tree;
  /** Head tree. */
  headTree: Tree;
  /** Whether a path is on the test side (profiles there are judged). */
  isTestSide: (path: string) => boolean;
}

/**
 * Assertions of a registered test rewritten in a way their form cannot
 * show is at least as strong, and nothing else dropped or weakened: the
 * mutation kill sets decide when they run, and block otherwise.
 */
export interface AssertionRewrite {
  /** The property's key in the mutation runs (`layout/id`). */
  key: string;
  /** What was rewritten, completing a sentence: `Property "p" test "t" rewrites ...`. */
  what: string;
  /** The head's test module. */
  path: string;
  /** The head test's `def` line. */
  line: number;
}

/** What {@linkcode checkRegisteredTests} found. */
export interface RegisteredTestsJudgement {
  /** Findings. */
  findings: Finding[];
  /** Rewritten assertions for the kill sets to decide. */
  rewrites: AssertionRewrite[];
}

const GIVEN = new Set(["hypothesis.given", "given"]);
const SETTINGS = new Set(["hypothesis.settings", "settings"]);
const EXAMPLE = new Set(["hypothesis.example", "example"]);

/** Settings keywords that never make a search weaker. */
const HARMLESS = new Set([
  "deadline",
  "verbosity",
  "print_blob",
  "report_multiple_bugs",
]);

/**
 * Judge every registered test that exists at both base and head.
 *
 * @example
 * ```ts
 * import { checkRegisteredTests } from "./check_registered_tests.ts";
 * const { findings } = checkRegisteredTests([], {
 *   baseModules: new Map(), headModules: new Map(), baseTree: new Map(),
 *   headTree: new Map(), isTestSide: () => true,
 * });
 * if (findings.length !== 0) throw new Error();
 * ```
 */
export function checkRegisteredTests(
  tests: readonly RegisteredTest[],
  options: CheckRegisteredTestsOptions,
): RegisteredTestsJudgement {
  const base: NameSide = {
    modules: options.baseModules,
    tree: options.baseTree,
  };
  const head: NameSide = {
    modules: options.headModules,
    tree: options.headTree,
  };
  const out: Finding[] = [];
  const rewrites: AssertionRewrite[] = [];
  const done = new Set<string>();
  for (const test of tests) {
    const key = `${test.layout}:${test.module}:${test.name}`;
    if (done.has(key)) continue;
    done.add(key);
    const headAt = locate(head, test.module);
    const headFn = headAt?.module.functions.get(test.name);
    // Stryker disable next-line ConditionalExpression: headFn is undefined whenever headAt is
    if (headAt === undefined || headFn === undefined) continue;
    const baseAt = locate(base, test.module);
    const baseFn = baseAt?.module.functions.get(test.name);
    const label = `Property "${test.id}" test "${test.name}"`;
    out.push(...rebinding(label, test.name, headAt, headFn, baseAt));
    // Stryker disable next-line ConditionalExpression: baseFn is undefined whenever baseAt is
    if (baseAt === undefined || baseFn === undefined) continue;
    const comparison = new ExprComparison(base, head);
    out.push(
      ...decorators(
        label,
        { comparison, baseAt, headAt, baseFn, headFn },
        test.layout,
      ),
      ...assumes(label, { baseAt, headAt, baseFn, headFn }),
      ...statefulSteps(label, { comparison, baseAt, headAt, baseFn, headFn }),
    );
    const assertions = assertionsChanged(label, {
      baseAt,
      headAt,
      baseFn,
      headFn,
    });
    out.push(...assertions.findings);
    if (assertions.rewrite !== undefined) {
      rewrites.push({
        key: `${test.layout}/${test.id}`,
        what: assertions.rewrite,
        path: headAt.path,
        line: headFn.line,
      });
    }
    if (test.layout === "002") {
      out.push(
        ...contractCode(label, { comparison, baseAt, headAt, baseFn, headFn }),
      );
    }
  }
  out.push(...profiles(options));
  return { findings: out, rewrites };
}

function locate(side: NameSide, module: string): Located | undefined {
  const stem = module.split(".").join("/");
  for (const path of [`${stem}/__init__.py`, `${stem}.py`]) {
    const found = side.modules.get(path);
    const kind = side.tree.get(path)?.kind;
    if (found !== undefined && (kind === "file" || kind === "executable")) {
      return { path, module: found };
    }
  }
  return undefined;
}

/** Why the name pytest collects may not be the `def` pawl read. */
function rebindingReasons(
  name: string,
  at: Located,
  fn: PythonFunction,
): { line: number; why: string }[] {
  const reasons: { line: number; why: string }[] = [];
  const bindings = at.module.bindings;
  if (bindings === undefined) return reasons;
  // A stateful TestCase is collected under the name it is bound to.
  const stateful = fn.stateful !== undefined && fn.stateful.binding !== "def"
    ? fn.qualname
    : undefined;
  // A method is collected through its class, and a nested class through
  // every class around it: the test's own name, then each one outward.
  const parts = name.split(".");
  const names = stateful !== undefined
    ? [stateful]
    : parts.map((_, i) => parts.slice(0, parts.length - i).join("."));
  for (const bound of names) {
    // Stryker disable next-line ArrayDeclaration: every name checked is bound: the def, its class, or the TestCase statement pawl read
    const list = bindings.get(bound) ?? [];
    const own = stateful !== undefined
      ? fn.stateful?.binding as "assign" | "class"
      : bound === name
      ? "def"
      : "class";
    // Stryker disable next-line UnaryOperator: every name checked holds the binding pawl read, so the loop below always sets lastOwn
    let lastOwn = -1;
    list.forEach((b, i) => {
      // A stateful TestCase is the binding the analysis read, not any
      // assignment of the name.
      // Stryker disable ConditionalExpression,OptionalChaining: the stateful arm runs only for a stateful TestCase, whose binding the analysis records at bindingLine, so matching fn.line adds nothing
      if (
        stateful !== undefined
          ? b.line === fn.line || b.line === fn.stateful?.bindingLine
          : b.kind === own
      ) {
        // Stryker restore ConditionalExpression,OptionalChaining
        lastOwn = i;
      }
    });
    list.forEach((b, i) => {
      if (b.kind === "global") {
        reasons.push({
          line: b.line,
          why:
            `"${bound}" is rebound through globals, setattr or a global statement at line ${b.line}`,
        });
      } else if (
        // Stryker disable next-line ConditionalExpression: lastOwn is the last binding of the test's own kind, so none of that kind follows it unless the test is a stateful TestCase
        i > lastOwn && (b.kind !== own || stateful !== undefined)
      ) {
        // Stryker disable next-line OptionalChaining: every name checked holds the binding pawl read (the def, its class or the TestCase statement), so lastOwn is never -1 here
        const after = list[lastOwn]?.line ?? fn.line;
        reasons.push({
          line: b.line,
          why: `"${bound}" is rebound by ${
            KIND_TEXT[b.kind]
          } at line ${b.line}, after the ${own} at line ${after}`,
        });
      }
    });
  }
  for (const write of at.module.dynamicWrites ?? []) {
    // A star import before the def is overridden by it.
    // Stryker disable next-line EqualityOperator: an import and a def cannot share a line: a compound statement cannot follow a semicolon
    if (write.detail.startsWith("from ") && write.line < fn.line) continue;
    reasons.push({
      line: write.line,
      why:
        `"${write.detail}" at line ${write.line} writes module globals pawl cannot resolve`,
    });
  }
  return reasons;
}

const KIND_TEXT: Record<string, string> = {
  def: "a def",
  class: "a class",
  assign: "an assignment",
  import: "an import",
  del: "a del statement",
  // Stryker disable next-line StringLiteral: a global binding has its own message above, so this text is never shown
  global: "a global write",
  // Stryker disable next-line StringLiteral: analyses record dynamic writes apart from the bindings, so no binding has this kind
  dynamic: "a dynamic write",
};

function rebinding(
  label: string,
  name: string,
  headAt: Located,
  headFn: PythonFunction,
  baseAt: Located | undefined,
): Finding[] {
  const head = rebindingReasons(name, headAt, headFn);
  // Stryker disable next-line ConditionalExpression: with no reason at the head, the count check below returns no finding all the same
  if (head.length === 0) return [];
  const baseFn = baseAt?.module.functions.get(name);
  // Stryker disable next-line ConditionalExpression: baseFn is undefined whenever baseAt is
  const baseCount = baseAt === undefined || baseFn === undefined
    ? 0
    : rebindingReasons(name, baseAt, baseFn).length;
  // The base already rebinds it the same number of times: not this patch.
  if (head.length <= baseCount) return [];
  const first = head[0] as { line: number; why: string };
  return [finding(
    "property.rebound",
    `${label} is not what pytest runs: ${first.why}; pytest collects the last binding of the name, so keep the def as its only binding`,
    { path: headAt.path, line: first.line },
  )];
}

interface Pair {
  baseAt: Located;
  headAt: Located;
  baseFn: PythonFunction;
  headFn: PythonFunction;
}

interface ComparedPair extends Pair {
  comparison: ExprComparison;
}

type DecoratorKind = "given" | "settings" | "example" | "other";

interface ResolvedDecorator {
  kind: DecoratorKind;
  placed: Placed;
  line: number;
  text: string;
  /** A `settings(k=v, ...)` call written on the test itself: no alias, no parent. */
  direct: boolean;
  /** A skip or xfail mark (judged by the skip rules). */
  skip: boolean;
}

/** Marks the skip rules judge. */
const SKIP_MARKS =
  /^(pytest\.mark|mark)\.(skip|skipif|xfail)$|^unittest\.(skip|skipIf|skipUnless|expectedFailure)$/;

/** Follow a decorator through module-level aliases to what it calls. */
function resolveDecorator(
  side: NameSide,
  at: Located,
  decorator: PythonDecorator,
): ResolvedDecorator {
  let placed: Placed = {
    expr: decorator.expr ??
      // Stryker disable next-line ObjectLiteral,StringLiteral: every analysis gives a decorator its expression, so this stand-in is never built
      { type: "opaque", line: decorator.line, text: decorator.text },
    at,
  };
  // Stryker disable next-line ConditionalExpression: no expression but a name can name a module-level definition, so resolving another finds nothing and stops
  for (let depth = 0; depth < 8 && placed.expr.type === "name"; depth++) {
    // Stryker disable next-line StringLiteral: a name expression always has its text
    const resolved = resolveName(side, placed.at, placed.expr.text ?? "");
    if (resolved?.definition.expr === undefined) break;
    placed = { expr: resolved.definition.expr, at: resolved.at };
  }
  // Stryker disable OptionalChaining: a call expression always has its callee as its first child
  const callee = placed.expr.type === "call"
    ? placed.expr.children?.[0]
    : placed.expr;
  // Stryker restore OptionalChaining
  // Stryker disable next-line ConditionalExpression,OptionalChaining,StringLiteral: a call always has its callee, a name always its text, and only a name's text can be a Hypothesis decorator's
  const name = callee?.type === "name" ? callee.text ?? "" : "";
  const kind: DecoratorKind = GIVEN.has(name)
    ? "given"
    : SETTINGS.has(name)
    ? "settings"
    : EXAMPLE.has(name)
    ? "example"
    : "other";
  const written = decorator.expr;
  // Stryker disable ConditionalExpression,OptionalChaining,ArrayDeclaration,Regex,StringLiteral: only @settings read direct; every analysed call has a callee and an argument list, whose leaves are punctuation, names and literals, none of which begins or ends with a comma or parenthesis
  const direct = kind === "settings" && written?.type === "call" &&
    (written.children?.[1]?.children ?? []).every((arg) =>
      arg.type === "keyword_argument" ||
      (arg.children === undefined && /^[,()]$/.test(arg.text ?? ""))
    );
  // Stryker restore ConditionalExpression,OptionalChaining,ArrayDeclaration,Regex,StringLiteral
  return {
    kind,
    placed,
    line: decorator.line,
    text: decorator.text,
    direct,
    skip: SKIP_MARKS.test(name),
  };
}

function decorators(
  label: string,
  pair: ComparedPair,
  layout: string,
): Finding[] {
  const base: NameSide = sideOf(pair, "base");
  const head: NameSide = sideOf(pair, "head");
  const b = pair.baseFn.decorators.map((d) =>
    resolveDecorator(base, pair.baseAt, d)
  );
  const h = pair.headFn.decorators.map((d) =>
    resolveDecorator(head, pair.headAt, d)
  );
  const out: Finding[] = [];
  const at = (line: number, path = pair.headAt.path) => ({ path, line });
  // @given: one each; the head's strategies must be at least as wide.
  const bGiven = b.filter((d) => d.kind === "given");
  const hGiven = h.filter((d) => d.kind === "given");
  if (bGiven.length === 1 && hGiven.length === 1) {
    const diff = pair.comparison.compare(
      (bGiven[0] as ResolvedDecorator).placed,
      (hGiven[0] as ResolvedDecorator).placed,
      "widening",
    );
    if (diff !== undefined) {
      out.push(finding(
        "property.strategy_narrowed",
        `${label} draws from strategies pawl cannot show are at least as wide as the base's: ${diff.why}; restore the base strategies or widen them`,
        at(diff.line, diff.path),
      ));
    }
  } else if (
    // Stryker disable next-line ConditionalExpression,EqualityOperator: with equal counts below two, both sides have no @given, which compares equal below
    bGiven.length !== hGiven.length || bGiven.length > 1
  ) {
    const diff = bGiven.length === hGiven.length &&
      bGiven.every((d, i) =>
        pair.comparison.compare(
          d.placed,
          (hGiven[i] as ResolvedDecorator).placed,
          // Stryker disable next-line StringLiteral: compare() tells only "widening" apart; every other direction compares for equality
          "equal",
        ) === undefined
      );
    if (!diff) {
      out.push(finding(
        "property.strategy_narrowed",
        `${label} changed its @given decorators from ${bGiven.length} to ${hGiven.length}: restore the base's`,
        at(hGiven[0]?.line ?? pair.headFn.line),
      ));
    }
  }
  // @settings: resolved through aliases and parents.
  const bSettings = b.filter((d) => d.kind === "settings");
  const hSettings = h.filter((d) => d.kind === "settings");
  // Settings written directly on the test are judged by the layouts'
  // own rules (000 and 003); aliases, parents and seed 002 are judged here.
  const direct = layout !== "002" &&
    [...bSettings, ...hSettings].every((d) => d.direct);
  const settingsDiff = direct
    ? undefined
    : compareSettings(bSettings, hSettings, pair);
  if (settingsDiff !== undefined) {
    out.push(finding(
      "property.settings_weakened",
      `${label} has weaker Hypothesis settings: ${settingsDiff.why}; restore the base settings`,
      at(settingsDiff.line, settingsDiff.path),
    ));
  }
  // @example: removals weaken, additions only add cases.
  // Stryker disable next-line MethodExpression,ConditionalExpression: a decorator whose resolved expression is an example's is itself an example, so only examples can match a removed one
  const hExamples = h.filter((d) => d.kind === "example").map((d) =>
    exprKey(d.placed.expr)
  );
  for (const removed of b.filter((d) => d.kind === "example")) {
    const index = hExamples.indexOf(exprKey(removed.placed.expr));
    if (index === -1) {
      out.push(finding(
        "property.decorator_changed",
        `${label} lost its @${removed.text} (base line ${removed.line}): explicit examples may be added, never removed`,
        at(pair.headFn.decorators[0]?.line ?? pair.headFn.line),
      ));
    } else hExamples.splice(index, 1);
  }
  // Anything else: the same decorators, resolved the same way.
  const bOther = b.filter((d) => d.kind === "other" && !d.skip);
  const hOther = h.filter((d) => d.kind === "other" && !d.skip);
  const unmatched = [...bOther];
  for (const decorator of hOther) {
    const index = unmatched.findIndex((candidate) =>
      // Stryker disable next-line StringLiteral: a direction is only ever asked whether it is `widening`; the other spelling only keys the memo apart
      pair.comparison.compare(candidate.placed, decorator.placed, "equal") ===
        undefined
    );
    if (index === -1) {
      out.push(finding(
        "property.decorator_changed",
        `${label} has a decorator @${decorator.text} the base does not have (or changed its definition): a decorator can replace the test, so it is human-owned`,
        at(decorator.line),
      ));
    } else unmatched.splice(index, 1);
  }
  for (const removed of unmatched) {
    out.push(finding(
      "property.decorator_changed",
      `${label} lost its decorator @${removed.text} (base line ${removed.line}): restore it`,
      at(pair.headFn.line),
    ));
  }
  return out;
}

function sideOf(pair: ComparedPair, which: "base" | "head"): NameSide {
  return pair.comparison.sides()[which];
}

/** `settings(...)` keywords after following positional parents; `undefined` when something is not resolvable. */
function settingsKeywords(
  side: NameSide,
  placed: Placed,
  depth = 0,
): Map<string, PythonExpr> | undefined {
  if (depth > 8) return undefined;
  let current = placed;
  for (let i = 0; i < 8 && current.expr.type === "name"; i++) {
    // Stryker disable next-line StringLiteral: a name always has its text
    const resolved = resolveName(side, current.at, current.expr.text ?? "");
    if (resolved?.definition.expr === undefined) return undefined;
    current = { expr: resolved.definition.expr, at: resolved.at };
  }
  const expr = current.expr;
  if (expr.type !== "call") return undefined;
  // Stryker disable next-line OptionalChaining: a call always has its callee and arguments as children
  const callee = expr.children?.[0];
  // Stryker disable next-line ConditionalExpression,OptionalChaining,StringLiteral: only a name's text can spell `settings` (identifiers and dotted names all become names), and a call always has a callee
  if (callee?.type !== "name" || !SETTINGS.has(callee.text ?? "")) {
    return undefined;
  }
  const out = new Map<string, PythonExpr>();
  // Stryker disable next-line OptionalChaining,ArrayDeclaration: a call's second child is always its argument list, which holds at least its parentheses
  for (const arg of expr.children?.[1]?.children ?? []) {
    // Stryker disable next-line ConditionalExpression,Regex,StringLiteral: only leaves have text, and no leaf in an argument list but its punctuation starts or ends with a comma or parenthesis
    if (arg.children === undefined && /^[,()]$/.test(arg.text ?? "")) continue;
    if (arg.type === "keyword_argument") {
      // Stryker disable OptionalChaining,ConditionalExpression,LogicalOperator: a keyword argument is always its name, "=" and its value
      const name = arg.children?.[0]?.text;
      const value = arg.children?.[2];
      if (name === undefined || value === undefined) return undefined;
      // Stryker restore OptionalChaining,ConditionalExpression,LogicalOperator
      out.set(name, value);
      continue;
    }
    // Stryker disable next-line ConditionalExpression,LogicalOperator,StringLiteral,BlockStatement: a splat is neither a name nor a call, so the parent's lookup below gives undefined for it too
    if (arg.type === "list_splat" || arg.type === "dictionary_splat") {
      return undefined;
    }
    const parent = settingsKeywords(
      side,
      { expr: arg, at: current.at },
      depth + 1,
    );
    if (parent === undefined) return undefined;
    // Stryker disable next-line ConditionalExpression: settings() takes one positional parent, which Python writes before every keyword, so nothing is set yet when the parent's keywords are copied
    for (const [k, v] of parent) if (!out.has(k)) out.set(k, v);
  }
  return out;
}

function compareSettings(
  b: ResolvedDecorator[],
  h: ResolvedDecorator[],
  pair: ComparedPair,
): Difference | undefined {
  const base = sideOf(pair, "base");
  const head = sideOf(pair, "head");
  const where = (
    d: ResolvedDecorator | undefined,
    why: string,
  ): Difference => ({
    path: pair.headAt.path,
    line: d?.line ?? pair.headFn.line,
    why,
  });
  if (b.length > 1 || h.length > 1) {
    const same = b.length === h.length &&
      b.every((d, i) =>
        pair.comparison.compare(
          d.placed,
          (h[i] as ResolvedDecorator).placed,
          // Stryker disable next-line StringLiteral: a direction is only ever asked whether it is `widening`; the other spelling only keys the memo apart
          "equal",
        ) === undefined
      );
    return same
      ? undefined
      : where(h[0], "more than one @settings decorator changed");
  }
  const bd = b[0];
  const hd = h[0];
  // Stryker disable next-line ConditionalExpression: without settings on either side both keyword maps below are empty, and the loop finds nothing
  if (bd === undefined && hd === undefined) return undefined;
  if (
    bd !== undefined && hd !== undefined &&
    // Stryker disable next-line StringLiteral: a direction is only ever asked whether it is `widening`; the other spelling only keys the memo apart
    pair.comparison.compare(bd.placed, hd.placed, "equal") === undefined
  ) {
    return undefined;
  }
  const bk = bd === undefined
    ? new Map<string, PythonExpr>()
    : settingsKeywords(base, bd.placed);
  const hk = hd === undefined
    ? new Map<string, PythonExpr>()
    : settingsKeywords(head, hd.placed);
  if (hk === undefined) {
    return where(
      hd,
      // Stryker disable next-line StringLiteral,OptionalChaining: the head's keywords are unresolved only when it has settings, so the fallback never shows
      `@${hd?.text ?? "settings"} cannot be resolved to literal settings`,
    );
  }
  if (bk === undefined) {
    return where(
      hd,
      "the base's settings could not be resolved, so the change cannot be shown to strengthen",
    );
  }
  const names = new Set([...bk.keys(), ...hk.keys()]);
  for (const name of [...names].sort()) {
    const was = bk.get(name);
    const is = hk.get(name);
    if (was !== undefined && is !== undefined && exprKey(was) === exprKey(is)) {
      continue;
    }
    if (HARMLESS.has(name)) continue;
    if (name === "max_examples") {
      const before = was === undefined ? 100 : numberOf(was);
      const after = is === undefined ? 100 : numberOf(is);
      if (before === undefined || after === undefined) {
        return where(
          hd,
          `max_examples changed from ${
            was === undefined ? "the default" : textOf(was)
          } to ${
            is === undefined ? "the default" : textOf(is)
          }, which pawl cannot compare`,
        );
      }
      if (after < before) {
        return where(hd, `max_examples lowered from ${before} to ${after}`);
      }
      continue;
    }
    if (name === "database" && (is === undefined || is.type === "none")) {
      continue;
    }
    const detail = weakenedSettings(
      fakeFunction(name, is),
      fakeFunction(name, was),
    );
    if (
      detail.length > 0 ||
      !["phases", "suppress_health_check", "derandomize", "stateful_step_count"]
        .includes(name)
    ) {
      return where(
        hd,
        `${name} changed from ${
          was === undefined ? "the default" : textOf(was)
        } to ${is === undefined ? "the default" : textOf(is)}`,
      );
    }
  }
  return undefined;
}

/** A stand-in function whose settings hold one keyword, for {@linkcode weakenedSettings}. */
function fakeFunction(
  keyword: string,
  value: PythonExpr | undefined,
): PythonFunction {
  const keywords: Record<string, string> = {};
  if (value !== undefined) keywords[keyword] = sourceText(value);
  // Stryker disable StringLiteral,ArrayDeclaration,BooleanLiteral: weakenedSettings() reads the stand-ins' settings and compares the two, which get the same name, source, decorators and Hypothesis flag
  const standIn: PythonFunction = {
    name: "f",
    qualname: "f",
    line: 1,
    endLine: 1,
    source: "",
    decorators: [],
    usesHypothesis: true,
    skips: [],
    exampleAssertions: 0,
    settings: { line: 1, keywords, maxExamples: 100 },
  };
  // Stryker restore StringLiteral,ArrayDeclaration,BooleanLiteral
  return standIn;
}

/** Source-like text with canonical names shortened to their last part for enum members. */
function sourceText(expr: PythonExpr): string {
  if (expr.children === undefined) {
    // Stryker disable next-line StringLiteral: every leaf the analysis builds carries its text
    const text = expr.text ?? "";
    // Stryker disable next-line ConditionalExpression: only a name leaf can end in an enum member; strings end in their quote, the other leaves are numbers, keywords and punctuation
    if (expr.type === "name") {
      const m = /(Phase|HealthCheck)\.[A-Za-z_]+$/.exec(text);
      return m === null ? text : m[0];
    }
    return text;
  }
  return expr.children.map(sourceText).join("");
}

/** `assume()` / `reject()` calls in the test and the module-level helpers it calls. */
function assumeCalls(
  at: Located,
  fn: PythonFunction,
): { count: number; line?: number } {
  // Stryker disable next-line ArrayDeclaration: every function entry the analysis builds lists its assumes
  const lines = [...(fn.assumes ?? [])];
  // Stryker disable next-line ArrayDeclaration: every function entry lists its refs, and no Python name has spaces, so an added one names no definition
  for (const { definition } of helperDefs(at, fn.refs ?? [])) {
    // Stryker disable next-line ArrayDeclaration: only defs come back, and the analysis lists the assumes of every def
    lines.push(...(definition.assumes ?? []));
  }
  lines.sort((a, b) => a - b);
  // Stryker disable next-line ConditionalExpression: with no calls both branches give a count of 0 and no line
  return lines.length === 0
    ? { count: 0 }
    : { count: lines.length, line: lines[lines.length - 1] as number };
}

/**
 * The assertions that can fail in the test, its state machine's steps and
 * the module-level helpers they call, transitively, each with the
 * function it is made in.
 */
function assertionSites(at: Located, fn: PythonFunction): ScopedAssertion[] {
  const sites: ScopedAssertion[] = [];
  const add = (
    owner: PythonFunction | undefined,
    params: ReadonlyMap<string, string>,
  ) => {
    if (owner === undefined) return;
    const scope: RenamingScope = {
      id: `${at.path}:${owner.qualname}`,
      scope: owner.scope,
      params,
    };
    for (const site of owner.assertions ?? []) sites.push({ site, scope });
  };
  add(fn, givenSlots(fn));
  // Stryker disable next-line ArrayDeclaration: every function entry lists its refs, and no Python name has spaces, so an added one names no definition
  const queue = [...(fn.refs ?? [])];
  // Stryker disable next-line ArrayDeclaration: a string in place of a step has no method, so it names no function and adds nothing
  for (const step of fn.stateful?.steps ?? []) {
    const method = at.module.functions.get(
      // Stryker disable next-line StringLiteral,OptionalChaining: the analysis gives every step its qualname, so this fallback is never built
      step.qualname ?? `${fn.stateful?.machine}.${step.method}`,
    );
    // A step's arguments come by keyword: none of them may be renamed.
    add(method, new Map());
    // Stryker disable next-line ArrayDeclaration,OptionalChaining: every step's qualname names a function the analysis lists, and no Python name has spaces
    queue.push(...(method?.refs ?? []));
  }
  for (const { name } of helperDefs(at, queue)) {
    const helper = at.module.functions.get(name);
    // Stryker disable next-line OptionalChaining: every def the analysis lists has its scope
    add(helper, new Map(helper?.scope?.params.map((p, i) => [p, `p${i}`])));
  }
  return sites;
}

// Stryker disable next-line Regex: no node type contains these names as a part, so the anchors change no match
const SPLATS_AND_KEYWORDS = /^(keyword_argument|list_splat|dictionary_splat)$/;

/**
 * The parameters `@given` fills by position, each with its slot counted
 * from the right (as Hypothesis fills them); a test's other parameters
 * are fixtures, which pytest finds by name.
 */
function givenSlots(fn: PythonFunction): Map<string, string> {
  const out = new Map<string, string>();
  const given = fn.decorators.find((d) => {
    // Stryker disable next-line ConditionalExpression,OptionalChaining: every decorator the analysis records has its expression and a call its children; outside a call the node after a leading name is an operator token, which fills no slot
    const callee = d.expr?.type === "call" ? d.expr.children?.[0] : undefined;
    // Stryker disable next-line StringLiteral: every name leaf carries its text
    return callee?.type === "name" && GIVEN.has(callee.text ?? "");
  });
  // Stryker disable next-line OptionalChaining: a call always has its callee and argument list
  const args = (given?.expr?.children?.[1]?.children ?? []).filter((a) =>
    // Stryker disable next-line ConditionalExpression,Regex,StringLiteral: only leaves carry text, and the only leaves in an argument list that start or end with a comma or parenthesis are those tokens
    !(a.children === undefined && /^[,()]$/.test(a.text ?? ""))
  );
  if (args.some((a) => SPLATS_AND_KEYWORDS.test(a.type))) return out;
  // Stryker disable next-line ArrayDeclaration: only a TestCase entry has no scope, and no Python name has spaces, so the added parameter matches no name
  const params = fn.scope?.params ?? [];
  // Stryker disable next-line ConditionalExpression,EqualityOperator: a slot past the parameters goes to an undefined key, which no name looks up
  for (let i = 0; i < args.length && i < params.length; i++) {
    out.set(params[params.length - 1 - i] as string, `g${i}`);
  }
  return out;
}

/**
 * The module-level functions `refs` name, and those they name in turn,
 * each once: the helpers a test's checks may live in.
 */
function helperDefs(
  at: Located,
  refs: readonly string[],
): { name: string; definition: PythonDefinition }[] {
  const found: { name: string; definition: PythonDefinition }[] = [];
  const seen = new Set<string>();
  const queue = [...refs];
  while (queue.length > 0) {
    const name = queue.pop() as string;
    if (seen.has(name)) continue;
    seen.add(name);
    const definition = at.module.definitions?.get(name);
    if (definition === undefined) continue;
    // A module-level alias (`ok = check`) runs the def it names.
    if (definition.kind === "def") found.push({ name, definition });
    queue.push(...definition.refs);
  }
  return found;
}

/**
 * Every assertion the base's test makes (in its body, its state machine's
 * steps or the helpers they call) must still be made at the head, or a
 * stronger one in its place: compared by meaning, up to a consistent
 * renaming of locals and parameters (see `compareAssertions`). New
 * assertions only add. A head test with no assertion that can fail is
 * left to `property.vacuous`. A finding when an assertion was dropped or
 * weakened; when the only change is assertions rewritten beyond what their
 * form shows, a description of the rewrite for the kill sets to decide.
 */
function assertionsChanged(
  label: string,
  pair: Pair,
): { findings: Finding[]; rewrite?: string } {
  // A head test that cannot fail at all is property.vacuous already.
  if (pair.headFn.vacuity !== undefined) return { findings: [] };
  const compared = compareAssertions(
    assertionSites(pair.baseAt, pair.baseFn),
    assertionSites(pair.headAt, pair.headFn),
  );
  const { dropped, weakened, rewritten } = compared;
  if (dropped.length === 0 && weakened.length === 0) {
    return rewritten.length === 0
      ? { findings: [] }
      : { findings: [], rewrite: `${label} ${rewrites(pair, compared)}` };
  }
  const parts: string[] = [];
  if (dropped.length > 0) {
    parts.push(
      `no longer makes ${dropped.length} of the base's assertions (base ${pair.baseAt.path} ${
        lines(dropped)
      })`,
    );
  }
  if (weakened.length > 0) {
    parts.push(
      `weakens ${weakened.length} of the base's assertions (base ${pair.baseAt.path} ${
        lines(weakened.map((w) => w.base))
      }, now ${lines(weakened.map((w) => w.head))})`,
    );
  }
  if (rewritten.length > 0) parts.push(rewrites(pair, compared));
  return {
    findings: [finding(
      "property.assertion_removed",
      `${label} ${
        parts.join("; ")
      }, in the test, its state machine's steps or the helpers they call: an assertion may be added, renamed or made stronger, never dropped or weakened; restore it, or change it on the base branch`,
      { path: pair.headAt.path, line: pair.headFn.line },
    )],
  };
}

function rewrites(pair: Pair, compared: AssertionComparison): string {
  const { rewritten } = compared;
  return `rewrites ${rewritten.length} of the base's assertions in a way their form does not show is at least as strong (base ${pair.baseAt.path} ${
    lines(rewritten.map((r) => r.base))
  }, now ${lines(rewritten.map((r) => r.head))})`;
}

function lines(sites: readonly { line: number }[]): string {
  return `line(s) ${
    [...new Set(sites.map((site) => site.line))].sort((a, b) => a - b).join(
      ", ",
    )
  }`;
}

function assumes(label: string, pair: Pair): Finding[] {
  const b = assumeCalls(pair.baseAt, pair.baseFn);
  const h = assumeCalls(pair.headAt, pair.headFn);
  if (h.count <= b.count) return [];
  return [finding(
    "property.assume_added",
    `${label} filters its inputs with ${
      plural(h.count, "assume()/reject() call")
    } where the base has ${b.count}: an assumption can discard exactly the inputs that fail; fix the code instead`,
    { path: pair.headAt.path, line: h.line ?? pair.headFn.line },
  )];
}

/**
 * A state machine's rules, initializers, invariants and preconditions are
 * part of its property: each base step must still be there, with rule
 * strategies at least as wide, the same invariants and preconditions, and
 * an assertion wherever the base had one. New steps only add.
 */
function statefulSteps(label: string, pair: ComparedPair): Finding[] {
  const baseSteps = pair.baseFn.stateful?.steps;
  if (baseSteps === undefined) return [];
  const headSteps = new Map(
    // Stryker disable next-line ArrayDeclaration: a string in place of a step has no method, and every base step has one
    (pair.headFn.stateful?.steps ?? []).map((step) => [step.method, step]),
  );
  const path = pair.headAt.path;
  const machine = pair.headFn.stateful?.machine ??
    // Stryker disable next-line OptionalChaining,StringLiteral: base steps exist only when the base runs a state machine, so its machine is there and the fallback is never reached
    pair.baseFn.stateful?.machine ?? "?";
  const out: Finding[] = [];
  for (const step of baseSteps) {
    const head = headSteps.get(step.method);
    const what = `${machine}.${step.method}`;
    if (head === undefined) {
      out.push(finding(
        "property.decorator_changed",
        `${label} lost the state machine step ${what} (${
          step.kinds.map((k) => `@${k}`).join(" ") || "teardown"
        }, base line ${step.line}): rules, invariants and initializers may be added, never removed`,
        { path, line: pair.headFn.line },
      ));
      continue;
    }
    const unmatched = head.decorators.map((decorator, i) => ({
      decorator,
      kind: head.kinds[i],
    }));
    step.decorators.forEach((decorator, index) => {
      const kind = step.kinds[index];
      const at = unmatched.findIndex((candidate) => candidate.kind === kind);
      const counterpart = unmatched[at]?.decorator;
      if (counterpart === undefined) {
        out.push(finding(
          "property.decorator_changed",
          `${label}: the state machine step ${what} lost its @${decorator.text} (base line ${decorator.line}): restore it`,
          { path, line: head.line },
        ));
        return;
      }
      unmatched.splice(at, 1);
      const diff = pair.comparison.compare(
        { expr: exprOf(decorator), at: pair.baseAt },
        { expr: exprOf(counterpart), at: pair.headAt },
        // Stryker disable next-line StringLiteral: a direction is only ever asked whether it is `widening`; the other spelling only keys the memo apart, so a definition met both ways is compared again, to the result it gave before
        kind === "rule" || kind === "initialize" ? "widening" : "equal",
      );
      if (diff === undefined) return;
      out.push(finding(
        kind === "rule" || kind === "initialize"
          ? "property.strategy_narrowed"
          : "property.decorator_changed",
        decorator.text === counterpart.text
          ? `${label}: the state machine step ${what} keeps its @${decorator.text}, but what it names changed: ${diff.why}; restore the base's`
          : `${label}: the state machine step ${what} changed its @${decorator.text} to @${counterpart.text}: ${diff.why}; restore the base's`,
        { path: diff.path, line: diff.line },
      ));
    });
    for (const { decorator: added, kind } of unmatched) {
      if (kind !== "precondition") continue;
      out.push(finding(
        "property.assume_added",
        `${label}: the state machine step ${what} gained @${added.text}: a precondition can keep the step from ever running on the inputs that fail; fix the code instead`,
        { path, line: added.line },
      ));
    }
    if (step.asserts && !head.asserts) {
      out.push(finding(
        "property.vacuous",
        `${label}: the state machine step ${what} no longer asserts anything that can fail (the base's does): restore its assertion`,
        { path, line: head.line },
      ));
    }
  }
  return out;
}

function exprOf(decorator: PythonDecorator): PythonExpr {
  return decorator.expr ??
    { type: "opaque", line: decorator.line, text: decorator.text };
}

/** Seed 002: the contract test's module-level code, helpers and seed reads. */
function contractCode(label: string, pair: ComparedPair): Finding[] {
  const out: Finding[] = [];
  const path = pair.headAt.path;
  const bEnv = [...(pair.baseFn.envReads ?? [])].sort().join(",");
  const hEnv = [...(pair.headFn.envReads ?? [])].sort().join(",");
  if (bEnv !== hEnv) {
    out.push(finding(
      "property.contract_code_changed",
      `${label} reads the environment variables [${hEnv}] where the base reads [${bEnv}]: the seed and trial count pawl injects must reach the test unchanged`,
      { path, line: pair.headFn.line },
    ));
  }
  const baseCode = (pair.baseAt.module.moduleCode ?? []).map((s) => s.key);
  for (const statement of pair.headAt.module.moduleCode ?? []) {
    const index = baseCode.indexOf(statement.key);
    if (index === -1) {
      out.push(finding(
        "property.contract_code_changed",
        `${label}: module-level code at line ${statement.line} is new or changed, and it runs before the contract test; restore the base's`,
        { path, line: statement.line },
      ));
      return out;
    }
    baseCode.splice(index, 1);
  }
  if (baseCode.length > 0) {
    out.push(finding(
      "property.contract_code_changed",
      `${label}: module-level code the base runs before the contract test was removed; restore it`,
      { path, line: 1 },
    ));
    return out;
  }
  // Stryker disable next-line ArrayDeclaration: with no names recorded there is none to follow, and a name that resolves on neither side is no difference
  for (const ref of pair.headFn.refs ?? []) {
    // Stryker disable StringLiteral: `compareName` reads of the head's expression only its line, for a name that no longer resolves (that line is pinned by the tests)
    const name: PythonExpr = {
      type: "name",
      line: pair.headFn.line,
      text: ref,
    };
    // Stryker restore StringLiteral
    const diff = pair.comparison.compareName(
      { expr: name, at: pair.baseAt },
      { expr: name, at: pair.headAt },
      ref,
      // Stryker disable next-line StringLiteral: a direction is only ever asked whether it is `widening`; the other spelling only keys the memo apart, so a definition met both ways is compared again, to the result it gave before
      "equal",
    );
    if (diff !== undefined) {
      out.push(finding(
        "property.contract_code_changed",
        `${label} relies on "${ref}", which changed: ${diff.why}; a helper or constant a contract test uses is part of the contract`,
        { path: diff.path, line: diff.line },
      ));
      return out;
    }
  }
  return out;
}

/** New or changed Hypothesis profile calls in the test-side tree. */
function profiles(options: CheckRegisteredTestsOptions): Finding[] {
  const out: Finding[] = [];
  for (const [path, module] of options.headModules) {
    if (!options.isTestSide(path)) continue;
    const baseKeys = (options.baseModules.get(path)?.profileCalls ?? []).map((
      c,
    ) => exprKey(c.expr));
    for (const call of module.profileCalls ?? []) {
      const index = baseKeys.indexOf(exprKey(call.expr));
      if (index !== -1) {
        baseKeys.splice(index, 1);
        continue;
      }
      if (call.kind === "register" && strongProfile(call.expr)) continue;
      out.push(finding(
        "property.settings_weakened",
        `"${path}" ${
          call.kind === "load" ? "loads" : "registers"
        } a Hypothesis profile the base does not ${
          call.kind === "load" ? "load" : "register"
        } this way (${
          textOf(call.expr)
        }): a profile changes the settings of every test, so it is human-owned`,
        { path, line: call.line },
      ));
    }
  }
  return out;
}

/** `register_profile("name", max_examples=N>=100, deadline=...)` only: no parent, nothing weakening. */
function strongProfile(call: PythonExpr): boolean {
  // Stryker disable next-line OptionalChaining,ArrayDeclaration: a profile call is always recorded from a call node, which has its callee and its arguments, and those their parentheses at least
  const args = (call.children?.[1]?.children ?? []).filter((a) =>
    // Stryker disable next-line Regex,ConditionalExpression,StringLiteral: only leaves have text, a leaf always carries it, and the only leaves that start or end with a parenthesis or a comma are those tokens themselves
    !(a.children === undefined && /^[,()]$/.test(a.text ?? ""))
  );
  let positional = 0;
  for (const arg of args) {
    if (arg.type !== "keyword_argument") {
      positional++;
      if (positional > 1) return false;
      continue;
    }
    // Stryker disable next-line OptionalChaining,StringLiteral: a keyword argument always has its name, `=` and value as children, and its name is a leaf that carries its text
    const name = arg.children?.[0]?.text ?? "";
    // Stryker disable next-line OptionalChaining: a keyword argument always has its value as its third child
    const value = arg.children?.[2];
    if (name === "max_examples") {
      // Stryker disable next-line ConditionalExpression: a keyword argument always has its value as its third child
      const n = value === undefined ? undefined : numberOf(value);
      if (n === undefined || n < 100) return false;
    } else if (!HARMLESS.has(name)) return false;
  }
  return true;
}
