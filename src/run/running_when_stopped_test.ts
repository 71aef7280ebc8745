import assert from "node:assert/strict";
import { parseObservation } from "./observation.ts";
import { runningWhenStopped } from "./running_when_stopped.ts";

const report = (nodeid: string, when: string, outcome: string) =>
  JSON.stringify({ event: "report", nodeid, when, outcome, xfail: false });
const collected = (ids: string[]) =>
  JSON.stringify({ event: "collected", nodeids: ids });

Deno.test("runningWhenStopped() names the first selected test that had not ended", async (t) => {
  const table: [string, string[], string | undefined][] = [
    [
      "collection never finished",
      [report("t.py::a", "call", "passed")],
      undefined,
    ],
    [
      "nothing ended yet: the first test",
      [collected(["t.py::a", "t.py::b"])],
      "t.py::a",
    ],
    ["after a passed call: the next", [
      collected(["t.py::a", "t.py::b", "t.py::c"]),
      report("t.py::a", "call", "passed"),
    ], "t.py::b"],
    ["a passing setup alone has not ended the test", [
      collected(["t.py::a", "t.py::b"]),
      report("t.py::a", "setup", "passed"),
    ], "t.py::a"],
    ["a setup that failed ended the test", [
      collected(["t.py::a", "t.py::b"]),
      report("t.py::a", "setup", "failed"),
    ], "t.py::b"],
    ["a setup that skipped ended the test", [
      collected(["t.py::a", "t.py::b"]),
      report("t.py::a", "setup", "skipped"),
    ], "t.py::b"],
    ["every test ended", [
      collected(["t.py::a"]),
      report("t.py::a", "call", "failed"),
    ], undefined],
  ];
  for (const [label, lines, expected] of table) {
    await t.step(label, () => {
      const o = parseObservation(
        [['{"event":"hello","token":"t"}', ...lines]],
        "t",
      );
      assert.equal(runningWhenStopped(o), expected);
    });
  }
});
