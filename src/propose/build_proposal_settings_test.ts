import assert from "node:assert/strict";
import { readAgentContract } from "../layouts/agent_contract/read_agent_contract.ts";
import { readPropertyRegistry } from "../layouts/invariants/read_property_registry.ts";
import { buildProposal } from "./build_proposal.ts";
import { inputFor, lines } from "./_testing.ts";

const TEST = lines(
  "from hypothesis import given, settings, strategies as st",
  "",
  "@given(st.integers())",
  "def test_plain(n):",
  "    assert n == n + 0",
  "",
  "@settings(max_examples=7)",
  "@given(st.integers())",
  "def test_written(n):",
  "    assert n - n == 0",
  "",
  "@settings(deadline=None)",
  "@given(st.integers())",
  "def test_deadline_only(n):",
  "    assert abs(n) >= 0",
);

/** Proposed min_examples by test name, for `files` in layout 000. */
async function proposed(
  files: Record<string, string>,
  env?: Record<string, string>,
): Promise<
  { counts: Record<string, number>; text: string; unresolved: number }
> {
  const proposal = buildProposal(
    await inputFor(files, "000"),
    env === undefined ? {} : { env },
  );
  const text = proposal.files[0]!.text;
  const contract = readAgentContract(text, {
    path: "tests/agent_contract.yaml",
  });
  const counts: Record<string, number> = {};
  for (const p of contract.properties) counts[p.name] = p.minExamples;
  return { counts, text, unresolved: proposal.summary.unresolved };
}

Deno.test("buildProposal() proposes the example counts the project's settings run", async (t) => {
  const cases: [string, Record<string, string>, Record<string, number>][] = [
    ["no profile: Hypothesis' default", {}, {
      test_plain: 100,
      test_written: 7,
      test_deadline_only: 100,
    }],
    ["a profile registered and loaded in the root conftest.py", {
      "conftest.py": lines(
        "from hypothesis import settings",
        'settings.register_profile("ci", max_examples=300, deadline=None)',
        'settings.load_profile("ci")',
      ),
    }, { test_plain: 300, test_written: 7, test_deadline_only: 300 }],
    [
      "a profile loaded from the environment with a default, in tests/__init__.py",
      {
        "tests/__init__.py": lines(
          "import os",
          "from hypothesis import settings",
          'settings.register_profile("dev", max_examples=20)',
          'settings.register_profile("ci", max_examples=1000)',
          'settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "dev"))',
        ),
      },
      { test_plain: 20, test_written: 7, test_deadline_only: 20 },
    ],
    ["a profile through a module constant and a parent profile", {
      "tests/conftest.py": lines(
        "import os",
        "from hypothesis import settings",
        'settings.register_profile("base", max_examples=40)',
        'settings.register_profile("ci", parent=settings.get_profile("base"), deadline=None)',
        'PROFILE = os.getenv("PROFILE", "ci")',
        "settings.load_profile(PROFILE)",
      ),
    }, { test_plain: 40, test_written: 7, test_deadline_only: 40 }],
    ["the test module loads the profile", {
      "tests/test_calc.py": lines(
        "from hypothesis import settings",
        'settings.register_profile("many", max_examples=500)',
        'settings.load_profile("many")',
      ) + TEST,
    }, { test_plain: 500, test_written: 7, test_deadline_only: 500 }],
  ];
  for (const [name, extra, expected] of cases) {
    await t.step(name, async () => {
      const got = await proposed({ "tests/test_calc.py": TEST, ...extra });
      assert.deepEqual(got.counts, expected);
      assert.equal(got.unresolved, 0);
    });
  }
});

Deno.test("buildProposal() names the profile a count comes from", async () => {
  const { text } = await proposed({
    "tests/test_calc.py": TEST,
    "tests/conftest.py": lines(
      "from hypothesis import settings",
      'settings.register_profile("ci", max_examples=300)',
      'settings.load_profile("ci")',
    ),
  });
  assert.match(
    text,
    /runs 300 examples: profile "ci" loaded in "tests\/conftest\.py" line 3/,
  );
});

