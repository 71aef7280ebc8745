/**
 * Python test source, read from a real tree-sitter parse tree rather than
 * regular expressions: each test function's exact source (identical to
 * Python's `ast.get_source_segment`, so seed source hashes line up), its
 * decorators, Hypothesis `@given` / `@settings`, skip and xfail markers,
 * example-style assertions, and whether it can fail at all (no assertion, a
 * constant assertion or a tautology). {@linkcode loadPythonParser} does the
 * one-time I/O of loading the grammar; {@linkcode analyzePython} is pure.
 *
 * @module
 */
export { loadPythonParser, PythonParser } from "./load_python_parser.ts";
export { analyzePython } from "./analyze_python.ts";
export type {
  HypothesisSettings,
  PythonDecorator,
  PythonFunction,
  PythonModule,
  SkipMarker,
  VacuityReason,
} from "./python_module.ts";
