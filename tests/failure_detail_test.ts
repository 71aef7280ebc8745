/**
 * A failed property, debugged from pawl's output alone: the verdict, the
 * text report and the Markdown comment show Hypothesis' falsifying
 * example, the exception and the command that reproduces it, and that
 * command, pasted into a real checkout of the head, fails the same way,
 * while on an honest fix it passes.
 */
import assert from "node:assert/strict";
import type { FailureDetail } from "../src/core/finding.ts";
import { check, explain, type FindingJson } from "./_cli.ts";
import { PYTHON } from "./_layouts.ts";
import { buildRepo, edit } from "./_repo.ts";

const PARSER = "payments/parser.py";
const PROPERTY_NODE = "tests/properties/test_parse.py::test_empty_input_raises";

/** Run `command` with `sh` in a checkout of `branch`, as a developer would paste it. */
async function inCheckout(
  repoDir: string,
  branch: string,
  command: string,
): Promise<{ code: number; output: string }> {
  const dir = await Deno.makeTempDir({ prefix: "pawl-checkout-" });
  try {
    const clone = await new Deno.Command("git", {
      args: ["clone", "-q", "--branch", branch, repoDir, dir],
      stdout: "null",
      stderr: "piped",
    }).output();
    assert.equal(clone.code, 0, new TextDecoder().decode(clone.stderr));
    const out = await new Deno.Command("/bin/sh", {
      args: ["-c", command],
      cwd: dir,
      clearEnv: true,
      // The Debian interpreter pawl's own runs use, found as "python3".
      env: { PATH: `${PYTHON.slice(0, PYTHON.lastIndexOf("/"))}:/bin` },
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).output();
    const decoder = new TextDecoder();
    return {
      code: out.code,
      output: decoder.decode(out.stdout) + decoder.decode(out.stderr),
    };
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("a failed property shows its falsifying example and a command that reproduces it in a checkout", async (t) => {
  await using repo = await buildRepo({
    heads: {
      // Empty input no longer raises: the property's only example fails.
      "broken": {
        [PARSER]: edit(
          'raise ParseError("empty input")',
          'return Invoice("", 0)',
        ),
      },
      // The same change made honestly: empty input still raises.
      "fixed": {
        [PARSER]: edit(
          'raise ParseError("empty input")',
          'raise ParseError("nothing to parse")',
        ),
      },
    },
  });
  const markdown = await Deno.makeTempFile({ suffix: ".md" });
  try {
    const result = await check(repo.dir, "broken", {
      quiet: false,
      extra: ["--markdown", markdown],
    });
    const why = explain(result);
    assert.equal(result.code, 1, why);
    const found = result.verdict!.findings.find((f) =>
      f.rule === "property.not_passed"
    ) as (FindingJson & { failure?: FailureDetail }) | undefined;
    const failure = found?.failure;

    await t.step("the verdict JSON carries the failure", () => {
      assert.equal(failure?.test, PROPERTY_NODE, why);
      assert.equal(
        failure?.example,
        "test_empty_input_raises(\n    blob=b'',\n)",
        why,
      );
      assert.match(
        failure?.exception ?? "",
        /^Failed: DID NOT RAISE <class 'payments\.parser\.ParseError'>/,
        why,
      );
      assert.ok((failure?.traceback?.length ?? 0) > 0, why);
      const seed = result.verdict!.tests!.seeds.fresh;
      assert.match(
        failure?.reproduce ?? "",
        new RegExp(
          `^CONTRACT_SEED=${seed} PYTHONHASHSEED=0 python3 -m pytest -q -p no:cacheprovider --hypothesis-seed=${seed} '${PROPERTY_NODE}'$`,
        ),
        why,
      );
      // The message stays one finding's sentence; the detail is beside it.
      assert.match(found?.message ?? "", /did not pass on seed \d+/, why);
    });

    await t.step("the text report shows it under the finding", () => {
      assert.ok(
        result.stdout.includes(
          "      falsifying example:\n      | test_empty_input_raises(\n      |     blob=b'',\n      | )\n",
        ),
        result.stdout,
      );
      assert.ok(
        result.stdout.includes(`      reproduce: ${failure?.reproduce}\n`),
        result.stdout,
      );
    });

    await t.step(
      "the Markdown comment shows it in a collapsible block",
      async () => {
        const md = await Deno.readTextFile(markdown);
        assert.ok(md.includes("<details>\n<summary>❌ <code>"), md);
        assert.ok(
          md.includes(
            "Falsifying example:\n\n```text\ntest_empty_input_raises(\n    blob=b'',\n)\n```",
          ),
          md,
        );
        assert.ok(md.includes(`\`\`\`sh\n${failure?.reproduce}\n\`\`\``), md);
      },
    );

    await t.step(
      "the command fails the same way in a checkout of the head",
      async () => {
        const run = await inCheckout(repo.dir, "broken", failure!.reproduce);
        assert.equal(run.code, 1, run.output);
        assert.match(
          run.output,
          /Falsifying example: test_empty_input_raises\(/,
        );
        assert.match(run.output, /DID NOT RAISE/);
        assert.match(run.output, /1 failed/);
      },
    );

    await t.step("and passes on an honest fix", async () => {
      const run = await inCheckout(repo.dir, "fixed", failure!.reproduce);
      assert.equal(run.code, 0, run.output);
      assert.match(run.output, /1 passed/);
    });
  } finally {
    await Deno.remove(markdown);
  }
});

Deno.test("a base test that fails on the head's code shows a command that reproduces it in a checkout of the head", async (t) => {
  await using repo = await buildRepo({
    heads: {
      // The code breaks the property and the head's test no longer checks it.
      "cheat": {
        [PARSER]: edit(
          'raise ParseError("empty input")',
          'return Invoice("", 0)',
        ),
        "tests/properties/test_parse.py": edit(
          "    with pytest.raises(ParseError):\n        parse_invoice(blob)",
          "    parse_invoice(blob)",
        ),
      },
      "fixed": {
        [PARSER]: edit(
          'raise ParseError("empty input")',
          'raise ParseError("nothing to parse")',
        ),
      },
    },
  });
  const result = await check(repo.dir, "cheat");
  const why = explain(result);
  assert.equal(result.code, 1, why);
  const oracle = result.verdict!.findings.find((f) =>
    f.rule === "property.oracle_failed"
  ) as (FindingJson & { failure?: FailureDetail }) | undefined;
  const failure = oracle?.failure;

  await t.step("the finding carries the base test's failure", () => {
    assert.equal(failure?.test, PROPERTY_NODE, why);
    assert.equal(
      failure?.example,
      "test_empty_input_raises(\n    blob=b'',\n)",
      why,
    );
    assert.ok(
      failure?.reproduce.startsWith(
        `git checkout ${
          result.verdict!.base
        } -- tests/properties/test_parse.py && CONTRACT_SEED=`,
      ),
      why,
    );
  });

  await t.step(
    "the command fails the same way in a checkout of the head",
    async () => {
      const run = await inCheckout(repo.dir, "cheat", failure!.reproduce);
      assert.equal(run.code, 1, run.output);
      assert.match(run.output, /DID NOT RAISE/);
      assert.match(run.output, /Falsifying example: test_empty_input_raises\(/);
    },
  );

  await t.step("and passes on an honest fix", async () => {
    const run = await inCheckout(repo.dir, "fixed", failure!.reproduce);
    assert.equal(run.code, 0, run.output);
    assert.match(run.output, /1 passed/);
  });
});
