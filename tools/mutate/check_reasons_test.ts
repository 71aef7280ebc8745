import assert from "node:assert/strict";
import { applyMutant, leftOut } from "./check_reasons.ts";

Deno.test("applyMutant() replaces the span a mutant names, in lines and columns counted from 1", async (t) => {
  const source = "if (a && b) {\n  go();\n}\n";
  const cases: [string, [number, number, number, number], string, string][] = [
    ["part of a line", [1, 5, 1, 11], "true", "if (true) {\n  go();\n}\n"],
    [
      "a span over lines",
      [1, 13, 3, 2],
      "{}",
      "if (a && b) {}\n",
    ],
    [
      "an empty span (an insertion)",
      [2, 3, 2, 3],
      "!",
      "if (a && b) {\n  !go();\n}\n",
    ],
    ["up to the end of a line", [2, 3, 2, 8], "", "if (a && b) {\n  \n}\n"],
  ];
  for (const [name, [l1, c1, l2, c2], replacement, want] of cases) {
    await t.step(name, () => {
      assert.equal(
        applyMutant(source, {
          start: { line: l1, column: c1 },
          end: { line: l2, column: c2 },
        }, replacement),
        want,
      );
    });
  }
  await t.step("a span outside the text is no mutant", () => {
    for (
      const [l1, c1, l2, c2] of [[9, 1, 9, 2], [1, 40, 1, 41], [2, 5, 1, 1]]
    ) {
      assert.equal(
        applyMutant(source, {
          start: { line: l1!, column: c1! },
          end: { line: l2!, column: c2! },
        }, "x"),
        undefined,
      );
    }
  });
  await t.step("a mutant without an end is no mutant", () => {
    assert.equal(
      applyMutant(source, { start: { line: 1, column: 1 } }, "x"),
      undefined,
    );
  });
});

Deno.test("leftOut() gives the mutants a reason left out that no check has run yet, by file", () => {
  const at = { start: { line: 1, column: 1 } };
  const m = (fileName: string, status: string, checked?: boolean) => ({
    fileName,
    status,
    mutatorName: "BooleanLiteral",
    location: at,
    ...(checked === undefined ? {} : { checked }),
  });
  assert.deepEqual(
    [...leftOut([
      m("a.ts", "Ignored"),
      m("a.ts", "Survived"),
      m("b.ts", "Killed"),
      m("b.ts", "Ignored"),
      m("a.ts", "Ignored"),
      m("b.ts", "Ignored", true),
    ])].map(([file, list]) => [file, list.length]),
    [["a.ts", 2], ["b.ts", 1]],
  );
  assert.deepEqual(
    [...leftOut([
      m("a.ts", "Ignored"),
      m("a.ts", "Survived"),
      m("a.ts", "NoCoverage"),
      m("b.ts", "Killed"),
      m("b.ts", "Ignored", true),
      m("b.ts", "RuntimeError"),
    ], true)].map(([file, list]) => [file, list.map((r) => r.status)]),
    [["a.ts", ["Ignored", "Survived", "NoCoverage"]], ["b.ts", [
      "RuntimeError",
    ]]],
    "with undetected, the mutants no test detected or left undecided are run again too",
  );
});

Deno.test("mutate-reasons writes its checks into a folder it makes, also when no mutant is left out", async () => {
  const dir = await Deno.makeTempDir({ prefix: "pawl-reasons-test-" });
  try {
    const run = `${dir}/run.json`;
    await Deno.writeTextFile(
      run,
      JSON.stringify({ schemaVersion: "1", thresholds: {}, files: {} }),
    );
    const out = `${dir}/not/yet/reasons.json`;
    const result = await new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "--allow-all",
        new URL("./check_reasons.ts", import.meta.url).pathname,
        "--out",
        out,
        run,
      ],
      stdout: "piped",
      stderr: "piped",
    }).output();
    const stderr = new TextDecoder().decode(result.stderr);
    assert.equal(result.code, 0, stderr);
    assert.deepEqual(JSON.parse(await Deno.readTextFile(out)), {
      kind: "reason-check",
      files: {},
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
