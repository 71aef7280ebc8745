/**
 * What the gate needs to know about a Python source file, extracted from a
 * real parse tree (never from regular expressions).
 *
 * @module
 */

/** Why a test function cannot fail. */
export type VacuityReason =
  /** No assertion of any kind in the body. */
  | "no_assertion"
  /** Every assertion asserts a constant truthy value (`assert True`, `assert 1`). */
  | "constant"
  /** Every assertion compares an expression with itself (`assert x == x`). */
  | "tautology";

/** A decorator as written, with its location. */
export interface PythonDecorator {
  /** Source text without the leading `@`, e.g. `settings(max_examples=40)`. */
  text: string;
  /** 1-based line. */
  line: number;
}

/** Hypothesis `@settings(...)` values that can be read statically. */
export interface HypothesisSettings {
  /** `max_examples=N` when N is an integer literal. */
  maxExamples?: number;
  /**
   * True when `max_examples` is present but not an integer literal, or absent
   * while a positional parent settings object or a `**` splat may supply it.
   */
  maxExamplesDynamic?: boolean;
  /** 1-based line of the `@settings` decorator. */
  line: number;
  /** Every keyword argument as source text, for base → head comparison. */
  keywords: Record<string, string>;
}

/** A skip/xfail applied to a test, by marker or by a call in its body. */
export interface SkipMarker {
  /** `skip`, `skipif`, `xfail`, or `importorskip`. */
  kind: "skip" | "skipif" | "xfail" | "importorskip";
  /** 1-based line. */
  line: number;
}

/** One function or method definition. */
export interface PythonFunction {
  /** Bare function name. */
  name: string;
  /** `name` for module-level functions, `Class.name` for methods. */
  qualname: string;
  /** 1-based line of the `def` keyword (or `async`). */
  line: number;
  /** 1-based line of the function's last statement. */
  endLine: number;
  /**
   * The source from `def` (or `async`) to the end of the last statement,
   * decorators excluded, exactly as Python's `ast.get_source_segment`
   * returns it for the `FunctionDef` node.
   */
  source: string;
  /** Decorators, outermost first. */
  decorators: PythonDecorator[];
  /** True when decorated with Hypothesis `@given`. */
  usesHypothesis: boolean;
  /** `@settings(...)` when present. */
  settings?: HypothesisSettings;
  /** Why the function cannot fail, or undefined when it has a real assertion. */
  vacuity?: { reason: VacuityReason; line: number };
  /** skip/xfail markers on the function (and its class) and skip calls in its body. */
  skips: SkipMarker[];
  /** Number of example-style assertions (`assertEqual`, `assert f(x) == literal`). */
  exampleAssertions: number;
  /**
   * `def` lines of earlier definitions with the same qualname, when there are
   * any. Python keeps the last binding, so this entry describes the last
   * definition and the earlier ones never run.
   */
  shadowedLines?: number[];
}

/** The analysis of one Python file. */
export interface PythonModule {
  /** Functions and methods keyed by qualname. */
  functions: ReadonlyMap<string, PythonFunction>;
  /** Module-level `pytest_plugins = ...` assignment line, if any. */
  pytestPluginsLine?: number;
  /**
   * First syntax error, if the file does not parse cleanly: 1-based line and
   * 1-based column (counted in UTF-16 code units).
   */
  syntaxError?: { line: number; column: number };
}
