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

/**
 * An expression copied out of the parse tree: leaves keep their text,
 * identifiers and attribute chains become `name` leaves holding the dotted
 * name the imports make of them (`st.just` → `hypothesis.strategies.just`).
 */
export interface PythonExpr {
  /** tree-sitter node type, `name` for a resolved name, `opaque` when too large. */
  type: string;
  /** 1-based line. */
  line: number;
  /** Leaf text. */
  text?: string;
  /** Children (named and anonymous, comments dropped), for inner nodes. */
  children?: PythonExpr[];
}

/** How a name is bound at module (or class) level. */
export type BindingKind =
  | "def"
  | "class"
  | "assign"
  | "import"
  | "del"
  | "global"
  | "dynamic";

/** One binding of a module-level (or class-level) name. */
export interface PythonBinding {
  /** What binds it. */
  kind: BindingKind;
  /** 1-based line. */
  line: number;
}

/** What a module-level name stands for after the module ran. */
export interface PythonDefinition {
  /** The last binding's kind. */
  kind: BindingKind;
  /** 1-based line of the last binding. */
  line: number;
  /** Structure of every binding statement of the name (comments and docstrings ignored). */
  key: string;
  /** The right-hand side when the name has exactly one plain assignment. */
  expr?: PythonExpr;
  /** Module-level names the bindings refer to. */
  refs: string[];
  /** `from module import name` (module may start with dots), for an import binding. */
  from?: { module: string; name: string };
  /** Lines of `assume()` / `reject()` calls, for a function. */
  assumes?: number[];
  /** Assertions that can fail, for a function. */
  assertions?: AssertionSite[];
  /** What the function returns, when its body is one `return` (see {@linkcode ReturnedExpr}). */
  returns?: ReturnedExpr;
}

/**
 * An undecorated, synchronous `def` whose body (after a docstring) is a
 * single `return <expr>`: a call of it stands for `expr` with the
 * parameters replaced by the arguments.
 */
export interface ReturnedExpr {
  /** Plain parameter names, in order (no defaults, `*` or `**`). */
  params: string[];
  /** The returned expression. */
  expr: PythonExpr;
}

/** An assertion that can fail, as {@linkcode PythonFunction.assertions} lists it. */
export interface AssertionSite {
  /** Its structure (whitespace, comments and quotes ignored). */
  key: string;
  /** 1-based line. */
  line: number;
  /**
   * What it checks: an `assert`'s condition (its message left out, as it
   * never decides a pass), or the asserting call; absent for a `raise`.
   */
  claim?: PythonExpr;
}

/**
 * The names a function binds itself, so two spellings of it can be
 * compared up to a consistent renaming of them.
 */
export interface LocalScope {
  /** Parameter names in order (`*args` and `**kwargs` by their names). */
  params: string[];
  /**
   * Each local name the body binds by assignment, augmented assignment,
   * `for`, `with ... as` or `:=`, with those binding statements in
   * document order (nested functions, classes and lambdas not entered).
   */
  bindings: ReadonlyMap<string, readonly PythonExpr[]>;
  /**
   * Names bound in ways a renaming is not followed through: `global`,
   * `nonlocal`, imports, nested `def`/`class`, `except ... as`, `match`
   * captures, or a parameter bound again in the body.
   */
  fixed: string[];
}

/** One module-level statement that is not a definition, import or docstring. */
export interface ModuleStatement {
  /** Structure of the statement (comments and docstrings ignored). */
  key: string;
  /** 1-based line. */
  line: number;
}

/** A `settings.register_profile(...)` or `settings.load_profile(...)` call. */
export interface ProfileCall {
  /** Which call. */
  kind: "register" | "load";
  /** 1-based line. */
  line: number;
  /** The call. */
  expr: PythonExpr;
}