Deno.test("buildProposal() says which example counts it could not resolve", async (t) => {
  const cases: [string, string, RegExp][] = [
    [
      "a profile chosen by an environment variable without a default",
      'settings.load_profile(os.environ["HYPOTHESIS_PROFILE"])',
      /environment variable without a default/,
    ],
    [
      "os.getenv without a default",
      'settings.load_profile(os.getenv("HYPOTHESIS_PROFILE"))',
      /chosen by \$HYPOTHESIS_PROFILE, which has no default/,
    ],
    [
      "a computed max_examples",
      'settings.register_profile("ci", max_examples=int(os.environ.get("N", "5")))\nsettings.load_profile("ci")',
      /max_examples to a value that is not an integer literal/,
    ],
    [
      "a profile never registered",
      'settings.load_profile("nightly")',
      /"nightly", which no file pawl read registers/,
    ],
  ];
  for (const [name, call, why] of cases) {
    await t.step(name, async () => {
      const got = await proposed({
        "tests/test_calc.py": TEST,
        "tests/conftest.py": lines(
          "import os",
          "from hypothesis import settings",
          call,
        ),
      });
      // test_written's own max_examples is still known.
      assert.equal(got.counts["test_written"], 7);
      assert.equal(got.unresolved, 2);
      assert.match(got.text, /Example counts pawl could not resolve:/);
      assert.match(got.text, why);
      assert.match(
        got.text,
        /test "test_plain": .*; Hypothesis' default of 100 is written, check it/,
      );
    });
  }
});

const MACHINE = lines(
  "from hypothesis import settings, strategies as st",
  "from hypothesis.stateful import RuleBasedStateMachine, invariant, rule",
  "",
  "class Counter(RuleBasedStateMachine):",
  "    n = 0",
  "",
  "    @rule(k=st.integers(0, 3))",
  "    def add(self, k):",
  "        self.n += k",
  "",
  "    @invariant()",
  "    def non_negative(self):",
  "        assert self.n >= 0",
  "",
  "Counter.TestCase.settings = settings(max_examples=45)",
  "TestCounter = Counter.TestCase",
);

Deno.test("buildProposal() lists a state machine's TestCase as a property", async (t) => {
  await t.step("layout 000, with the machine's settings", async () => {
    const got = await proposed({ "tests/test_counter.py": MACHINE });
    assert.deepEqual(got.counts, { TestCounter: 45 });
    assert.match(got.text, /its state machine's settings \(line 15\)/);
  });
  await t.step("layout 003, with the machine class's source hash", async () => {
    const proposal = buildProposal(
      await inputFor({ "tests/test_counter.py": MACHINE }, "003"),
      { layout: "003" },
    );
    const registry = readPropertyRegistry(proposal.files[0]!.text, {
      path: "invariants.toml",
    });
    assert.deepEqual(
      registry.properties.map((p) => [p.module, p.function]),
      [["tests.test_counter", "TestCounter"]],
    );
  });
  await t.step(
    "a machine pytest never runs is named in the header",
    async () => {
      const proposal = buildProposal(
        await inputFor({
          "tests/test_counter.py": MACHINE.replace(
            "TestCounter = Counter.TestCase\n",
            "",
          ),
        }, "000"),
      );
      assert.equal(proposal.summary.properties, 0);
      assert.match(
        proposal.files[0]!.text,
        /state machine "Counter" \(line 4\) is left out: pytest never runs it/,
      );
    },
  );
  await t.step("a machine that cannot fail is left out", async () => {
    const proposal = buildProposal(
      await inputFor({
        "tests/test_counter.py": MACHINE.replace(
          "assert self.n >= 0",
          "self.n",
        ),
      }, "000"),
    );
    assert.equal(proposal.summary.properties, 0);
    assert.match(
      proposal.files[0]!.text,
      /"TestCounter" is left out: it cannot fail/,
    );
  });
});

Deno.test("buildProposal() follows a profile chosen by a variable of [environment] env", async () => {
  const files = {
    "tests/test_calc.py": TEST,
    "tests/conftest.py": lines(
      "import os",
      "from hypothesis import settings",
      'settings.register_profile("dev", max_examples=10)',
      'settings.register_profile("ci", max_examples=500)',
      'settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "dev"))',
    ),
  };
  const unset = await proposed(files);
  assert.equal(unset.counts["test_plain"], 10);
  const set = await proposed(files, { HYPOTHESIS_PROFILE: "ci" });
  assert.equal(set.counts["test_plain"], 500);
  assert.equal(set.counts["test_written"], 7);
  assert.match(
    set.text,
    /\$HYPOTHESIS_PROFILE is "ci" in the base's \[environment\] env/,
  );
});
