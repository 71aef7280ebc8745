/**
 * `pawl propose` on a project whose only property tests are a state
 * machine and whose example count comes from a Hypothesis profile in its
 * conftest.py, above Hypothesis' default: the proposal lists the machine
 * with the count that really runs (checked against Hypothesis' own
 * statistics), a human commits it, and `pawl check` (whose min_examples
 * rule reads the same profile) judges pull requests against it.
 */
import assert from "node:assert/strict";
import {
  blocking,
  check,
  explain,
  pawl,
  type PawlResult,
  rules,
} from "./_cli.ts";
import { runPytestDirectly } from "./_layouts.ts";
import { buildRepo, replaceOnce } from "./_repo.ts";
import { BUGGY_STACK, LINKED_STACK, MACHINE, STACK } from "./_stateful.ts";

const CONFTEST = `import os

from hypothesis import settings

settings.register_profile("ci", max_examples=150, deadline=None)
settings.register_profile("dev", max_examples=10)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))
`;

/** The machine without settings of its own: the loaded profile decides. */
const PROFILED_MACHINE = replaceOnce(
  MACHINE,
  /StackMachine\.TestCase\.settings = [^\n]*\n/,
  "",
);

const FILES: Record<string, string> = {
  "shop/__init__.py": "",
  "shop/stack.py": STACK,
  "tests/__init__.py": "",
  "tests/conftest.py": CONFTEST,
  "tests/test_stack.py": PROFILED_MACHINE,
};

function propose(args: readonly string[]): Promise<PawlResult> {
  return pawl(["propose", ...args], { out: false });
}

Deno.test("pawl propose reads the project's profile and lists its state machine", async (t) => {
  let proposal = "";
  await t.step(
    "the proposal lists the TestCase with the profile's count",
    async () => {
      await using repo = await buildRepo({ base: FILES });
      const result = await propose(["--repo", repo.dir]);
      assert.equal(result.code, 0, explain(result));
      proposal = result.stdout;
      assert.match(proposal, /name: "TestStack"\n {4}min_examples: 150\n/);
      assert.match(
        proposal,
        /runs 150 examples: profile "ci" loaded in "tests\/conftest\.py" line 7 \(\$HYPOTHESIS_PROFILE is unset in pawl's sandbox, so its default applies\)/,
      );
      assert.doesNotMatch(proposal, /could not resolve/);
    },
  );

  await t.step("Hypothesis really runs that many examples", async () => {
    const dir = await Deno.makeTempDir({ prefix: "pawl-e2e-stats-" });
    try {
      for (const [path, text] of Object.entries(FILES)) {
        await Deno.mkdir(`${dir}/${path.slice(0, path.lastIndexOf("/"))}`, {
          recursive: true,
        });
        await Deno.writeTextFile(`${dir}/${path}`, text);
      }
      const run = await runPytestDirectly(dir, [
        "--hypothesis-show-statistics",
      ], {});
      assert.equal(run.code, 0, run.output);
      assert.match(run.output, /- 150 passing examples,/);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  });

  await t.step(
    "pawl check judges pull requests against the committed proposal",
    async () => {
      await using repo = await buildRepo({
        base: { ...FILES, "tests/agent_contract.yaml": proposal },
        heads: {
          honest: { "shop/stack.py": LINKED_STACK },
          "weak/profile": {
            "shop/stack.py": BUGGY_STACK,
            "tests/conftest.py": replaceOnce(
              CONFTEST,
              '"HYPOTHESIS_PROFILE", "ci"',
              '"HYPOTHESIS_PROFILE", "dev"',
            ),
          },
        },
      });
      const honest = await check(repo.dir, "honest");
      assert.equal(honest.code, 0, explain(honest));
      assert.deepEqual(honest.verdict?.tests?.properties, [{
        layout: "000",
        id: "tests.test_stack.TestStack",
        outcome: "passed",
      }]);
      const weak = await check(repo.dir, "weak/profile");
      assert.equal(weak.code, 1, explain(weak));
      assert.ok(
        rules(blocking(weak.verdict)).includes("harness.conftest_changed"),
        explain(weak),
      );
    },
  );

  await t.step(
    "a profile chosen by the base's [environment] env is the one propose and check count",
    async () => {
      await using repo = await buildRepo({
        base: {
          ...FILES,
          // Unset, the variable would choose "dev" (10 examples, fewer
          // than the contract's 150): only the base's env makes it "ci".
          "tests/conftest.py": replaceOnce(
            CONFTEST,
            '"HYPOTHESIS_PROFILE", "ci"',
            '"HYPOTHESIS_PROFILE", "dev"',
          ),
          "pawl.toml": '[environment.env]\nHYPOTHESIS_PROFILE = "ci"\n',
          "tests/agent_contract.yaml": proposal,
        },
        heads: { honest: { "shop/stack.py": LINKED_STACK } },
      });
      const result = await propose(["--repo", repo.dir, "--rev", "main"]);
      assert.equal(result.code, 0, explain(result));
      assert.match(
        result.stdout,
        /name: "TestStack"\n {4}min_examples: 150\n/,
      );
      assert.match(
        result.stdout,
        /runs 150 examples: profile "ci" loaded in "tests\/conftest\.py" line 7 \(\$HYPOTHESIS_PROFILE is "ci" in the base's \[environment\] env\)/,
      );
      const judged = await check(repo.dir, "honest");
      assert.equal(judged.code, 0, explain(judged));
      assert.deepEqual(blocking(judged.verdict), [], explain(judged));
      assert.deepEqual(judged.verdict?.tests?.properties, [{
        layout: "000",
        id: "tests.test_stack.TestStack",
        outcome: "passed",
      }]);
    },
  );

  await t.step(
    "a profile chosen by an environment variable without a default is named as unresolved",
    async () => {
      await using repo = await buildRepo({
        base: {
          ...FILES,
          "tests/conftest.py": replaceOnce(
            CONFTEST,
            'os.environ.get("HYPOTHESIS_PROFILE", "ci")',
            'os.environ["HYPOTHESIS_PROFILE"]',
          ),
        },
      });
      const result = await pawl(["propose", "--repo", repo.dir], {
        out: false,
      });
      assert.equal(result.code, 0, explain(result));
      assert.match(
        result.stderr,
        /1 example count pawl could not resolve, listed in the header/,
      );
      assert.match(
        result.stdout,
        /# Example counts pawl could not resolve:\n# - "tests\/test_stack\.py" test "TestStack": "tests\/conftest\.py" line 7 loads a profile named by an environment variable without a default/,
      );
    },
  );
});
