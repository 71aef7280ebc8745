import assert from "node:assert/strict";
import { recordEmptyFiles, touched } from "./main.ts";

const ROOT = decodeURIComponent(new URL("../../", import.meta.url).pathname)
  .replace(/\/$/, "");

async function mutate(
  args: string[],
): Promise<{ code: number; output: string }> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-all", "tools/mutate/main.ts", ...args],
    cwd: ROOT,
    env: { NO_COLOR: "1", CI: "1" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  return {
    code: out.code,
    output: new TextDecoder().decode(out.stdout) +
      new TextDecoder().decode(out.stderr),
  };
}

Deno.test("deno task mutate runs a file's mutants against the tests that load it and reports them", async (t) => {
  const dir = await Deno.makeTempDir({ prefix: "pawl-mutate-test-" });
  try {
    await t.step(
      "a file whose tests detect every mutant that counts: exit 0, the mutant left out listed with its reason",
      async () => {
        const run = await mutate([
          "--concurrency",
          "1",
          "--out",
          dir,
          "--report",
          `${dir}/report.md`,
          "src/sign/sign_envelope.ts",
        ]);
        assert.equal(run.code, 0, run.output);
        assert.match(
          run.output,
          /100\.0% +\d+ detected +0 undetected +1 with a reason +src\/sign\/sign_envelope\.ts/,
        );
        const json = JSON.parse(
          await Deno.readTextFile(`${dir}/mutation.json`),
        );
        const mutants = json.files["src/sign/sign_envelope.ts"].mutants as {
          status: string;
          statusReason?: string;
        }[];
        assert.deepEqual(
          mutants.filter((m) =>
            m.status === "Survived" || m.status === "NoCoverage"
          ),
          [],
        );
        const report = await Deno.readTextFile(`${dir}/report.md`);
        assert.match(report, /the same\s+bytes are signed/);
        assert.match(
          report,
          /src\/sign\/sign_envelope\.ts:\d+:\d+ MethodExpression/,
        );
        assert.match(report, /\| src\/sign\/ +\| 1 of \d+ +\|/);
        assert.match(report, /## Not run\n\n(- src\/.*\n)+/);
        const ledger = JSON.parse(
          await Deno.readTextFile(`${dir}/report.json`),
        );
        assert.equal(ledger.kind, "ledger");
        assert.deepEqual(Object.keys(ledger.files), [
          "src/sign/sign_envelope.ts",
        ]);
      },
    );
    await t.step(
      "the mutant a reason left out is run on its own, and the report, from its ledger and the check alone, says its tests leave it alive",
      async () => {
        const check = await new Deno.Command(Deno.execPath(), {
          args: [
            "run",
            "--allow-all",
            "tools/mutate/check_reasons.ts",
            "--out",
            `${dir}/reasons.json`,
            `${dir}/mutation.json`,
          ],
          cwd: ROOT,
          env: { NO_COLOR: "1", CI: "1" },
          stdout: "piped",
          stderr: "piped",
        }).output();
        const output = new TextDecoder().decode(check.stdout) +
          new TextDecoder().decode(check.stderr);
        assert.equal(check.code, 0, output);
        assert.match(
          output,
          /sign_envelope\.ts:\d+:\d+ MethodExpression .*: left alive/,
        );
        const reasons = JSON.parse(
          await Deno.readTextFile(`${dir}/reasons.json`),
        );
        assert.equal(reasons.kind, "reason-check");
        assert.deepEqual(
          reasons.files["src/sign/sign_envelope.ts"].mutants.map((
            m: { status: string },
          ) => m.status),
          ["Survived"],
        );
        const written = await new Deno.Command(Deno.execPath(), {
          args: [
            "run",
            "--allow-all",
            "tools/mutate/write_report.ts",
            `${dir}/report.md`,
            `${dir}/reasons.json`,
          ],
          cwd: ROOT,
          stdout: "null",
          stderr: "piped",
        }).output();
        assert.ok(written.success, new TextDecoder().decode(written.stderr));
        const report = await Deno.readTextFile(`${dir}/report.md`);
        assert.match(report, /1 of 1 run on their own/);
        assert.doesNotMatch(report, /`\s+_\(not checked\)_/);
        assert.match(report, /\| src\/sign\/ +\| 1 of \d+ +\|/);
      },
    );
    await t.step(
      "code only the tests load is their aid, not pawl's: nothing to mutate",
      async () => {
        const run = await mutate(["src/run/_scripted_sandbox.ts"]);
        assert.equal(run.code, 0, run.output);
        assert.match(
          run.output,
          /main\.ts does not load src\/run\/_scripted_sandbox\.ts; not mutated\n(.*\n)*mutate: nothing to mutate/,
        );
      },
    );
    await t.step(
      "a score it cannot read, or a path with no file, is a usage error (exit 2)",
      async () => {
        const badScore = await mutate([
          "--min-score",
          "101",
          "src/sign/sign_envelope.ts",
        ]);
        assert.equal(badScore.code, 2);
        assert.match(
          badScore.output,
          /--min-score must be a number from 0 to 100, not 101/,
        );
        const nowhere = await mutate(["src/no/such/place.ts"]);
        assert.equal(nowhere.code, 2);
        assert.match(
          nowhere.output,
          /src\/no\/such\/place\.ts: no file of the repository is there/,
        );
      },
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a change touches the files it changed and the files one of whose chosen tests it changed, and no others", () => {
  const plan = {
    "src/a/rule.ts": {
      unit: ["src/a/rule_test.ts", "src/a/judge_test.ts"],
      e2e: ["tests/e2e_test.ts"],
    },
    "src/a/judge.ts": { unit: ["src/a/judge_test.ts"], e2e: [] },
    "src/b/other.ts": { unit: ["src/b/other_test.ts"], e2e: [] },
  };
  const targets = Object.keys(plan);
  assert.deepEqual(touched(targets, plan, new Set(["src/a/rule.ts"])), [
    "src/a/rule.ts",
  ]);
  assert.deepEqual(touched(targets, plan, new Set(["src/a/judge_test.ts"])), [
    "src/a/rule.ts",
    "src/a/judge.ts",
  ]);
  assert.deepEqual(
    touched(targets, plan, new Set(["tests/e2e_test.ts", "README.md"])),
    [],
  );
  assert.deepEqual(touched(targets, plan, new Set()), []);
});

Deno.test("a file with nothing to mutate goes into the run's JSON with no mutants, and the others stay as Stryker wrote them", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = `${dir}/mutation.json`;
    const stryker = {
      files: { "src/layouts/mod.ts": { source: "x", mutants: [{ id: "1" }] } },
    };
    await Deno.writeTextFile(path, JSON.stringify(stryker));
    await recordEmptyFiles(
      path,
      ["src/layouts/mod.ts", "src/harness/mod.ts"],
      (file) => `export * from "./${file}";\n`,
    );
    const written = JSON.parse(await Deno.readTextFile(path));
    assert.deepEqual(
      written.files["src/layouts/mod.ts"],
      stryker.files["src/layouts/mod.ts"],
    );
    assert.deepEqual(written.files["src/harness/mod.ts"], {
      language: "typescript",
      source: 'export * from "./src/harness/mod.ts";\n',
      mutants: [],
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
