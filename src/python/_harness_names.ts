/** Modules only a test harness has any business importing. */
export const FRAMEWORK_MODULES: ReadonlySet<string> = new Set([
  "pytest",
  "_pytest",
  "pluggy",
  "hypothesis",
  "_hypothesis_pytestplugin",
  "xdist",
]);

/** Environment variables pytest, Hypothesis and pawl set or read. */
const HARNESS_ENV = ["PYTEST_", "HYPOTHESIS_", "PAWL_"];

/**
 * Text that names a test or the harness: a `test` word (`test_`, `tests/`,
 * `_test.py`, `Test`, `conftest`, `unittest`, `doctest`, `pytest`), the
 * frameworks, the JUnit report, pawl, or pytest's own frame variables.
 * `latest`, `contest` and `attest` are words of their own.
 */
const HARNESS_TEXT =
  /(?:^|[^a-z]|py|unit|conf|doc)test|hypothesis|pluggy|xdist|junit|pawl|tracebackhide|@py_assert/i;

/** Whether a constant compared with frames, argv or module names names a test or the harness. */
export function namesHarness(text: string): boolean {
  return HARNESS_TEXT.test(text);
}

/**
 * The framework module a dotted name is, or is inside of (`_pytest.config`);
 * undefined for anything else, file names such as `pytest.ini` included.
 */
export function frameworkModule(dotted: string): string | undefined {
  if (
    /\.(ini|cfg|toml|py|txt|xml|json|yml|yaml|md|rst|html|log)$/.test(dotted)
  ) {
    return undefined;
  }
  for (const module of FRAMEWORK_MODULES) {
    if (dotted === module || dotted.startsWith(`${module}.`)) return dotted;
  }
  return undefined;
}

/** Whether a module name that starts with `prefix` could be a framework module. */
export function mayBeFrameworkModule(prefix: string): boolean {
  for (const module of FRAMEWORK_MODULES) {
    if (module.startsWith(prefix) || prefix.startsWith(module)) return true;
  }
  return false;
}

/** Whether `name` is an environment variable of pytest, Hypothesis or pawl. */
export function isHarnessEnv(name: string): boolean {
  return HARNESS_ENV.some((prefix) => name.startsWith(prefix));
}

/** Whether an environment variable whose name starts with `prefix` could be one of the harness's. */
export function mayBeHarnessEnv(prefix: string): boolean {
  return HARNESS_ENV.some((env) =>
    env.startsWith(prefix) || prefix.startsWith(env)
  );
}
