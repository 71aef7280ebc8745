import assert from "node:assert/strict";
import { parseObservation } from "./observation.ts";

const HELLO = '{"event":"hello","token":"t"}';

Deno.test("parseObservation() reads the changed lines the run executed", () => {
  const o = parseObservation([[
    HELLO,
    JSON.stringify({
      event: "lines",
      files: { "src/a.py": { executable: [5, 3, 3], executed: [3] } },
      removed: false,
    }),
  ]], "t");
  assert.deepEqual(o.problems, []);
  assert.deepEqual(o.lines, {
    files: new Map([["src/a.py", { executable: [3, 5], executed: [3] }]]),
    removed: false,
  });
});

Deno.test("parseObservation() refuses a malformed or second lines event", async (t) => {
  const good = JSON.stringify({
    event: "lines",
    files: { "src/a.py": { executable: [1], executed: [] } },
    removed: false,
  });
  const cases: [string, string[]][] = [
    ["a line number that is no positive integer", [JSON.stringify({
      event: "lines",
      files: { "src/a.py": { executable: [0], executed: [] } },
      removed: false,
    })]],
    ["no removed flag", [JSON.stringify({
      event: "lines",
      files: {},
    })]],
    ["files as a list", [JSON.stringify({
      event: "lines",
      files: [],
      removed: false,
    })]],
    ["a second event", [good, good]],
  ];
  for (const [name, lines] of cases) {
    await t.step(name, () => {
      const o = parseObservation([[HELLO, ...lines]], "t");
      assert.equal(o.problems.length, 1, name);
      if (lines.length === 1) assert.equal(o.lines, undefined);
    });
  }
});
