/**
 * The base's `[environment.setup]` step end to end: it gives the tests a
 * module, a second judgement on the same base reuses the runner's cache
 * (a head that rewrites the step's input files included), and a failing
 * step is "could not decide", naming the command and its output.
 *
 * @module
 */
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { check, explain, type PawlResult } from "./_cli.ts";
import { buildRepo, defaultBaseFiles } from "./_repo.ts";

/** Copies the vendored module the base names into the env dir, and prints the base's requirements. */
const SETUP_COMMAND =
  'cat requirements-dev.txt && mkdir -p "$PAWL_ENV_DIR/python" && cp vendor/helperlib.py "$PAWL_ENV_DIR/python/"';
const SETUP_TOML = `[environment.setup]
command = ["sh", "-c", ${JSON.stringify(SETUP_COMMAND)}]
inputs = ["requirements-dev.txt", "vendor/"]
timeout_seconds = 120
`;

const TEST_ENV = `import helperlib


def test_helper_from_the_setup_step():
    assert helperlib.VALUE == 42
`;

function sha256(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

/** A setup cache root of the test's own, removed when the test ends. */
async function cacheDir(): Promise<AsyncDisposable & { path: string }> {
  const path = await Deno.makeTempDir({ prefix: "pawl-e2e-setup-cache-" });
  await Deno.chmod(path, 0o755);
  return {
    path,
    [Symbol.asyncDispose]: () => Deno.remove(path, { recursive: true }),
  };
}

async function entries(dir: string): Promise<string[]> {
  const names: string[] = [];
  for await (const e of Deno.readDir(dir)) names.push(e.name);
  return names.sort();
}

function setupLines(result: PawlResult): string[] {
  return result.stderr.split("\n").filter((l) => /\bsetup: /.test(l));
}

Deno.test("pawl check runs the base's setup step once per base and input files, and the tests import what it wrote", async () => {
  await using repo = await buildRepo({
    base: {
      ...defaultBaseFiles(),
      "pawl.toml": SETUP_TOML,
      "requirements-dev.txt": "helperlib==1\n",
      "vendor/helperlib.py": "VALUE = 42\n",
      "tests/test_env.py": TEST_ENV,
    },
    heads: {
      docs: { "README.md": "# invoices\n\nNow with notes.\n" },
      // Puts its own copy of the installed module in front of it.
      shadow: { "helperlib.py": "VALUE = 42\n" },
      // Rewrites the step's inputs: the base's copies are still the ones used.
      poison: {
        "requirements-dev.txt": "helperlib==2\nevil==1\n",
        "vendor/helperlib.py": "VALUE = 0\n",
      },
    },
  });
  await using root = await cacheDir();
  const cache = root.path;
  const first = await check(repo.dir, "docs", {
    quiet: false,
    extra: ["--setup-cache", cache],
  });
  assert.equal(first.code, 0, explain(first));
  assert.equal(first.verdict?.decision, "accept");
  const ran = setupLines(first);
  assert.ok(
    ran.some((l) => /setup: running \["sh","-c",/.test(l)),
    ran.join("\n"),
  );
  assert.ok(
    ran.some((l) => /setup: ran in \d+\.\d s/.test(l)),
    ran.join("\n"),
  );
  assert.equal(first.verdict?.tests?.summary["failed"], 0);

  const [key] = (await entries(cache)).filter((n) => !n.endsWith(".lock"));
  assert.ok(key !== undefined && /^[0-9a-f]{64}$/.test(key));

  // The same base again, on a head that rewrites the inputs, with the
  // cache named by the environment instead of the flag.
  const second = await check(repo.dir, "poison", {
    quiet: false,
    env: { PAWL_SETUP_CACHE: cache },
  });
  assert.equal(second.code, 0, explain(second));
  const hit = setupLines(second);
  assert.deepEqual(hit.map((l) => l.replace(/^.*?setup: /, "setup: ")), [
    `setup: cached (${key.slice(0, 12)})`,
  ]);
  assert.deepEqual(await entries(cache), [key, `${key}.lock`]);
  // Both verdicts name the same setup result, made or reused.
  for (const run of [first, second]) {
    const tests = run.verdict?.tests as { setup?: unknown } | null;
    assert.deepEqual(tests?.setup, {
      key,
      command: ["sh", "-c", SETUP_COMMAND],
      network: false,
      inputs: [
        { path: "requirements-dev.txt", sha256: sha256("helperlib==1\n") },
        { path: "vendor/helperlib.py", sha256: sha256("VALUE = 42\n") },
      ],
    });
  }
  const manifest = JSON.parse(
    await Deno.readTextFile(`${cache}/${key}/pawl-setup.json`),
  );
  assert.equal(manifest.base, await repo.commit("main"));
  assert.deepEqual(
    manifest.inputs.map((i: { path: string }) => i.path),
    ["requirements-dev.txt", "vendor/helperlib.py"],
  );
  assert.equal(
    await Deno.readTextFile(`${cache}/${key}/env/python/helperlib.py`),
    "VALUE = 42\n",
  );

  // The tests would pass, but the head's helperlib.py is imported instead
  // of the one the base's step installed.
  const shadow = await check(repo.dir, "shadow", {
    extra: ["--setup-cache", cache],
  });
  assert.equal(shadow.code, 1, explain(shadow));
  assert.deepEqual(
    shadow.verdict?.findings.filter((f) => f.blocking).map((f) => [
      f.rule,
      f.path,
    ]),
    [["harness.package_shadowed", "helperlib.py"]],
  );
  assert.equal(shadow.verdict?.tests?.summary["failed"], 0);
});

Deno.test("pawl check cannot decide when the base's setup step fails, and names the command and its output", async () => {
  await using repo = await buildRepo({
    base: {
      ...defaultBaseFiles(),
      "pawl.toml": `[environment.setup]
command = ["sh", "-c", "echo 'Collecting frobnicate'; echo 'ERROR: No matching distribution found for frobnicate' >&2; exit 1"]
`,
    },
    heads: { docs: { "README.md": "# invoices\n\nNow with notes.\n" } },
  });
  await using root = await cacheDir();
  const cache = root.path;
  const result = await check(repo.dir, "docs", {
    extra: ["--setup-cache", cache],
  });
  assert.equal(result.code, 2, explain(result));
  assert.match(result.outText ?? "", /"decision": "undecided"/);
  assert.match(result.stderr, /setup command \["sh","-c",/);
  assert.match(result.stderr, /exited with code 1/);
  assert.match(
    result.stderr,
    /ERROR: No matching distribution found for frobnicate/,
  );
  assert.match(result.stderr, /the pull request is not at fault/);
  assert.ok(
    (await entries(cache)).every((n) => n.endsWith(".lock")),
    "a failed step leaves nothing to reuse",
  );
});

Deno.test("pawl check runs the tests with the python3 of a virtualenv the setup step made at $PAWL_ENV_DIR", async () => {
  await using repo = await buildRepo({
    base: {
      ...defaultBaseFiles(),
      "pawl.toml": `[environment.setup]
command = ["sh", "-c", "python3 -m venv --system-site-packages --without-pip \\"$PAWL_ENV_DIR\\""]
`,
      "tests/test_venv.py": `import os
import sys


def test_runs_in_the_setup_virtualenv():
    assert sys.prefix == os.environ["PAWL_ENV_DIR"]
    assert sys.prefix != sys.base_prefix
`,
    },
    heads: { docs: { "README.md": "# invoices\n\nNow with notes.\n" } },
  });
  await using root = await cacheDir();
  const cache = root.path;
  const result = await check(repo.dir, "docs", {
    extra: ["--setup-cache", cache],
  });
  assert.equal(result.code, 0, explain(result));
  assert.equal(result.verdict?.tests?.summary["failed"], 0);
  assert.ok((result.verdict?.tests?.summary["passed"] ?? 0) > 0);
});

Deno.test("pawl diff rejects a head that changes the base's setup step, and runs nothing", async () => {
  await using repo = await buildRepo({
    base: {
      ...defaultBaseFiles(),
      "pawl.toml": SETUP_TOML,
      "requirements-dev.txt": "helperlib==1\n",
      "vendor/helperlib.py": "VALUE = 42\n",
    },
    heads: {
      takeover: {
        "pawl.toml": SETUP_TOML.replace(
          "timeout_seconds = 120",
          "network = true\ntimeout_seconds = 120",
        ),
      },
    },
  });
  const result = await check(repo.dir, "takeover", { command: "diff" });
  assert.equal(result.code, 1, explain(result));
  const found = result.verdict?.findings.find((f) =>
    f.rule === "config.settings_changed"
  );
  assert.ok(found !== undefined, explain(result));
  assert.match(found.message, /"environment\.setup"/);
});

Deno.test("pawl check runs the tests with a package pip installed offline into $PAWL_ENV_DIR/python from the base's sources", async () => {
  await using repo = await buildRepo({
    base: {
      ...defaultBaseFiles(),
      "pawl.toml": `[environment.setup]
command = ["sh", "-c", "python3 -m pip install --no-index --no-build-isolation --disable-pip-version-check --target \\"$PAWL_ENV_DIR/python\\" ./vendor/helperlib"]
inputs = ["vendor/helperlib/"]
`,
      "vendor/helperlib/pyproject.toml": `[build-system]
requires = ["setuptools"]
build-backend = "setuptools.build_meta"

[project]
name = "helperlib"
version = "1.0"
`,
      "vendor/helperlib/helperlib/__init__.py": "VALUE = 42\n",
      "tests/test_env.py": `import importlib.metadata
import os

import helperlib


def test_helper_installed_by_pip():
    assert helperlib.VALUE == 42
    assert helperlib.__file__.startswith(os.environ["PAWL_ENV_DIR"])
    assert importlib.metadata.version("helperlib") == "1.0"
`,
    },
    heads: { docs: { "README.md": "# invoices\n\nNow with notes.\n" } },
  });
  await using root = await cacheDir();
  const cache = root.path;
  const result = await check(repo.dir, "docs", {
    extra: ["--setup-cache", cache],
  });
  assert.equal(result.code, 0, explain(result));
  assert.equal(result.verdict?.tests?.summary["failed"], 0);
});

Deno.test("pawl check processes racing for one setup key run the step once and both use it", async () => {
  await using repo = await buildRepo({
    base: {
      ...defaultBaseFiles(),
      // A slow step, so that the second judgement usually finds the
      // first one still running it and waits on the key's lock.
      "pawl.toml": SETUP_TOML.replace(
        '"cat requirements-dev.txt',
        '"sleep 2; cat requirements-dev.txt',
      ),
      "requirements-dev.txt": "helperlib==1\n",
      "vendor/helperlib.py": "VALUE = 42\n",
      "tests/test_env.py": TEST_ENV,
    },
    heads: {
      docs: { "README.md": "# invoices\n\nNow with notes.\n" },
      more: { "README.md": "# invoices\n\nNow with more notes.\n" },
    },
  });
  await using root = await cacheDir();
  const cache = root.path;
  const runs = await Promise.all(
    ["docs", "more"].map((head) =>
      check(repo.dir, head, {
        quiet: false,
        extra: ["--setup-cache", cache],
      })
    ),
  );
  for (const run of runs) assert.equal(run.code, 0, explain(run));
  const ran = runs.filter((r) =>
    setupLines(r).some((l) => /setup: ran in/.test(l))
  );
  const reused = runs.filter((r) =>
    setupLines(r).some((l) => /setup: cached/.test(l))
  );
  assert.equal(ran.length, 1, runs.map(explain).join("\n"));
  assert.equal(reused.length, 1, runs.map(explain).join("\n"));
  const keys = (await entries(cache)).filter((n) => !n.endsWith(".lock"));
  assert.equal(keys.length, 1);
});
