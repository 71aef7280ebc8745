/**
 * Stateful Hypothesis properties — a `RuleBasedStateMachine` run through
 * its `TestCase` — registered in every layout and judged by the real CLI in
 * the real sandbox: an honest patch is accepted, and a bug hidden by
 * weakening the machine (fewer steps, a removed rule, a removed invariant)
 * is rejected.
 */
import assert from "node:assert/strict";
import { blocking, check, explain, type PawlResult, rules } from "./_cli.ts";
import { PYTHON } from "./_layouts.ts";
import { buildRepo, replaceOnce, type TestRepo } from "./_repo.ts";
import { BUGGY_STACK, LINKED_STACK, MACHINE, STACK } from "./_stateful.ts";

const CODE = "shop/stack.py";
const TEST = "tests/test_stack.py";
const NODE = `${TEST}::TestStack::runTest`;

const SHARED: Record<string, string> = {
  "shop/__init__.py": "",
  [CODE]: STACK,
  "tests/__init__.py": "",
  [TEST]: MACHINE,
};

/** The machine's class source as `ast.get_source_segment` slices it, hashed by Python. */
async function classHash(source: string, name: string): Promise<string> {
  const out = await new Deno.Command(PYTHON, {
    args: [
      "-c",
      "import ast,hashlib,sys\nsrc=sys.stdin.read()\nfor n in ast.parse(src).body:\n    if isinstance(n, ast.ClassDef) and n.name==sys.argv[1]:\n        print(hashlib.sha256(ast.get_source_segment(src,n).encode()).hexdigest())",
      name,
    ],
    stdin: "piped",
    stdout: "piped",
  }).spawn();
  const writer = out.stdin.getWriter();
  await writer.write(new TextEncoder().encode(source));
  await writer.close();
  const { stdout } = await out.output();
  return new TextDecoder().decode(stdout).trim();
}

async function layoutFiles(layout: string): Promise<Record<string, string>> {
  switch (layout) {
    case "000":
      return {
        "tests/agent_contract.yaml": `version: 1
properties:
  - id: stack_matches_model
    module: tests.test_stack
    name: TestStack
    min_examples: 60
`,
      };
    case "003":
      return {
        "invariants.toml": `[policy]
min_properties = 1
allow_agent_additions = false

[[property]]
id = "stack_matches_model"
module = "tests.test_stack"
function = "TestStack"
source_sha256 = "${await classHash(MACHINE, "StackMachine")}"
`,
        "fixtures.lock": `{
  "policy": { "allow_rotate_on_agent_pr": false },
  "files": {}
}
`,
        "freeze.yml":
          "policy:\n  max_frozen: 1\n  fail_on_expired: true\nfreezes: []\n",
      };
    default:
      return {
        "contracts.yml": `version: 1
contracts:
  - id: stack.lifo
    function: shop.stack.Stack
    test: ${NODE}
    min_trials: 60
`,
        "flake_freeze.yml": "freezes: []\n",
      };
  }
}

const WEAKENINGS: Record<string, Record<string, string>> = {
  "weak/steps": {
    [CODE]: BUGGY_STACK,
    [TEST]: replaceOnce(
      MACHINE,
      "stateful_step_count=30",
      "stateful_step_count=3",
    ),
  },
  "weak/rule": {
    [CODE]: BUGGY_STACK,
    [TEST]: replaceOnce(
      MACHINE,
      "    @precondition(lambda self: self.model)\n    @rule()\n    def pop(self):\n        assert self.stack.pop() == self.model.pop()\n\n",
      "",
    ),
  },
};

async function repoFor(layout: string): Promise<TestRepo> {
  return await buildRepo({
    base: { ...SHARED, ...(await layoutFiles(layout)) },
    heads: {
      "honest": { [CODE]: LINKED_STACK },
      ...WEAKENINGS,
    },
  });
}

const PROPERTY_ID: Record<string, string> = {
  "000": "stack_matches_model",
  "003": "stack_matches_model",
  "002": "stack.lifo",
};

