import assert from "node:assert/strict";
import { codeSpan, markdownText, survivorReport } from "./survivor_report.ts";
import { ledgerOf, mergeRuns, sourceHash } from "./write_report.ts";

type Status =
  | "Killed"
  | "Timeout"
  | "Survived"
  | "NoCoverage"
  | "Ignored"
  | "RuntimeError";

function run(files: Record<string, [string, Status[]]>) {
  return {
    files: Object.fromEntries(
      Object.entries(files).map(([file, [source, statuses]]) => [file, {
        source,
        mutants: statuses.map((status, i) => ({
          id: `${file}-${i}`,
          mutatorName: "ConditionalExpression",
          replacement: "true",
          status,
          location: {
            start: { line: i + 1, column: 1 },
            end: { line: i + 1, column: 2 },
          },
        })),
      }]),
    ),
  };
}

Deno.test("mergeRuns() takes each file from the last run of its current source, and names the files no run saw as they are", async (t) => {
  const now: Record<string, string> = {
    "a.ts": "A2",
    "b.ts": "B1",
    "c.ts": "C2",
  };
  const runs = [
    run({ "a.ts": ["A1", ["Survived"]], "b.ts": ["B1", ["Survived"]] }),
    run({ "a.ts": ["A2", ["Killed"]], "c.ts": ["C1", ["Killed"]] }),
    run({ "b.ts": ["B1", ["Killed", "Killed"]], "a.ts": ["A1", ["Survived"]] }),
  ];
  const merged = mergeRuns(runs, (f) => now[f]);
  await t.step(
    "a later run of old code does not replace a run of the current code",
    () => {
      assert.deepEqual(
        merged.results.filter((r) => r.fileName === "a.ts").map((r) =>
          r.status
        ),
        ["Killed"],
      );
    },
  );
  await t.step("of two runs of the current code, the last wins", () => {
    assert.deepEqual(
      merged.results.filter((r) => r.fileName === "b.ts").map((r) => r.status),
      ["Killed", "Killed"],
    );
  });
  await t.step("a file only ever run on other code is stale", () => {
    assert.deepEqual(merged.files, ["a.ts", "b.ts"]);
    assert.deepEqual(merged.stale, ["c.ts"]);
  });
  await t.step("a file that is gone is left out, and not stale", () => {
    const gone = mergeRuns([
      ...runs,
      run({ "d.ts": ["D1", ["Survived"]] }),
      {
        kind: "ledger" as const,
        files: {
          "e.ts": { sha256: sourceHash("E1"), detected: 1, mutants: [] },
        },
      },
    ], (f) => now[f]);
    assert.deepEqual(gone.files, ["a.ts", "b.ts"]);
    assert.deepEqual(gone.stale, ["c.ts"]);
  });
  await t.step("without the current sources, each file's last run wins", () => {
    const last = mergeRuns(runs);
    assert.deepEqual(last.files, ["a.ts", "b.ts", "c.ts"]);
    assert.deepEqual(last.stale, []);
    assert.deepEqual(
      last.results.filter((r) => r.fileName === "a.ts").map((r) => r.status),
      ["Survived"],
    );
  });
});