/** Something a module does that only makes sense when it looks for the test harness. */
export interface HarnessProbe {
  /**
   * Import of the framework, a module-name probe, an env read, the report,
   * the stack (frames compared with a test's name, a tracer), the command
   * line compared with a test runner's.
   */
  kind: "import" | "module_name" | "env" | "report" | "stack" | "argv";
  /** What exactly, e.g. `_pytest.config`, `PYTEST_CURRENT_TEST` or the look's source text. */
  detail: string;
  /** 1-based line. */
  line: number;
  /** The constant naming a test or the harness that a followed value met. */
  names?: string;
  /** What pawl could not read, when only that makes it a probe (it fails closed). */
  unread?: string;
  /**
   * The modules `unread` comes from, when it is only their constants
   * (`tokenize.NEWLINE`, `from .paths import TESTS`; `.paths` when relative).
   */
  unreadFrom?: string[];
}

/** An environment variable a module reads by a name written out or built from constants. */
export interface EnvRead {
  /** The variable, e.g. `CONTRACT_SEED`. */
  name: string;
  /** 1-based line. */
  line: number;
}

/** A decorator as written, with its location. */
export interface PythonDecorator {
  /** Source text without the leading `@`, e.g. `settings(max_examples=40)`. */
  text: string;
  /** 1-based line. */
  line: number;
  /** The expression, for structural comparison. */
  expr?: PythonExpr;
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

/** A rule, initializer, invariant or teardown of a Hypothesis state machine. */
export interface StatefulStep {
  /** Method name. */
  method: string;
  /** `Class.method` of the class in the machine's chain that defines it. */
  qualname?: string;
  /** 1-based line of its `def`. */
  line: number;
  /** Its `@rule` / `@initialize` / `@invariant` / `@precondition` decorators. */
  kinds: ("rule" | "initialize" | "invariant" | "precondition")[];
  /** Those decorators, in order. */
  decorators: PythonDecorator[];
  /** Whether its body has an assertion that can fail. */
  asserts: boolean;
}

/** How a registered name runs a Hypothesis `RuleBasedStateMachine`. */
export interface StatefulTest {
  /** The machine class. */
  machine: string;
  /**
   * What pytest collects under the name: a module-level `TestX =
   * Machine.TestCase` (`assign`), a `class TestX(Machine.TestCase)`
   * (`class`), or a test function calling `run_state_machine_as_test` (`def`).
   */
  binding: "assign" | "class" | "def";
  /** 1-based first line of the binding statement (its first decorator, for a decorated class). */
  bindingLine?: number;
  /** The pytest node id after `file::` (`TestX::runTest`, or the function's name). */
  nodeName: string;
  /** The machine's steps, in line order. */
  steps: StatefulStep[];
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
  /** Lines of `assume()` / `reject()` calls in the body. */
  assumes?: number[];
  /** The body's assertions that can fail, in document order. */
  assertions?: AssertionSite[];
  /** The names the function binds itself. */
  scope?: LocalScope;
  /** Names the body and decorators use that are not bound inside the function. */
  refs?: string[];
  /** Environment variable names the body reads (`?` for one not written as a literal). */
  envReads?: string[];
  /**
   * Set when the entry is a Hypothesis stateful test: a `TestCase` binding
   * (an entry with no `def` of its own: `source` is the machine class,
   * `decorators` and `settings` are the machine's) or a test function that
   * runs a machine.
   */
  stateful?: StatefulTest;
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
  /** Every binding of each module-level name and `Class.name`, in order. */
  bindings?: ReadonlyMap<string, readonly PythonBinding[]>;
  /** Writes to module globals pawl cannot resolve to a name (`globals().update(...)`, star imports). */
  dynamicWrites?: readonly { line: number; detail: string }[];
  /** Module-level names and what they stand for. */
  definitions?: ReadonlyMap<string, PythonDefinition>;
  /** Module-level statements other than definitions, imports, plain assignments and docstrings. */
  moduleCode?: readonly ModuleStatement[];
  /** Hypothesis profile calls anywhere in the file. */
  profileCalls?: readonly ProfileCall[];
  /** Module-level `RuleBasedStateMachine` subclasses, run as a test or not. */
  stateMachines?: readonly { name: string; line: number }[];
  /** Harness probes anywhere in the file. */
  probes?: readonly HarnessProbe[];
  /** Environment variables read anywhere in the file by a name pawl can read. */
  envReads?: readonly EnvRead[];
  /** The tokens without comments and docstrings, with their lines. */
  tokens?: { texts: readonly string[]; lines: readonly number[] };
}