/** The static rule that names each weakening, per layout. */
const STATIC_RULE: Record<string, Record<string, string>> = {
  "000": {
    "weak/steps": "property.examples_lowered",
    "weak/rule": "property.decorator_changed",
  },
  "003": {
    "weak/steps": "property.examples_lowered",
    "weak/rule": "property.decorator_changed",
  },
  "002": {
    "weak/steps": "property.settings_weakened",
    "weak/rule": "property.decorator_changed",
  },
};

function accepted(result: PawlResult): void {
  assert.equal(result.code, 0, explain(result));
  assert.equal(result.verdict?.decision, "accept", explain(result));
}

for (const layout of ["000", "003", "002"]) {
  Deno.test(`pawl check judges a stateful property in layout ${layout}`, async (t) => {
    await using repo = await repoFor(layout);
    await t.step("the honest rewrite is accepted", async () => {
      const result = await check(repo.dir, "honest");
      accepted(result);
      assert.deepEqual(result.verdict?.tests?.properties, [{
        layout,
        id: PROPERTY_ID[layout],
        outcome: "passed",
      }]);
    });
    for (const head of Object.keys(WEAKENINGS)) {
      await t.step(`${head} is rejected`, async () => {
        const result = await check(repo.dir, head);
        assert.equal(result.code, 1, explain(result));
        const found = rules(blocking(result.verdict));
        // The base's machine catches the bug on the head's code, and the
        // static rules name the weakening before any test runs.
        for (
          const rule of ["property.oracle_failed", STATIC_RULE[layout]![head]!]
        ) {
          assert.ok(
            found.includes(rule),
            `${rule} missing: ${explain(result)}`,
          );
        }
      });
    }
  });
}

/** The machine's tail, rewritten to run it another way. */
const RUN_WAYS: Record<string, { tail: string; name: string; weak: string }> = {
  "a TestCase subclass, registered by the machine's name": {
    tail: `class TestStack(StackMachine.TestCase):
    settings = settings(max_examples=60, stateful_step_count=30, deadline=None)
`,
    name: "StackMachine",
    weak:
      "    settings = settings(max_examples=60, stateful_step_count=3, deadline=None)\n",
  },
  "run_state_machine_as_test in a test function": {
    tail: `from hypothesis.stateful import run_state_machine_as_test


def test_stack():
    run_state_machine_as_test(
        StackMachine,
        settings=settings(max_examples=60, stateful_step_count=30, deadline=None),
    )
`,
    name: "test_stack",
    weak:
      "        settings=settings(max_examples=60, stateful_step_count=3, deadline=None),\n",
  },
};

const MACHINE_TAIL =
  /StackMachine\.TestCase\.settings = [^\n]*\nTestStack = StackMachine\.TestCase\n/;

for (const [way, { tail, name, weak }] of Object.entries(RUN_WAYS)) {
  Deno.test(`pawl check judges a state machine run through ${way}`, async (t) => {
    const machine = replaceOnce(MACHINE, MACHINE_TAIL, tail);
    const strong = weak.replace(
      "stateful_step_count=3",
      "stateful_step_count=30",
    );
    await using repo = await buildRepo({
      base: {
        ...SHARED,
        [TEST]: machine,
        "tests/agent_contract.yaml": `version: 1
properties:
  - id: stack_matches_model
    module: tests.test_stack
    name: ${name}
    min_examples: 60
`,
      },
      heads: {
        honest: { [CODE]: LINKED_STACK },
        "weak/steps": {
          [CODE]: BUGGY_STACK,
          [TEST]: replaceOnce(machine, strong, weak),
        },
      },
    });
    await t.step("the honest rewrite is accepted", async () => {
      const result = await check(repo.dir, "honest");
      accepted(result);
      assert.deepEqual(result.verdict?.tests?.properties, [{
        layout: "000",
        id: "stack_matches_model",
        outcome: "passed",
      }]);
    });
    await t.step("fewer steps hiding a bug are rejected", async () => {
      const result = await check(repo.dir, "weak/steps");
      assert.equal(result.code, 1, explain(result));
      const found = rules(blocking(result.verdict));
      for (
        const rule of ["property.oracle_failed", "property.examples_lowered"]
      ) {
        assert.ok(found.includes(rule), `${rule} missing: ${explain(result)}`);
      }
    });
  });
}
