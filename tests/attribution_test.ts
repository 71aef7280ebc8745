/**
 * Attribution by difference, end to end with real sandboxed pytest runs: a
 * failure found at the head is the pull request's only if the base, run
 * the same way, does not fail the same way; pawl's own scheduling (the
 * properties' runs beside the suite at background priority) never makes a
 * reject; and each failed property says why it failed. The same decisions
 * hold with two CPU-bound processes running beside pawl.
 */
import assert from "node:assert/strict";
import { sampleBaseFiles } from "../src/demo/build_sample_repo.ts";
import { blocking, check, explain, rules } from "./_cli.ts";
import { buildRepo, replaceOnce } from "./_repo.ts";

const README = { "README.md": "# invoices\n\nA note for reviewers.\n" };

/** A NUL byte raises a plain ValueError, not ParseError: the round-trip property fails. */
function brokenRoundTrip(parser: string): string {
  return replaceOnce(
    parser,
    "    if not blob:\n",
    '    if b"\\0" in blob:\n        raise ValueError("a NUL byte")\n    if not blob:\n',
  );
}

/** `total_cents` forgets the last invoice: the fixture test fails. */
function brokenTotal(parser: string): string {
  return replaceOnce(
    parser,
    "return sum(inv.cents for inv in invoices)",
    "return sum(inv.cents for inv in list(invoices)[:-1])",
  );
}

/**
 * The round-trip property fails whenever it runs at background priority,
 * as a health check trips only on a busy core: pawl runs the properties
 * on their own at background priority beside the suite.
 */
const NICE_SENSITIVE_CODEC = `import os

from hypothesis import given, settings, strategies as st
from hypothesis.errors import FailedHealthCheck

from payments.parser import ParseError, parse_invoice


@settings(max_examples=80, deadline=None)
@given(st.binary(min_size=1, max_size=64))
def test_decode_encode_identity(blob: bytes) -> None:
    if os.nice(0) > 0:
        raise FailedHealthCheck(
            "Data generation is extremely slow: add HealthCheck.too_slow to the suppress_health_check settings for this test"
        )
    try:
        obj = parse_invoice(blob)
    except ParseError:
        return
    assert parse_invoice(obj.to_bytes()) == obj
`;

/** Start `n` CPU-bound processes; the result stops them. */
function busyLoops(n: number): AsyncDisposable {
  const children = Array.from(
    { length: n },
    () =>
      new Deno.Command("/usr/bin/python3", {
        args: ["-c", "while True: pass"],
        stdin: "null",
        stdout: "null",
        stderr: "null",
      }).spawn(),
  );
  return {
    async [Symbol.asyncDispose]() {
      for (const child of children) child.kill("SIGKILL");
      await Promise.all(children.map((c) => c.status));
    },
  };
}