Deno.test("survivorReport() says how many of each folder's files were run and lists the others", () => {
  const { results } = mergeRuns([
    run({ "src/x/a.ts": ["A", ["Killed", "Survived"]] }),
  ]);
  const text = survivorReport(results, "", ["src/x/", "src/y/"], {
    files: {
      run: ["src/x/a.ts"],
      all: ["src/x/a.ts", "src/x/b.ts", "src/y/c.ts"],
    },
  });
  assert.match(text, /\| src\/x\/ \| 1 of 2 \| 50\.0% \| 1 \| 1 \| 0 \|/);
  assert.match(text, /\| src\/y\/ \| 0 of 1 \| n\/a \| 0 \| 0 \| 0 \|/);
  assert.match(text, /\| all \| 1 of 3 \| 50\.0% \| 1 \| 1 \| 0 \|/);
  assert.match(text, /## Not run\n\n- src\/x\/b\.ts\n- src\/y\/c\.ts\n/);
  assert.match(
    text,
    /## Undetected\n\n- `src\/x\/a\.ts:2:1 ConditionalExpression → true`/,
  );
});

Deno.test("survivorReport() without the files run keeps to the folders that have results", () => {
  const { results } = mergeRuns([run({ "src/x/a.ts": ["A", ["Killed"]] })]);
  const text = survivorReport(results, "", ["src/x/", "src/y/"]);
  assert.doesNotMatch(text, /src\/y\//);
  assert.doesNotMatch(text, /Not run|Files run/);
});

Deno.test("codeSpan() keeps code holding backticks one span", async (t) => {
  const cases: [string, string, string][] = [
    ["no backticks", "a <= b", "`a <= b`"],
    ["a template literal", '`${a}` → ""', '`` `${a}` → "" ``'],
    ["a run of two", "x ``y``", "``` x ``y`` ```"],
  ];
  for (const [name, text, want] of cases) {
    await t.step(name, () => assert.equal(codeSpan(text), want));
  }
});

Deno.test("mergeRuns() takes what a check of the left-out mutants found on the same source", async (t) => {
  const now: Record<string, string> = { "a.ts": "A1", "b.ts": "B2" };
  const runs = [
    run({
      "a.ts": ["A1", ["Ignored", "Ignored", "Ignored", "Killed"]],
      "b.ts": ["B2", ["Ignored"]],
    }),
    {
      ...run({
        "a.ts": ["A1", ["Killed", "Survived", "Ignored", "Survived"]],
        "b.ts": ["B1", ["Killed"]],
      }),
      kind: "reason-check",
    },
  ];
  const merged = mergeRuns(runs, (f) => now[f]);
  const a = merged.results.filter((r) => r.fileName === "a.ts");
  await t.step("a left-out mutant the tests detect counts as detected", () => {
    assert.equal(a[0]?.status, "Killed");
  });
  await t.step("one they leave alive keeps its place, checked", () => {
    assert.equal(a[1]?.status, "Ignored");
    assert.equal(a[1]?.checked, true);
  });
  await t.step("a mutant the check did not run stays unchecked", () => {
    assert.equal(a[2]?.checked, undefined);
  });
  await t.step("a check changes no mutant that was run", () => {
    assert.equal(a[3]?.status, "Killed");
  });
  await t.step(
    "an undetected mutant a later check detects counts as detected; one it leaves alive stays undetected",
    () => {
      const later = mergeRuns([
        run({ "c.ts": ["C1", ["Survived", "NoCoverage", "Survived"]] }),
        {
          ...run({ "c.ts": ["C1", ["Killed", "Timeout", "Survived"]] }),
          kind: "reason-check",
        },
      ], () => "C1");
      assert.deepEqual(
        later.results.map((r) => [r.status, r.checked]),
        [["Killed", undefined], ["Timeout", undefined], [
          "Survived",
          undefined,
        ]],
      );
    },
  );
  await t.step(
    "an undecided mutant takes what a later check found, detected or alive",
    () => {
      const later = mergeRuns([
        run({
          "c.ts": ["C1", ["RuntimeError", "RuntimeError", "RuntimeError"]],
        }),
        {
          ...run({ "c.ts": ["C1", ["Killed", "Survived"]] }),
          kind: "reason-check",
        },
      ], () => "C1");
      assert.deepEqual(
        later.results.map((r) => r.status),
        ["Killed", "Survived", "RuntimeError"],
      );
    },
  );
  await t.step("a check of other code changes nothing", () => {
    const b = merged.results.filter((r) => r.fileName === "b.ts");
    assert.deepEqual(b.map((r) => [r.status, r.checked]), [[
      "Ignored",
      undefined,
    ]]);
  });
  await t.step("a check alone is no run of a file", () => {
    const only = mergeRuns([runs[1]!], (f) => now[f]);
    assert.deepEqual(only.files, []);
  });
});

Deno.test("survivorReport() marks each mutant left out with a reason that was not run on its own", () => {
  const mutant = (line: number, checked?: boolean) => ({
    fileName: "src/run/a.ts",
    mutatorName: "ConditionalExpression",
    replacement: line === 1 ? "true" : "false",
    status: "Ignored",
    statusReason: "x is never undefined",
    ...(checked === undefined ? {} : { checked }),
    location: { start: { line, column: 1 }, end: { line, column: 2 } },
  });
  const text = survivorReport([mutant(1, true), mutant(2)], "", ["src/run/"]);
  assert.match(text, /1 of 2 run on their own/);
  assert.match(text, /a\.ts:1:1 ConditionalExpression → true`\n/);
  assert.match(
    text,
    /a\.ts:2:1 ConditionalExpression → false` \*\(not checked\)\*/,
  );
});

Deno.test("survivorReport() lists the mutants left undecided apart from the undetected, and only when there are some", () => {
  const mutant = (line: number, status: string) => ({
    fileName: "src/run/a.ts",
    mutatorName: "ConditionalExpression",
    replacement: "true",
    status,
    location: { start: { line, column: 1 }, end: { line, column: 2 } },
  });
  const text = survivorReport(
    [mutant(1, "RuntimeError"), mutant(2, "Survived"), mutant(3, "Killed")],
    "",
    ["src/run/"],
  );
  const undetected = text.slice(
    text.indexOf("## Undetected"),
    text.indexOf("## Undecided"),
  );
  assert.match(undetected, /a\.ts:2:1/);
  assert.doesNotMatch(undetected, /a\.ts:1:1/);
  assert.match(
    text.slice(text.indexOf("## Undecided")),
    /^- `src\/run\/a\.ts:1:1 ConditionalExpression → true`$/m,
  );
  assert.doesNotMatch(
    survivorReport([mutant(2, "Survived")], "", ["src/run/"]),
    /## Undecided/,
  );
});

Deno.test("a ledger keeps what the report says of each file, and only for the source that was run", async (t) => {
  const now: Record<string, string> = { "a.ts": "A1", "b.ts": "B1" };
  const ignored = {
    ...run({ "a.ts": ["A1", ["Killed", "Timeout", "Survived", "Ignored"]] })
      .files["a.ts"]!,
  };
  const runs = [
    {
      files: {
        "a.ts": {
          ...ignored,
          mutants: ignored.mutants.map((m, i) =>
            i === 3 ? { ...m, statusReason: "x is never 0" } : m
          ),
        },
        ...run({ "b.ts": ["B1", ["Killed", "NoCoverage"]] }).files,
      },
    },
    {
      ...run({
        "a.ts": ["A1", ["Survived", "Survived", "Survived", "Survived"]],
      }),
      kind: "reason-check",
    },
  ];
  const merged = mergeRuns(runs, (f) => now[f]);
  const sources = new Map(Object.entries(now));
  const ledger = ledgerOf(merged, sources);
  await t.step(
    "detected mutants are counted, every other one kept whole",
    () => {
      assert.equal(ledger.files["a.ts"]?.detected, 2);
      assert.equal(ledger.files["a.ts"]?.sha256, sourceHash("A1"));
      assert.deepEqual(
        ledger.files["a.ts"]?.mutants.map((m) => [
          m.status,
          m.statusReason,
          m.checked,
          m.location.start.line,
        ]),
        [["Survived", undefined, undefined, 3], [
          "Ignored",
          "x is never 0",
          true,
          4,
        ]],
      );
    },
  );
  await t.step("read back, the ledger gives the same report", () => {
    const again = mergeRuns([ledger], (f) => now[f]);
    assert.deepEqual(again.files, merged.files);
    const folders = [""];
    assert.equal(
      survivorReport(again.results, "", folders),
      survivorReport(merged.results, "", folders),
    );
  });
  await t.step("a file changed since the ledger was written is stale", () => {
    const later = mergeRuns([ledger], (f) => f === "b.ts" ? "B2" : now[f]);
    assert.deepEqual(later.files, ["a.ts"]);
    assert.deepEqual(later.stale, ["b.ts"]);
  });
  await t.step("a run given with the ledger replaces the ledger's file", () => {
    const later = mergeRuns([
      ledger,
      run({ "b.ts": ["B1", ["Killed", "Killed"]] }),
    ], (f) => now[f]);
    assert.deepEqual(
      later.results.filter((r) => r.fileName === "b.ts").map((r) => r.status),
      ["Killed", "Killed"],
    );
  });
  await t.step("a ledger given after a run does not replace it", () => {
    const later = mergeRuns([
      run({ "b.ts": ["B1", ["Killed", "Killed"]] }),
      ledger,
    ], (f) => now[f]);
    assert.deepEqual(
      later.results.filter((r) => r.fileName === "b.ts").map((r) => r.status),
      ["Killed", "Killed"],
    );
  });
});

Deno.test("markdownText() shows a reason as written, leaving its code spans alone", async (t) => {
  const cases: [string, string, string][] = [
    ["a regular expression", "so /E\\s*/ matches", "so /E\\\\s\\*/ matches"],
    ["a dunder name", "no __init__.py", "no \\_\\_init\\_\\_.py"],
    ["a comparison", "< and <= differ", "\\< and \\<= differ"],
    ["code", "`a_b*` is kept", "`a_b*` is kept"],
  ];
  for (const [name, text, want] of cases) {
    await t.step(name, () => assert.equal(markdownText(text), want));
  }
});
