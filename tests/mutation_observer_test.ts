/**
 * Mutant runs load pawl's observer plugin like every other run. A head
 * whose test weakens a property and, to hide it, rewrites its own JUnit
 * report into a failure whenever the code under test is not the code it
 * knows (which is exactly when a mutant is applied) would otherwise have
 * every mutant counted as killed by the head and be accepted; the
 * observer's stream shows the test passed, so the rewrite is
 * `harness.report_tampered` and no fake kill counts.
 */
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { check, explain } from "./_cli.ts";
import { buildRepo, edit } from "./_repo.ts";

/** uids of this file's own CLI runs (every mutant sandbox leases from them). */
const UIDS = "64440-64459";

const CORE = "src/kit/core.py";
const TEST = "tests/test_kit.py";

const CORE_TEXT = `"""Small helpers."""


def clamp(x, lo, hi):
    """\`x\` limited to the range from \`lo\` to \`hi\`."""
    if x < lo:
        return lo
    if x > hi:
        return hi
    return x
`;

const BASE: Record<string, string> = {
  "pyproject.toml": `[tool.pytest.ini_options]
pythonpath = ["src"]
`,
  "pawl.toml": `[mutation]
enabled = true
max_mutants = 6
budget_seconds = 600
`,
  "src/kit/__init__.py": "from .core import clamp\n",
  [CORE]: CORE_TEXT,
  "tests/__init__.py": "",
  [TEST]: `from hypothesis import given, settings, strategies as st

from kit import clamp


@settings(max_examples=40)
@given(st.integers(), st.integers(), st.integers())
def test_clamp_exact(x, a, b):
    lo, hi = min(a, b), max(a, b)
    assert clamp(x, lo, hi) == min(max(x, lo), hi)
`,
  "tests/agent_contract.yaml": `version: 1
properties:
  - id: clamp_exact
    module: tests.test_kit
    name: test_clamp_exact
    min_examples: 20
`,
};

const DIGEST = createHash("sha256").update(CORE_TEXT).digest("hex");

/**
 * The weakened test, plus an exit handler that turns its report into a
 * failure when the code's bytes are not the ones it was written against.
 */
const FORGER = `import atexit
import hashlib
import re
import sys

import kit.core


def _forge():
    with open(kit.core.__file__, "rb") as f:
        if hashlib.sha256(f.read()).hexdigest() == "${DIGEST}":
            return
    for arg in sys.argv:
        if arg.startswith("--junitxml="):
            path = arg.split("=", 1)[1]
            with open(path) as f:
                text = f.read()
            text = re.sub(
                r'(<testcase [^>]*name="test_clamp_exact"[^>]*?)\\s*/>',
                r'\\1><failure message="caught">caught</failure></testcase>',
                text,
            )
            text = text.replace('failures="0"', 'failures="1"')
            with open(path, "w") as f:
                f.write(text)


atexit.register(_forge)
`;

Deno.test("a head whose test forges failures in mutant runs is rejected, never credited with the kills", async () => {
  await using repo = await buildRepo({
    base: BASE,
    heads: {
      "weak/forged": {
        [TEST]: (t) =>
          FORGER +
          edit(
            "assert clamp(x, lo, hi) == min(max(x, lo), hi)",
            "assert clamp(x, lo, hi) in (lo, x, hi)",
          )(t),
      },
    },
  });
  // A temp root of its own, so the runner's mutation cache is empty and
  // every mutant really runs under the observer.
  await using temp = await privateTempRoot();
  const result = await check(repo.dir, "weak/forged", {
    env: { PAWL_SANDBOX_UIDS: UIDS, TMPDIR: temp.path },
    quiet: false,
  });
  assert.equal(result.code, 1, explain(result));
  const tampered = (result.verdict?.findings ?? []).filter((f) =>
    f.rule === "harness.report_tampered" && f.blocking
  );
  assert.equal(tampered.length, 1, explain(result));
  assert.match(
    tampered[0]?.message ?? "",
    /^The JUnit report of the head's properties on mutant \S+ \(src\/kit\/core\.py:\d+\) does not match what pawl's observer saw/,
  );
  const tests = result.verdict?.tests as unknown as {
    properties: { id: string; outcome: string }[];
    mutation?: { ran: number; killed: number };
  };
  // The unmutated runs were not forged: the property itself passed.
  assert.deepEqual(tests.properties.map((p) => [p.id, p.outcome]), [[
    "clamp_exact",
    "passed",
  ]]);
  assert.ok((tests.mutation?.killed ?? 0) > 0, explain(result));
  // None came from the cache: the progress says how many did.
  assert.match(
    result.stderr,
    /mutation: [1-9]\d* mutants judged, 0 of them from the runner's cache/,
    explain(result),
  );
});

/** A temp dir the sandbox uid can traverse, removed after the test. */
async function privateTempRoot(): Promise<AsyncDisposable & { path: string }> {
  const path = await Deno.makeTempDir({ prefix: "pm" });
  await Deno.chmod(path, 0o755);
  return {
    path,
    [Symbol.asyncDispose]: () => Deno.remove(path, { recursive: true }),
  };
}