for (const load of ["a quiet machine", "a machine with two busy cores"]) {
  Deno.test(`on ${load}, a failure the base shares is never the pull request's`, async (t) => {
    const quiet = load === "a quiet machine";
    await using _busy = quiet
      ? { [Symbol.asyncDispose]: () => Promise.resolve() }
      : busyLoops(2);
    const base = sampleBaseFiles();
    const parser = base["payments/parser.py"] as string;

    await t.step(
      "a base whose conftest fails to import: exit 2 naming the base, for an honest pull request and for the base itself",
      async () => {
        await using repo = await buildRepo({
          base: {
            ...base,
            "tests/conftest.py": "import no_such_module_here\n",
          },
          heads: { "agent/readme": README },
        });
        const baseCommit = await repo.commit("main");
        for (const head of ["agent/readme", "main"]) {
          const result = await check(repo.dir, head);
          assert.equal(result.code, 2, explain(result));
          assert.match(result.stderr, new RegExp(`base commit ${baseCommit}`));
          assert.match(result.stderr, /no usable report either/);
          assert.match(result.stderr, /No module named 'no_such_module_here'/);
        }
      },
    );

    // Beside busy cores: the decisions a run's timing could sway (runs
    // without a report, failures repeated at the base, pawl's own
    // scheduling); the rest reads sources and exit codes only.
    if (quiet) {
      await t.step(
        "a test file the base already fails to collect: exit 2 when the pull request's edit fails the same way, a reject when it fails its own way",
        async () => {
          const old =
            "import no_such_dependency_here\n\n\ndef test_old():\n    assert True\n";
          await using repo = await buildRepo({
            base: { ...base, "tests/test_old.py": old },
            heads: {
              "agent/touches-it": {
                "tests/test_old.py": `# a comment\n${old}`,
              },
              "agent/breaks-it": {
                "tests/test_old.py": "def test_old(:\n    assert True\n",
              },
            },
          });
          const same = await check(repo.dir, "agent/touches-it");
          assert.equal(same.code, 2, explain(same));
          assert.match(
            same.stderr,
            /"tests\/test_old\.py" already fails to collect/,
          );
          const own = await check(repo.dir, "agent/breaks-it");
          assert.equal(own.code, 1, explain(own));
          assert.ok(
            rules(blocking(own.verdict)).includes("tests.collection_error"),
            explain(own),
          );
        },
      );
    }

    if (quiet) {
      await t.step(
        "a base whose test command loads a plugin that does not exist: exit 2, not a reject",
        async () => {
          await using repo = await buildRepo({
            base: {
              ...base,
              "pawl.toml":
                '[tests]\ncommand = ["python3", "-m", "pytest", "-q", "-p", "no_such_plugin_here"]\n',
            },
            heads: { "agent/readme": README },
          });
          const result = await check(repo.dir, "agent/readme");
          assert.equal(result.code, 2, explain(result));
          assert.match(result.stderr, /no_such_plugin_here/);
        },
      );
    }

    await t.step(
      "a property the base already fails the same way: exit 2 for an honest pull request",
      async () => {
        await using repo = await buildRepo({
          base: { ...base, "payments/parser.py": brokenRoundTrip(parser) },
          heads: {
            "agent/readme": README,
            // A new test file: the base's oracle runs on the head's code too.
            "agent/adds-a-test": {
              "tests/test_more.py": "def test_more():\n    assert True\n",
            },
            "agent/breaks-total": {
              "payments/parser.py": brokenTotal(brokenRoundTrip(parser)),
            },
          },
        });
        for (const head of ["agent/readme", "agent/adds-a-test"]) {
          const honest = await check(repo.dir, head);
          assert.equal(honest.code, 2, explain(honest));
          assert.match(honest.stderr, /test_decode_encode_identity/);
          // A registered property may not be excused, only fixed.
          assert.doesNotMatch(honest.stderr, /excuses/);
          assert.match(
            honest.stderr,
            new RegExp(`base commit ${await repo.commit("main")}`),
          );
        }
        // A pull request that breaks something of its own is still rejected,
        // and the property the base breaks is a note.
        const own = await check(repo.dir, "agent/breaks-total");
        assert.equal(own.code, 1, explain(own));
        assert.deepEqual(rules(blocking(own.verdict)), ["tests.failed"]);
        assert.ok(
          own.verdict?.findings.some((f) =>
            f.rule === "property.failed_at_base" && !f.blocking &&
            f.message.includes("with ValueError")
          ),
          explain(own),
        );
      },
    );

    await t.step(
      "a property the pull request breaks is rejected, with the exception and the traceback's tail",
      async () => {
        await using repo = await buildRepo({
          heads: {
            "agent/breaks-roundtrip": {
              "payments/parser.py": brokenRoundTrip(parser),
            },
          },
        });
        const result = await check(repo.dir, "agent/breaks-roundtrip");
        assert.equal(result.code, 1, explain(result));
        const property = result.verdict?.findings.find((f) =>
          f.rule === "property.not_passed" &&
          f.message.includes("roundtrip_stable")
        );
        assert.ok(property, explain(result));
        assert.match(
          property.message,
          /it failed with ValueError: .*a NUL byte/,
        );
      },
    );

    await t.step(
      "a property that fails only in pawl's background run is run again alone at normal priority: accept",
      async () => {
        await using repo = await buildRepo({
          base: {
            ...base,
            "tests/properties/test_codec.py": NICE_SENSITIVE_CODEC,
          },
          heads: { "agent/readme": README },
        });
        const result = await check(repo.dir, "agent/readme");
        assert.equal(result.code, 0, explain(result));
        assert.equal(result.verdict?.decision, "accept");
      },
    );
  });
}
