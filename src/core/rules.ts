/**
 * The registry of stable rule ids. A rule id never changes meaning once
 * published: CI systems key suppressions and dashboards on it.
 *
 * @module
 */
/** The contract layer a finding belongs to. */
export type Layer =
  | "property"
  | "fixture"
  | "freeze"
  | "seed"
  | "tests"
  | "config"
  | "harness";

/** Every layer, in report order. */
export const LAYERS: readonly Layer[] = [
  "config",
  "harness",
  "property",
  "fixture",
  "freeze",
  "seed",
  "tests",
];

/** What a rule protects, and whether breaking it blocks a merge by default. */
export interface RuleSpec {
  /** The layer the rule belongs to. */
  layer: Layer;
  /** Whether a finding of this rule rejects the pull request. */
  blocking: boolean;
  /** One line for rule listings (SARIF, JUnit, docs). */
  summary: string;
}

function rule(layer: Layer, summary: string, blocking = true): RuleSpec {
  return { layer, blocking, summary };
}

/** All rules pawl can report. */
export const RULES = {
  // config: the contract files themselves and pawl's own settings
  "config.contract_invalid": rule(
    "config",
    "The head contract does not parse or does not match its schema",
  ),
  "config.contract_removed": rule(
    "config",
    "A contract file present at base is missing at head",
  ),
  "config.contract_symlink": rule(
    "config",
    "A contract file at head is a symlink, which pawl never follows",
  ),
  "config.settings_ignored": rule(
    "config",
    "The head changed pawl.toml; only the base copy is used",
    false,
  ),
  "config.settings_changed": rule(
    "config",
    "The head changed pawl.toml in a way pawl cannot show only strengthens the gate",
  ),
  "config.ci_changed": rule(
    "config",
    "The head changed a CI workflow that runs pawl",
  ),
  // harness: what decides that a test passed
  "harness.conftest_changed": rule(
    "harness",
    "A conftest.py was added, changed or removed",
  ),
  "harness.pytest_config_changed": rule(
    "harness",
    "pytest configuration (pytest.ini, pyproject.toml, setup.cfg, tox.ini) changed",
  ),
  "harness.plugin_changed": rule(
    "harness",
    "A file that loads or shadows test plugins or the test framework changed",
  ),
  "harness.init_changed": rule(
    "harness",
    "A package __init__.py on the way to a test module changed beyond comments and docstrings",
  ),
  "harness.startup_changed": rule(
    "harness",
    "A sitecustomize.py or usercustomize.py, which runs at interpreter start-up, changed",
  ),
  "harness.bytecode_added": rule(
    "harness",
    "The head commits Python bytecode (__pycache__, .pyc, .pyo) that Python could run instead of the source",
  ),
  "harness.stdlib_shadowed": rule(
    "harness",
    "A new top-level module in a path root shadows a standard-library module",
  ),
  "harness.package_shadowed": rule(
    "harness",
    "A new top-level module in a path root shadows an installed package the project does not own",
  ),
  "harness.code_probes_tests": rule(
    "harness",
    "Code under test imports test-framework internals or looks for the test harness",
  ),
  "harness.code_detects_tests": rule(
    "harness",
    "A call the tests made into the code under test gives another result when made again where no test is watching",
  ),
  "harness.module_names_fallback": rule(
    "harness",
    "No interpreter was available, so a built-in list of module names was used",
    false,
  ),
  // property: registered invariants
  "property.removed": rule(
    "property",
    "A registered property was removed or renamed away",
  ),
  "property.retargeted": rule(
    "property",
    "A registered property now points at a different module or test",
  ),
  "property.min_examples_lowered": rule(
    "property",
    "A property's min_examples was lowered",
  ),
  "property.module_missing": rule(
    "property",
    "A registered property's module file does not exist",
  ),
  "property.test_missing": rule(
    "property",
    "A registered property's test function does not exist in its module",
  ),
  "property.vacuous": rule(
    "property",
    "A registered property's test cannot fail (no assertion, a constant, or x == x)",
  ),
  "property.assertion_removed": rule(
    "property",
    "An assertion of a registered test, its state machine's steps or a helper it calls was dropped or rewritten",
  ),
  "property.assertion_rewritten": rule(
    "property",
    "An assertion of a registered test was rewritten beyond what its form shows, and the mutation kill sets show the test still catches every bug the base's catches",
    false,
  ),
  "property.examples_below_contract": rule(
    "property",
    "The test's max_examples is below the contract's min_examples",
  ),
  "property.examples_lowered": rule(
    "property",
    "The test's max_examples (or another Hypothesis setting) was weakened",
  ),
  "property.not_passed": rule(
    "property",
    "A registered property was not collected, skipped, xfailed, errored or failed",
  ),
  "property.source_changed": rule(
    "property",
    "A registered property's source hash no longer matches (seed 003)",
  ),
  "property.source_mismatch": rule(
    "property",
    "A property added by the pull request records a hash that does not match its source",
  ),
  "property.below_minimum": rule(
    "property",
    "Fewer properties are registered than the policy's minimum",
  ),
  "property.policy_loosened": rule(
    "property",
    "The property policy was loosened (min_properties lowered or agent additions allowed)",
  ),
  "property.addition_forbidden": rule(
    "property",
    "The pull request adds a property while the policy forbids agent additions",
  ),
  "property.shadowed": rule(
    "property",
    "A registered test is defined again later in its module, so pytest runs the later definition",
  ),
  "property.rebound": rule(
    "property",
    "A registered test's name is rebound after its def, so pytest runs something else",
  ),
  "property.strategy_narrowed": rule(
    "property",
    "A registered test's @given strategies changed in a way pawl cannot show is a widening",
  ),
  "property.settings_weakened": rule(
    "property",
    "A registered test's Hypothesis settings (through an alias, a parent or a profile) were weakened",
  ),
  "property.decorator_changed": rule(
    "property",
    "A decorator of a registered test was added, removed or changed (or an @example removed)",
  ),
  "property.assume_added": rule(
    "property",
    "assume() or reject() was added to a registered test or a helper it calls",
  ),
  "property.contract_code_changed": rule(
    "property",
    "Module-level code or a helper a contract test calls changed (seed 002)",
  ),
  "property.private_contract": rule(
    "property",
    "A contract added by the pull request names a private function",
  ),
  "property.min_trials_lowered": rule(
    "property",
    "A contract's min_trials was lowered",
  ),
  // fixture: content-addressed test data
  "fixture.removed": rule(
    "fixture",
    "A fixture registered at base was removed from the contract",
  ),
  "fixture.missing": rule(
    "fixture",
    "A registered fixture file does not exist",
  ),
  "fixture.digest_mismatch": rule(
    "fixture",
    "A fixture's bytes do not match the contract digest",
  ),
  "fixture.digest_changed": rule(
    "fixture",
    "A fixture's registered digest changed without a human unlock",
  ),
  "fixture.retargeted": rule(
    "fixture",
    "A registered fixture now points at a different path",
  ),
  "fixture.rotated": rule(
    "fixture",
    "A fixture was rotated under a human's --allow-fixture-rotate",
    false,
  ),
  "fixture.policy_loosened": rule(
    "fixture",
    "The fixture policy was loosened (rotation on agent pull requests allowed)",
  ),
  "fixture.self_unlock": rule(
    "fixture",
    "The pull request sets a fixture unlock; only a human commit may",
  ),
  "fixture.path_unsafe": rule(
    "fixture",
    "A fixture path is absolute, contains '..', or is outside the fixture root (tests/fixtures/ unless pawl.toml's [fixtures] roots says otherwise)",
  ),
  "fixture.symlink": rule(
    "fixture",
    "A fixture path is a symlink or not a regular file",
  ),
  // freeze: budgeted flake exceptions
  "freeze.incomplete": rule(
    "freeze",
    "A freeze lacks an owner or a reason",
  ),
  "freeze.expired": rule("freeze", "A freeze expired at or before --now"),
  "freeze.no_reruns": rule("freeze", "A freeze has no reruns left"),
  "freeze.over_cap": rule(
    "freeze",
    "More freezes are active than the cap allows",
  ),
  "freeze.expiry_extended": rule("freeze", "A freeze's expiry moved later"),
  "freeze.retargeted": rule(
    "freeze",
    "A freeze now covers a different test",
  ),
  "freeze.reruns_raised": rule("freeze", "A freeze's rerun budget was raised"),
  "freeze.cap_raised": rule("freeze", "The freeze cap was raised"),
  "freeze.rerun_used": rule(
    "freeze",
    "A frozen test failed and passed on a budgeted rerun",
    false,
  ),
  "freeze.agent_owner": rule(
    "freeze",
    "A freeze names the agent as its owner; flakes are a human budget",
  ),
  "freeze.body_changed": rule(
    "freeze",
    "A frozen test's body changed; a freeze is not a licence to edit the test",
  ),
  "freeze.policy_loosened": rule(
    "freeze",
    "The freeze policy was loosened (fail_on_expired turned off)",
  ),
  "freeze.file_touched": rule(
    "freeze",
    "The pull request changed the human-owned flake freeze file",
  ),
  "freeze.skip_not_false": rule(
    "freeze",
    "A seed freeze does not say skip: false; a freeze that skips is a deleted test",
  ),
  // seed: frozen-seed replays and the fresh seed
  "seed.replay_failed": rule(
    "seed",
    "A test failed (or did not run) on an unexpired frozen seed",
  ),
  "seed.fresh_failed": rule(
    "seed",
    "A test failed on this run's fresh seed",
  ),
  // tests: the suite run
  "tests.failed": rule("tests", "A test failed or errored"),
  "tests.frozen_failed": rule(
    "tests",
    "A frozen test still failed after its rerun budget",
  ),
  "tests.skip_added": rule(
    "tests",
    "The pull request added a skip or xfail to a test",
  ),
  "tests.timeout": rule("tests", "The test run exceeded its time limit"),
  "tests.output_exceeded": rule(
    "tests",
    "The test run printed more than the output cap",
  ),
  "tests.no_report": rule(
    "tests",
    "The test run produced no usable JUnit report",
  ),
  "tests.run_failed": rule(
    "tests",
    "The test command failed without reporting a failing test (collection or usage error)",
  ),
  // what the test runs themselves showed (pawl's observer plugin, the
  // base's oracle on the head's code)
  "harness.report_tampered": rule(
    "harness",
    "The JUnit report disagrees with what pawl's observer saw while the tests ran, or a test's outcome was rewritten after it was made",
  ),
  "harness.observer_missing": rule(
    "harness",
    "pawl's observer plugin did not report from a test run (disabled, shadowed, cut off, or kept from loading by a change of the pull request)",
  ),
  "harness.hypothesis_reconfigured": rule(
    "harness",
    "Code outside the base's test-side files loaded a Hypothesis settings profile during a run",
  ),
  "harness.hypothesis_patched": rule(
    "harness",
    "Hypothesis' own functions, classes or methods were replaced while the base's tests ran on the head's code, where the base's code leaves them alone",
  ),
  "property.oracle_failed": rule(
    "property",
    "The base's tests of a registered property do not collect, run or pass on the head's code",
  ),
  "property.examples_not_executed": rule(
    "property",
    "A registered property executed fewer valid Hypothesis examples than the base's oracle does on the same code and seed",
  ),
  "property.examples_discarded_by_code": rule(
    "property",
    "The code under test discarded Hypothesis examples of a registered property (UnsatisfiedAssumption raised outside the test side) where the base's code discards none",
  ),
  "property.examples_starved_by_code": rule(
    "property",
    "The base's test of a registered property executed fewer than half the valid Hypothesis examples, or passed one of its asserts fewer than half as often, on the head's code as on the base's code, same seed",
  ),
  "seed.not_used": rule(
    "seed",
    "A seeded run shows no evidence that the injected seed and trial count reached the test",
  ),
  "tests.changed_code_unexecuted": rule(
    "tests",
    'Lines the pull request added or changed in the code under test are run by no test of the suite (advisory unless [coverage] changed_lines = "blocking")',
    false,
  ),
  "tests.changed_code_survivors": rule(
    "tests",
    'Mutants on lines the pull request added or changed survive every base property (advisory unless [coverage] changed_lines = "blocking")',
    false,
  ),
  "tests.changed_code_untraced": rule(
    "tests",
    "Whether the tests run the changed code is unknown: code under test switched pawl's line probes off, or the suite's run never reported its lines",
    false,
  ),
  "tests.collection_error": rule(
    "tests",
    "A test file could not be collected (import or syntax error)",
  ),
  "tests.unproven": rule(
    "tests",
    "The pull request adds example assertions without adding or strengthening a contract",
  ),
  "property.failed_at_base": rule(
    "property",
    "A registered property fails at the base too, the same way, so it is not held against the pull request",
    false,
  ),
  "tests.failed_at_base": rule(
    "tests",
    "A failing test the pull request did not touch fails at the base too, so it is not held against it",
    false,
  ),
  // excuses: tests the base's pawl.toml does not run on this runner
  "tests.excused": rule(
    "tests",
    "A test the base's pawl.toml excuses on this runner (owner, reason, expiry) was not run",
    false,
  ),
  "config.excuse_expired": rule(
    "config",
    "An excuse in the base's pawl.toml has expired, so its test ran again",
    false,
  ),
  "config.excuse_covers_property": rule(
    "config",
    "An excuse in the base's pawl.toml would deselect a registered property or a frozen seed's test",
  ),
  // oracle strength by mutation (src/mutation/)
  "property.oracle_weakened": rule(
    "property",
    "A mutant of the code under test that the base's property kills survives the head's property",
  ),
  "property.oracle_blinded": rule(
    "property",
    "A mutant of code the pull request did not change that the base's tests kill on the base's code survives them on the head's code, which runs it",
  ),
  "property.mutants_survived": rule(
    "property",
    "Mutants of the code under test survive the base's properties: gaps in the oracle the pull request did not make",
    false,
  ),
  "property.mutants_cut": rule(
    "property",
    "The [mutation] time budget ran out before every selected mutant ran: those were not run, so a weakening only they show is not seen",
    false,
  ),
} as const satisfies Record<string, RuleSpec>;

/** A registered rule id. */
export type RuleId = keyof typeof RULES;
