/**
 * A test command that sets its own environment, as real projects write it
 * (`env PYTHONPATH=src python3 -m pytest`), judged end to end with real
 * pytest: the command replaces the PYTHONPATH pawl puts its observer
 * plugin on, and the plugin still loads through the user site pawl also
 * puts it in. Where nothing can lead the interpreter to it (an isolated
 * interpreter, a cleared environment, a virtualenv that reads no user
 * site), the base's command is at fault: exit 2 naming the setting to use.
 * A pull request that keeps the plugin out by its own change is rejected.
 */
import assert from "node:assert/strict";
import { blocking, check, explain, rules } from "./_cli.ts";
import { buildRepo } from "./_repo.ts";
import { BASE, HEADS } from "./_src_layout_project.ts";

/** The base's pawl.toml with `command` as `[tests] command`, and no `pythonpath`. */
function settings(command: readonly string[], extra = ""): string {
  return `[tests]\ncommand = ${
    JSON.stringify(command)
  }\n\n[environment.env]\nCHUNKING_UNDER_TEST = "checkout"\n${extra}`;
}

const ENV_COMMAND = [
  "env",
  "PYTHONPATH=src",
  "python3",
  "-m",
  "pytest",
  "-q",
  "-p",
  "no:cacheprovider",
];

/** A start-up module in `src/` (on the command's PYTHONPATH) that drops pawl's paths from sys.path. */
const STRIP_OBSERVER = `import sys

sys.path[:] = [p for p in sys.path if "/observer-" not in p]
`;

Deno.test("a test command that sets PYTHONPATH itself judges the pull request, not pawl's plugin", async (t) => {
  await using repo = await buildRepo({
    base: { ...BASE, "pawl.toml": settings(ENV_COMMAND) },
    heads: {
      ...HEADS,
      "strip/observer": {
        ...HEADS["fix/stream"],
        "src/sitecustomize.py": STRIP_OBSERVER,
      },
    },
  });

  for (
    const isolation of [[], ["--isolation", "uid"], ["--isolation", "none"]]
  ) {
    await t.step(
      `the honest fix is accepted (${isolation[1] ?? "auto"})`,
      async () => {
        const result = await check(repo.dir, "fix/stream", {
          extra: isolation,
        });
        assert.equal(result.code, 0, explain(result));
        assert.equal(result.verdict?.decision, "accept");
        assert.deepEqual(result.verdict?.tests?.summary, {
          total: 3,
          passed: 3,
          failed: 0,
          errors: 0,
          skipped: 0,
          xfailed: 0,
        });
        assert.deepEqual(
          result.verdict?.tests?.properties.map((p) => [p.id, p.outcome]),
          [["chunked_matches_partition_all", "passed"]],
        );
      },
    );
  }

  await t.step("the bug is rejected for its failing test", async () => {
    const result = await check(repo.dir, "bug/loses-tail");
    assert.equal(result.code, 1, explain(result));
    const found = blocking(result.verdict);
    assert.deepEqual(
      found.filter((f) => f.rule === "tests.failed")
        .map((f) => f.message.match(/::(test_\w+)/)?.[1]),
      ["test_chunked_matches_partition_all"],
      explain(result),
    );
    for (const rule of ["tests.no_report", "harness.observer_missing"]) {
      assert.ok(!rules(found).includes(rule), explain(result));
    }
    assert.equal(result.verdict?.tests?.summary["passed"], 2);
  });

  await t.step(
    "a pull request that keeps the plugin out itself is rejected for it",
    async () => {
      // The start-up module is caught from its source; with the pull
      // request rejected by that, nothing is repeated at the base.
      const result = await check(repo.dir, "strip/observer");
      assert.equal(result.code, 1, explain(result));
      assert.ok(
        rules(blocking(result.verdict)).includes("harness.startup_changed"),
        explain(result),
      );
    },
  );
});

Deno.test("a test command that keeps pawl's plugin out is exit 2 naming [environment] pythonpath", async (t) => {
  const cases = [
    {
      name: "an isolated interpreter",
      command: ["python3", "-I", "-m", "pytest", "-q"],
      cause: '"-I" isolates the interpreter from PYTHONPATH and the user site',
    },
    {
      name: "a cleared environment",
      command: ["env", "-i", "PYTHONPATH=src", "python3", "-m", "pytest"],
      cause: '"env -i" clears the environment pawl gives the run',
    },
  ];
  for (const c of cases) {
    await t.step(c.name, async () => {
      await using repo = await buildRepo({
        base: { ...BASE, "pawl.toml": settings(c.command) },
        heads: { "fix/stream": HEADS["fix/stream"]! },
      });
      const result = await check(repo.dir, "fix/stream");
      assert.equal(result.code, 2, explain(result));
      assert.equal(result.verdict?.decision, "undecided" as never);
      const base = await repo.commit("main");
      for (
        const part of [
          `pawl's observer plugin does not load under the base's test command at the base commit ${base} either`,
          c.cause,
          "[environment] pythonpath",
          `Error importing plugin "_pawl_observer_…"`,
        ]
      ) {
        assert.ok(result.stderr.includes(part), `${part}\n${explain(result)}`);
      }
    });
  }

  await t.step(
    "a virtualenv that reads no user site, under a PYTHONPATH of the command's",
    async () => {
      // Debian's packages reach the virtualenv through a .pth of its own,
      // as an install would, but it reads no user site.
      const setup = `
[environment.setup]
command = ["sh", "-c", "python3 -m venv --without-pip \\"$PAWL_ENV_DIR\\" && for d in \\"$PAWL_ENV_DIR\\"/lib/python3*/site-packages; do echo /usr/lib/python3/dist-packages > \\"$d/debian.pth\\"; done"]
`;
      await using repo = await buildRepo({
        base: { ...BASE, "pawl.toml": settings(ENV_COMMAND, setup) },
        heads: { "fix/stream": HEADS["fix/stream"]! },
      });
      const cache = await Deno.makeTempDir({ prefix: "pawl-e2e-env-cache-" });
      try {
        await Deno.chmod(cache, 0o755);
        const result = await check(repo.dir, "fix/stream", {
          extra: ["--setup-cache", cache],
        });
        assert.equal(result.code, 2, explain(result));
        for (
          const part of [
            '"PYTHONPATH=src" replaces the PYTHONPATH pawl puts the plugin on',
            '[environment] pythonpath = ["src"]',
          ]
        ) {
          assert.ok(
            result.stderr.includes(part),
            `${part}\n${explain(result)}`,
          );
        }
        // What the message asks for works in the same virtualenv.
        await using fixed = await buildRepo({
          base: {
            ...BASE,
            "pawl.toml": settings(
              ["python3", "-m", "pytest", "-q", "-p", "no:cacheprovider"],
              `${setup}\n[environment]\npythonpath = ["src"]\n`,
            ),
          },
          heads: { "fix/stream": HEADS["fix/stream"]! },
        });
        const accepted = await check(fixed.dir, "fix/stream", {
          extra: ["--setup-cache", cache],
        });
        assert.equal(accepted.code, 0, explain(accepted));
      } finally {
        await Deno.remove(cache, { recursive: true });
      }
    },
  );
});
