import assert from "node:assert/strict";
import { codeSpan, survivorReport } from "./survivor_report.ts";
import { mergeRuns } from "./write_report.ts";

type Status = "Killed" | "Survived";

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
