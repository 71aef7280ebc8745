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
  /** One line for rule listings (SARIF, JUnit, docs): what the rule checks. */
  summary: string;
  /** What to do about a finding of the rule (SARIF help, docs/rules.md). */
  fix: string;
  /**
   * Which part of a judgement raises it: the static checks over the two
   * commits, the test runs (suite, seeds, oracle, mutants), or either.
   * Reports use it to show how long the work behind a finding took.
   */
  stage: RuleStage;
}

/** Which part of a judgement raises a rule. */
export type RuleStage = "static" | "tests" | "either";

function rule(
  layer: Layer,
  summary: string,
  fix: string,
  blocking = true,
): RuleSpec {
  return { layer, blocking, summary, fix, stage: "static" };
}

function inStage(stage: RuleStage, spec: RuleSpec): RuleSpec {
  return { ...spec, stage };
}

/** All rules pawl can report. */
export const RULES = {
  // config: the contract files themselves and pawl's own settings
  "config.contract_invalid": rule(
    "config",
    "The head contract does not parse or does not match its schema",
    "Fix the contract file at the line the message names so it parses and matches its layout's schema (unknown keys are errors), then push again.",
  ),
  "config.contract_removed": rule(
    "config",
    "A contract file present at base is missing at head",
    "Restore the contract file from the base commit. A contract can only be retired by a human commit to the base branch, never by the pull request.",
  ),
  "config.contract_symlink": rule(
    "config",
    "A contract file at head is a symlink, which pawl never follows",
    "Replace the symlink with the regular file it pointed at, committed at the contract's own path.",
  ),
  "config.settings_ignored": rule(
    "config",
    "The head changed pawl.toml; only the base copy is used",
    "Nothing blocks: the base's pawl.toml decided this run. To change pawl's settings, land the pawl.toml change in a separate pull request a human reviews and merges first.",
    false,
  ),
  "config.settings_changed": rule(
    "config",
    "The head changed pawl.toml in a way pawl cannot show only strengthens the gate",
    "Revert the pawl.toml change named in the message, or move it into its own pull request for a human to merge; pawl always judges with the base's settings.",
  ),
  "config.ci_changed": rule(
    "config",
    "The head changed a CI workflow that runs pawl",
    "Revert the change to the workflow that runs pawl, or have a human land it on the base branch on its own; a pull request may not change the gate that judges it.",
  ),
  // harness: what decides that a test passed
  "harness.conftest_changed": rule(
    "harness",
    "A conftest.py was added, changed or removed",
    "Revert the conftest.py change. If a fixture or hook really must change, a human lands it on the base branch first, then the pull request is judged against it.",
  ),
  "harness.pytest_config_changed": rule(
    "harness",
    "pytest configuration (pytest.ini, pyproject.toml, setup.cfg, tox.ini) changed",
    "Revert the change to the pytest configuration (pytest.ini, pyproject.toml's [tool.pytest.ini_options], setup.cfg, tox.ini), or have a human land it on the base branch first.",
  ),
  "harness.plugin_changed": rule(
    "harness",
    "A file that loads or shadows test plugins or the test framework changed",
    "Revert the change to the file that loads or shadows a test plugin or the test framework; plugins decide what passes, so they change only in a human commit to the base.",
  ),
  "harness.init_changed": rule(
    "harness",
    "A package __init__.py on the way to a test module changed beyond comments and docstrings",
    "Keep the package __init__.py on the path to the tests as it was at the base (comments and docstrings may change); move new code into a module of its own.",
  ),
  "harness.startup_changed": rule(
    "harness",
    "A sitecustomize.py or usercustomize.py, which runs at interpreter start-up, changed",
    "Remove or revert the sitecustomize.py or usercustomize.py change: code that runs at interpreter start-up runs before every test.",
  ),
  "harness.bytecode_added": rule(
    "harness",
    "The head commits Python bytecode (__pycache__, .pyc, .pyo) that Python could run instead of the source",
    "Delete the committed __pycache__ directories and .pyc/.pyo files and add them to .gitignore; commit source only.",
  ),
  "harness.stdlib_shadowed": rule(
    "harness",
    "A new top-level module in a path root shadows a standard-library module",
    "Rename the new module so that it does not share a name with a standard-library module (or move it inside a package).",
  ),
  "harness.package_shadowed": inStage(
    "either",
    rule(
      "harness",
      "A new top-level module in a path root shadows an installed package the project does not own",
      "Rename the new module so that it does not share a name with an installed package the project does not own (or move it inside a package).",
    ),
  ),
  "harness.code_probes_tests": inStage(
    "either",
    rule(
      "harness",
      "Code under test imports test-framework internals or looks for the test harness",
      "Remove what looks for the test harness from the code under test (imports of pytest, _pytest, pluggy or Hypothesis, sys.modules probes, PYTEST_* variables, the call stack, sys.argv); code must behave the same whether or not a test watches it.",
    ),
  ),
  "harness.code_detects_tests": inStage(
    "tests",
    rule(
      "harness",
      "A call the tests made into the code under test gives another result when made again where no test is watching",
      "Make the code return the same result whether or not it runs under the tests: remove any check for the test harness, the test data or the call's context that changes the result.",
    ),
  ),
  "harness.module_names_fallback": rule(
    "harness",
    "No interpreter was available, so a built-in list of module names was used",
    "Nothing blocks. Install a Python interpreter on the runner (or in the sandbox image) so pawl reads the real standard-library and installed module names.",
    false,
  ),
  // property: registered invariants
  "property.removed": rule(
    "property",
    "A registered property was removed or renamed away",
    "Restore the property in the contract (and its test). A property is retired only by a human commit to the base; a rename is a removal plus an addition, so keep the old id.",
  ),
  "property.retargeted": rule(
    "property",
    "A registered property now points at a different module or test",
    "Point the property back at the module and test the base registered. To test something new, register a new property next to it.",
  ),
  "property.min_examples_lowered": rule(
    "property",
    "A property's min_examples was lowered",
    "Restore min_examples to at least the base's value; it may only go up.",
  ),
  "property.module_missing": rule(
    "property",
    "A registered property's module file does not exist",
    "Create or restore the module file the contract names, or correct the module path in the contract.",
  ),
  "property.test_missing": rule(
    "property",
    "A registered property's test function does not exist in its module",
    "Restore the registered test function in its module under the name the contract gives (in the agent_contract layout the id is the test function's name).",
  ),
  "property.vacuous": rule(
    "property",
    "A registered property's test cannot fail (no assertion, a constant, or x == x)",
    "Make the test able to fail: assert on the code's result instead of a constant, a tautology (x == x) or nothing at all.",
  ),
  "property.assertion_removed": inStage(
    "either",
    rule(
      "property",
      "An assertion of a registered test, its state machine's steps or a helper it calls was dropped or rewritten",
      "Restore the dropped or rewritten assertion (in the test, its state machine's rules and invariants, or the helper it calls). New assertions may be added; the base's may not go.",
    ),
  ),
  "property.assertion_rewritten": inStage(
    "tests",
    rule(
      "property",
      "An assertion of a registered test was rewritten beyond what its form shows, and the mutation kill sets show the test still catches every bug the base's catches",
      "Nothing blocks: the mutation kill sets show the rewritten assertion still catches every bug the base's did. Check the message's mutants if the change was not meant to touch what the test checks.",
      false,
    ),
  ),
  "property.examples_below_contract": rule(
    "property",
    "The test's max_examples is below the contract's min_examples",
    "Raise the test's max_examples (in @settings or its profile) to at least the contract's min_examples.",
  ),
  "property.examples_lowered": rule(
    "property",
    "The test's max_examples (or another Hypothesis setting) was weakened",
    "Restore the test's max_examples, deadline, phases or other Hypothesis setting to at least what the base had.",
  ),
  "property.not_passed": inStage(
    "tests",
    rule(
      "property",
      "A registered property was not collected, skipped, xfailed, errored or failed",
      "Make the registered property collect and pass: fix the failure, error or import problem the message names, and remove any skip, xfail or deselection of it.",
    ),
  ),
  "property.source_changed": rule(
    "property",
    "A registered property's source hash no longer matches (invariants layout)",
    "Restore the registered property's source, or have a human update its recorded hash in invariants.toml in a commit of their own.",
  ),
  "property.source_mismatch": rule(
    "property",
    "A property added by the pull request records a hash that does not match its source",
    "Record the sha256 of the new property's source as pawl computes it (the message gives the expected value), or fix the source it names.",
  ),
  "property.below_minimum": rule(
    "property",
    "Fewer properties are registered than the policy's minimum",
    "Register more properties, or restore the ones removed, until the count reaches the policy's min_properties.",
  ),
  "property.policy_loosened": rule(
    "property",
    "The property policy was loosened (min_properties lowered or agent additions allowed)",
    "Restore min_properties and allow_agent_additions to their base values; only a human commit to the base may loosen the policy.",
  ),
  "property.addition_forbidden": rule(
    "property",
    "The pull request adds a property while the policy forbids agent additions",
    "Remove the new property from the contract and propose it separately to a human, who can register it; the base's policy forbids additions by the pull request.",
  ),
  "property.shadowed": rule(
    "property",
    "A registered test is defined again later in its module, so pytest runs the later definition",
    "Remove or rename the later definition so that the registered test is the one pytest runs.",
  ),
  "property.rebound": rule(
    "property",
    "A registered test's name is rebound after its def, so pytest runs something else",
    "Remove the assignment that rebinds the registered test's name after its def.",
  ),
  "property.strategy_narrowed": rule(
    "property",
    "A registered test's @given strategies changed in a way pawl cannot show is a widening",
    "Restore the base's @given strategies, or widen them only in ways pawl can see (a wider range, more alternatives, fewer filters).",
  ),
  "property.settings_weakened": rule(
    "property",
    "A registered test's Hypothesis settings (through an alias, a parent or a profile) were weakened",
    "Restore the Hypothesis settings the test gets through its alias, parent class or profile to at least what the base gave it.",
  ),
  "property.decorator_changed": rule(
    "property",
    "A decorator of a registered test was added, removed or changed (or an @example removed)",
    "Restore the registered test's decorators as the base had them, including every @example.",
  ),
  "property.assume_added": rule(
    "property",
    "assume() or reject() was added to a registered test or a helper it calls",
    "Remove the new assume() or reject(); narrow the input with the strategy instead, so that the examples the contract counts still run.",
  ),
  "property.contract_code_changed": rule(
    "property",
    "Module-level code or a helper a contract test calls changed (seed-contracts layout)",
    "Revert the change to the module-level code or helper the contract test calls, or move the new code elsewhere; the code a contract test runs is part of the contract.",
  ),
  "property.private_contract": rule(
    "property",
    "A contract added by the pull request names a private function",
    "Point the new contract at a public function (no leading underscore in any part of its dotted path).",
  ),
  "property.min_trials_lowered": rule(
    "property",
    "A contract's min_trials was lowered",
    "Restore min_trials to at least the base's value; it may only go up.",
  ),
  // fixture: content-addressed test data
  "fixture.removed": rule(
    "fixture",
    "A fixture registered at base was removed from the contract",
    "Restore the fixture's entry in the contract (and its file). Fixtures are retired only by a human commit to the base.",
  ),
  "fixture.missing": rule(
    "fixture",
    "A registered fixture file does not exist",
    "Restore the fixture file at the path the contract names, with the bytes the contract's digest records.",
  ),
  "fixture.digest_mismatch": rule(
    "fixture",
    "A fixture's bytes do not match the contract digest",
    "Restore the fixture's bytes from the base commit. If the data must change, a human rotates the fixture (see fixture.digest_changed).",
  ),
  "fixture.digest_changed": rule(
    "fixture",
    "A fixture's registered digest changed without a human unlock",
    "Restore the fixture's digest and bytes. A human rotates a fixture with an unlock in the contract (agent_contract layout) or by running pawl with --allow-fixture-rotate (invariants layout).",
  ),
  "fixture.retargeted": rule(
    "fixture",
    "A registered fixture now points at a different path",
    "Point the fixture back at the path the base registered; register a new fixture for new data.",
  ),
  "fixture.rotated": rule(
    "fixture",
    "A fixture was rotated under a human's --allow-fixture-rotate",
    "Nothing blocks: a human allowed this rotation. Check the new digest is the data you meant to commit.",
    false,
  ),
  "fixture.policy_loosened": rule(
    "fixture",
    "The fixture policy was loosened (rotation on agent pull requests allowed)",
    "Restore the fixture policy to its base value; only a human commit may allow rotation on pull requests.",
  ),
  "fixture.self_unlock": rule(
    "fixture",
    "The pull request sets a fixture unlock; only a human commit may",
    "Remove the unlock from the pull request; only a human commit to the base may unlock a fixture.",
  ),
  "fixture.path_unsafe": rule(
    "fixture",
    "A fixture path is absolute, contains '..', or is outside the fixture root (tests/fixtures/ unless pawl.toml's [fixtures] roots says otherwise)",
    "Give the fixture a relative path without '..' inside the fixture root (tests/fixtures/ unless pawl.toml's [fixtures] roots names others).",
  ),
  "fixture.symlink": rule(
    "fixture",
    "A fixture path is a symlink or not a regular file",
    "Replace the symlink (or directory, or other special file) with a regular file committed at the fixture's path.",
  ),
  // freeze: budgeted flake exceptions
  "freeze.incomplete": rule(
    "freeze",
    "A freeze lacks an owner or a reason",
    "Give the freeze a human owner and a reason that says why the test is frozen.",
  ),
  "freeze.expired": rule(
    "freeze",
    "A freeze expired at or before --now",
    "Fix the flaky test and remove its freeze, or have its human owner renew the freeze with a new expiry in a commit of their own.",
  ),
  "freeze.no_reruns": rule(
    "freeze",
    "A freeze has no reruns left",
    "Fix the flaky test and remove its freeze, or have its human owner grant reruns again in a commit of their own.",
  ),
  "freeze.over_cap": rule(
    "freeze",
    "More freezes are active than the cap allows",
    "Remove freezes until no more are active than the cap allows (fix the flaky tests they cover).",
  ),
  "freeze.expiry_extended": rule(
    "freeze",
    "A freeze's expiry moved later",
    "Restore the freeze's expiry to the base's date; only its human owner may extend it, in a commit of their own.",
  ),
  "freeze.retargeted": rule(
    "freeze",
    "A freeze now covers a different test",
    "Point the freeze back at the test the base froze; a new flake needs its own freeze from a human.",
  ),
  "freeze.reruns_raised": rule(
    "freeze",
    "A freeze's rerun budget was raised",
    "Restore the freeze's rerun budget to the base's value; only a human may raise it.",
  ),
  "freeze.cap_raised": rule(
    "freeze",
    "The freeze cap was raised",
    "Restore the freeze cap to the base's value; only a human may raise it.",
  ),
  "freeze.rerun_used": inStage(
    "tests",
    rule(
      "freeze",
      "A frozen test failed and passed on a budgeted rerun",
      "Nothing blocks: the frozen test passed on a budgeted rerun. Fix the flake before its budget or expiry runs out.",
      false,
    ),
  ),
  "freeze.agent_owner": rule(
    "freeze",
    "A freeze names the agent as its owner; flakes are a human budget",
    "Name a human as the freeze's owner; the agent cannot own a flake budget.",
  ),
  "freeze.body_changed": rule(
    "freeze",
    "A frozen test's body changed; a freeze is not a licence to edit the test",
    "Restore the frozen test's body, or have a human remove the freeze and land the change to the test on its own.",
  ),
  "freeze.policy_loosened": rule(
    "freeze",
    "The freeze policy was loosened (fail_on_expired turned off)",
    "Turn fail_on_expired back on (restore the base's value); only a human commit may loosen the freeze policy.",
  ),
  "freeze.file_touched": rule(
    "freeze",
    "The pull request changed the human-owned flake freeze file",
    "Revert every change to flake_freeze.yml; the freeze file is edited by humans only.",
  ),
  "freeze.skip_not_false": rule(
    "freeze",
    "A seed freeze does not say skip: false; a freeze that skips is a deleted test",
    "Set skip: false on the seed freeze; a freeze replays its seed, it never skips the test.",
  ),
  // seed: frozen-seed replays and the fresh seed
  "seed.replay_failed": inStage(
    "tests",
    rule(
      "seed",
      "A test failed (or did not run) on an unexpired frozen seed",
      "Run the test with the frozen seed the message names (pytest NODE_ID --hypothesis-seed=SEED, with CONTRACT_SEED and CONTRACT_TRIALS where the layout uses them) and fix the code until it passes.",
    ),
  ),
  "seed.fresh_failed": inStage(
    "tests",
    rule(
      "seed",
      "A test failed on this run's fresh seed",
      "Reproduce with this run's fresh seed (the message gives the seed and the command) and fix the code: the property found a counterexample.",
    ),
  ),
  // tests: the suite run
  "tests.failed": inStage(
    "tests",
    rule(
      "tests",
      "A test failed or errored",
      "Run the failing test locally (the message names it), fix the code or the test, and push again.",
    ),
  ),
  "tests.frozen_failed": inStage(
    "tests",
    rule(
      "tests",
      "A frozen test still failed after its rerun budget",
      "Fix the flaky test: it failed on every rerun its freeze allows.",
    ),
  ),
  "tests.skip_added": rule(
    "tests",
    "The pull request added a skip or xfail to a test",
    "Remove the skip or xfail the pull request added; a skipped test does not pass. Flaky tests get a freeze from a human instead.",
  ),
  "tests.timeout": inStage(
    "tests",
    rule(
      "tests",
      "The test run exceeded its time limit",
      "Find the test that hangs or runs too long (the message names what was running) and fix it, or have a human raise [tests] timeout_seconds in the base's pawl.toml.",
    ),
  ),
  "tests.output_exceeded": inStage(
    "tests",
    rule(
      "tests",
      "The test run printed more than the output cap",
      "Stop the test that floods its output (the message names what was running), or have a human raise [tests] max_output_mib in the base's pawl.toml.",
    ),
  ),
  "tests.no_report": inStage(
    "tests",
    rule(
      "tests",
      "The test run produced no usable JUnit report",
      "Make sure the test command runs pytest (or the runner pawl.toml names) to completion; a crash, an os._exit or a plugin that removes the report leaves pawl nothing to read.",
    ),
  ),
  "tests.run_failed": inStage(
    "tests",
    rule(
      "tests",
      "The test command failed without reporting a failing test (collection or usage error)",
      "Run the test command locally: a collection error, a usage error or a crash before any test ran is in its output.",
    ),
  ),
  // what the test runs themselves showed (pawl's observer plugin, the
  // base's oracle on the head's code)
  "harness.report_tampered": inStage(
    "tests",
    rule(
      "harness",
      "The JUnit report disagrees with what pawl's observer saw while the tests ran, or a test's outcome was rewritten after it was made",
      "Remove whatever rewrites test outcomes or the JUnit report (a hook, a plugin, a fixture that writes the report file); pawl compares the report with what its own plugin saw.",
    ),
  ),
  "harness.observer_missing": inStage(
    "tests",
    rule(
      "harness",
      "pawl's observer plugin did not report from a test run (disabled, shadowed, cut off, or kept from loading by a change of the pull request)",
      "Let pawl's observer plugin load: remove -p no:..., PYTEST_DISABLE_PLUGIN_AUTOLOAD or whatever shadows or stops it, and keep the test run from exiting early.",
    ),
  ),
  "harness.hypothesis_reconfigured": inStage(
    "tests",
    rule(
      "harness",
      "Code outside the base's test-side files loaded a Hypothesis settings profile during a run",
      "Load Hypothesis settings profiles only in the base's test-side files (conftest.py); code under test must not call settings.load_profile.",
    ),
  ),
  "harness.hypothesis_patched": inStage(
    "tests",
    rule(
      "harness",
      "Hypothesis' own functions, classes or methods were replaced while the base's tests ran on the head's code, where the base's code leaves them alone",
      "Stop replacing Hypothesis' functions, classes or methods from the code under test; Hypothesis is the oracle's, not the code's.",
    ),
  ),
  "property.oracle_failed": inStage(
    "tests",
    rule(
      "property",
      "The base's tests of a registered property do not collect, run or pass on the head's code",
      "Run the base's test of the property against the head's code (check out the base's tests over the head) and fix the code so it passes; the head may not change what the base's tests expect.",
    ),
  ),
  "property.examples_not_executed": inStage(
    "tests",
    rule(
      "property",
      "A registered property executed fewer valid Hypothesis examples than the base's oracle does on the same code and seed",
      "Find why the property runs fewer valid examples than the base's oracle (filters, assume(), a strategy that fails, an early return) and restore them.",
    ),
  ),
  "property.examples_discarded_by_code": inStage(
    "tests",
    rule(
      "property",
      "The code under test discarded Hypothesis examples of a registered property (UnsatisfiedAssumption raised outside the test side) where the base's code discards none",
      "Stop raising Hypothesis' UnsatisfiedAssumption (assume() or reject()) from the code under test; let the code handle every input the strategies draw.",
    ),
  ),
  "property.examples_starved_by_code": inStage(
    "tests",
    rule(
      "property",
      "The base's test of a registered property executed fewer than half the valid Hypothesis examples, or passed one of its asserts fewer than half as often, on the head's code as on the base's code, same seed",
      "Find what in the head's code makes the base's test run or assert less (inputs rejected, exceptions swallowed, early returns) and make the code handle those inputs again.",
    ),
  ),
  "seed.not_used": inStage(
    "tests",
    rule(
      "seed",
      "A seeded run shows no evidence that the injected seed and trial count reached the test",
      "Make the test read the seed pawl injects (--hypothesis-seed for Hypothesis, CONTRACT_SEED and CONTRACT_TRIALS for contract tests) instead of a fixed seed or trial count.",
    ),
  ),
  "tests.changed_code_unexecuted": inStage(
    "tests",
    rule(
      "tests",
      'Lines the pull request added or changed in the code under test are run by no test of the suite (advisory unless [coverage] changed_lines = "blocking")',
      'Add or extend a test that runs the lines the message names; a human can make this blocking with [coverage] changed_lines = "blocking".',
      false,
    ),
  ),
  "tests.changed_code_survivors": inStage(
    "tests",
    rule(
      "tests",
      'Mutants on lines the pull request added or changed survive every base property (advisory unless [coverage] changed_lines = "blocking")',
      "Strengthen a property so that it fails for the mutants the message lists (each is a bug the tests would not catch in the changed lines).",
      false,
    ),
  ),
  "tests.changed_code_untraced": inStage(
    "tests",
    rule(
      "tests",
      "Whether the tests run the changed code is unknown: code under test switched pawl's line probes off, or the suite's run never reported its lines",
      "Nothing blocks. Keep the code under test from replacing sys.settrace or sys.monitoring, and check the suite's run finished, so pawl can see which lines ran.",
      false,
    ),
  ),
  "tests.collection_error": inStage(
    "tests",
    rule(
      "tests",
      "A test file could not be collected (import or syntax error)",
      "Fix the import or syntax error in the test file the message names (run pytest --collect-only on it locally).",
    ),
  ),
  "tests.unproven": rule(
    "tests",
    "The pull request adds example assertions without adding or strengthening a contract",
    "Add or strengthen a contract (a property or a contract test) that covers the behaviour the new example assertions check.",
  ),
  "property.failed_at_base": inStage(
    "tests",
    rule(
      "property",
      "A registered property fails at the base too, the same way, so it is not held against the pull request",
      "Nothing is held against the pull request. Fix the property on the base branch in a pull request of its own.",
      false,
    ),
  ),
  "tests.failed_at_base": inStage(
    "tests",
    rule(
      "tests",
      "A failing test the pull request did not touch fails at the base too, so it is not held against it",
      "Nothing is held against the pull request. Fix the test on the base branch in a pull request of its own.",
      false,
    ),
  ),
  // excuses: tests the base's pawl.toml does not run on this runner
  "tests.excused": inStage(
    "tests",
    rule(
      "tests",
      "A test the base's pawl.toml excuses on this runner (owner, reason, expiry) was not run",
      "Nothing blocks. Run the excused test where it can run, and let the excuse expire once it passes on this runner.",
      false,
    ),
  ),
  "config.excuse_expired": inStage(
    "either",
    rule(
      "config",
      "An excuse in the base's pawl.toml has expired, so its test ran again",
      "Nothing blocks, but the test runs again: fix it, or have its owner renew the [[excuses]] entry in the base's pawl.toml.",
      false,
    ),
  ),
  "config.excuse_covers_property": inStage(
    "either",
    rule(
      "config",
      "An excuse in the base's pawl.toml would deselect a registered property or a frozen seed's test",
      "Narrow the [[excuses]] entry in the base's pawl.toml so that it no longer matches a registered property or a frozen seed's test; those must always run.",
    ),
  ),
  // oracle strength by mutation (src/mutation/)
  "property.oracle_weakened": inStage(
    "tests",
    rule(
      "property",
      "A mutant of the code under test that the base's property kills survives the head's property",
      "Restore the property's strength: the message lists mutants (bugs) the base's property catches and the head's does not. Put back the assertion, strategy or setting that caught them.",
    ),
  ),
  "property.oracle_blinded": inStage(
    "tests",
    rule(
      "property",
      "A mutant of code the pull request did not change that the base's tests kill on the base's code survives them on the head's code, which runs it",
      "Find what in the head's code hides the listed mutants from the base's tests (an overloaded __eq__, swallowed exceptions, special-cased test data) and remove it.",
    ),
  ),
  "property.mutants_survived": inStage(
    "tests",
    rule(
      "property",
      "Mutants of the code under test survive the base's properties: gaps in the oracle the pull request did not make",
      "Nothing blocks. Strengthen the properties so they catch the listed mutants: each is a bug the tests would let through.",
      false,
    ),
  ),
  "property.mutants_cut": inStage(
    "tests",
    rule(
      "property",
      "The [mutation] time budget ran out before every selected mutant ran: those were not run, so a weakening only they show is not seen",
      "Nothing blocks. Have a human raise [mutation] budget_seconds in the base's pawl.toml, or lower max_mutants, so every selected mutant runs.",
      false,
    ),
  ),
} as const satisfies Record<string, RuleSpec>;

/** A registered rule id. */
export type RuleId = keyof typeof RULES;
