import assert from "node:assert/strict";
import { LocalSandbox } from "./_local_sandbox.ts";
import { installObserver, writeChangedLines } from "./observer.ts";
import { runPytest } from "./run_pytest.ts";

const BILLING = `"""Invoices."""
from __future__ import annotations

import threading


def invoice_total(customer_id, amounts):
    """The sum less the discount.

    Two lines of docstring.
    """
    total = sum(amounts)
    # Only the customer the tests use.
    if customer_id == "C-1":
        return total

    doubled = total * 2
    return doubled


def in_thread():
    out = []
    worker = threading.Thread(target=lambda: out.append(threaded()))
    worker.start()
    worker.join()
    return out[0]


def threaded():
    return 7


def raises():
    raise ValueError("from line 34")


def logged(function):
    return function


@logged
def decorated():
    return 1


RATES = [
    # the base rate
    1,
]


def kind(value):
    match value:
        case int():
            return "int"
        case _:
            return "other"
`;

const TESTS = `import importlib.util
import os
import sys
import traceback

from shop.billing import in_thread, invoice_total, kind, raises


def test_special_customer():
    assert invoice_total("C-1", [1, 2]) == 3


def test_thread():
    assert in_thread() == 7


def test_traceback_lines():
    try:
        raises()
    except ValueError as error:
        assert traceback.extract_tb(error.__traceback__)[-1].lineno == 34


def test_loaded_by_path():
    path = os.path.join(os.path.dirname(__file__), "..", "src", "tool.py")
    spec = importlib.util.spec_from_file_location("tool", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.answer() == 42


def test_settrace_removed():
    sys.settrace(None)


def test_kind():
    assert kind("x") == "other"
`;

const TOOL = `def answer():
    return 42


def unused():
    return 0
`;

async function project(files: Record<string, string>) {
  const root = await Deno.makeTempDir({ prefix: "pawl-lines-" });
  const work = `${root}/work`;
  const reports = `${root}/reports`;
  for (const [path, text] of Object.entries(files)) {
    const dir = `${work}/${path}`.slice(0, `${work}/${path}`.lastIndexOf("/"));
    await Deno.mkdir(dir, { recursive: true });
    await Deno.writeTextFile(`${work}/${path}`, text);
  }
  await Deno.mkdir(reports);
  const plugin = await installObserver(root);
  return { root, work, reports, plugin };
}

const FILES = {
  "pyproject.toml": '[tool.pytest.ini_options]\npythonpath = ["src"]\n',
  "src/shop/__init__.py": "",
  "src/shop/billing.py": BILLING,
  "src/tool.py": TOOL,
  "tests/__init__.py": "",
  "tests/test_billing.py": TESTS,
};

/** Every line of both files, as a pull request that added them would change them. */
const CHANGED = new Map([
  [
    "src/shop/billing.py",
    BILLING.split("\n").slice(0, -1).map((_, i) => i + 1),
  ],
  ["src/tool.py", [1, 2, 3, 4, 5, 6]],
]);

async function tracedRun(
  files: Record<string, string>,
  options: { traceLines?: boolean; command?: string[] } = {},
) {
  const p = await project(files);
  await writeChangedLines(p.plugin, { root: p.work, files: CHANGED });
  const run = await runPytest(new LocalSandbox(), {
    workDir: p.work,
    reportDir: p.reports,
    command: options.command ??
      ["python3", "-m", "pytest", "-q", "-p", "no:cacheprovider"],
    observer: p.plugin,
    traceLines: options.traceLines ?? true,
  });
  return { p, run };
}

Deno.test("the observer reports which changed lines of the code under test the suite ran", async () => {
  const { p, run } = await tracedRun(FILES);
  try {
    assert.deepEqual(
      run.cases?.map((c) => [c.name, c.outcome]),
      [
        ["test_special_customer", "passed"],
        ["test_thread", "passed"],
        ["test_traceback_lines", "passed"],
        ["test_loaded_by_path", "passed"],
        ["test_settrace_removed", "passed"],
        ["test_kind", "passed"],
      ],
    );
    const lines = run.observation?.lines;
    assert.ok(lines !== undefined, JSON.stringify(run.observation?.problems));
    // Removing a trace function changes nothing: no tracer is used.
    assert.equal(lines.removed, false);
    const billing = lines.files.get("src/shop/billing.py");
    // No blank line, comment or docstring; headers and statements only,
    // a decorator's line with its function's header, a case's pattern
    // apart from its match.
    assert.deepEqual(
      billing?.executable,
      [
        ...[2, 4, 7, 12, 14, 15, 17, 18, 21, 22, 23, 24, 25, 26, 29, 30],
        ...[33, 34, 37, 38, 41, 42, 43, 46, 48, 49, 52, 53, 54, 55, 56, 57],
      ],
    );
    const missed = billing?.executable.filter((l) =>
      !billing.executed.includes(l)
    );
    // Only the paths the tests never take: a case not taken did not run.
    assert.deepEqual(missed, [17, 18, 43, 54, 55]);
    assert.deepEqual(lines.files.get("src/tool.py"), {
      executable: [1, 2, 5, 6],
      executed: [1, 2, 5],
    });
  } finally {
    await Deno.remove(p.root, { recursive: true });
  }
});

Deno.test("the observer calls the lines unknown when code under test replaces the source loader", async () => {
  const { p, run } = await tracedRun({
    ...FILES,
    "src/shop/__init__.py":
      `from importlib._bootstrap_external import SourceLoader
from importlib.machinery import SourceFileLoader

SourceFileLoader.get_code = SourceLoader.get_code
`,
  });
  try {
    assert.equal(
      run.observation?.lines?.removed,
      true,
      JSON.stringify([run.observation?.problems, run.result.outputTail]),
    );
  } finally {
    await Deno.remove(p.root, { recursive: true });
  }
});

Deno.test("the observer calls a changed file another loader loaded unknown", async () => {
  const { p, run } = await tracedRun({
    ...FILES,
    "conftest.py":
      'import pytest\n\npytest.register_assert_rewrite("shop.billing")\n',
  });
  try {
    const lines = run.observation?.lines;
    assert.equal(lines?.removed, false);
    assert.equal(lines?.files.get("src/shop/billing.py")?.unprobed, true);
    assert.equal(lines?.files.get("src/tool.py")?.unprobed, undefined);
  } finally {
    await Deno.remove(p.root, { recursive: true });
  }
});

Deno.test("only a run asked to trace the changed lines reports them", async () => {
  const { p, run } = await tracedRun(FILES, { traceLines: false });
  try {
    assert.equal(run.observation?.hello, true);
    assert.equal(run.observation?.lines, undefined);
  } finally {
    await Deno.remove(p.root, { recursive: true });
  }
});

Deno.test("the observer reads the changed files from the repository's root when the test command runs in a subdirectory", async () => {
  const { p, run } = await tracedRun(FILES, {
    command: ["env", "-C", "tests", "python3", "-m", "pytest", "-q"],
  });
  try {
    const tool = run.observation?.lines?.files.get("src/tool.py");
    assert.deepEqual(tool, { executable: [1, 2, 5, 6], executed: [1, 2, 5] });
  } finally {
    await Deno.remove(p.root, { recursive: true });
  }
});
