import { deepEqual } from "node:assert/strict";
import { tallyObserverLines } from "./tally_observer_lines.ts";

const report = (nodeid: string, when: string, outcome: string) =>
  JSON.stringify({ event: "report", nodeid, outcome, when, xfail: false });

Deno.test("tallyObserverLines() tells the tally only what follows the run's own hello", async (t) => {
  const cases: { name: string; hello: string; told: string[] }[] = [
    {
      name: "the run's token",
      hello: '{"event": "hello", "token": "tok"}',
      told: [
        "collected t.py::a,t.py::b",
        "t.py::a passed",
        "t.py::b failed",
        "t.py::b skipped",
      ],
    },
    {
      name: "another token",
      hello: '{"event": "hello", "token": "forged"}',
      told: [],
    },
    { name: "no hello", hello: report("t.py::a", "call", "passed"), told: [] },
    {
      name: "the run's token on a first event that is not a hello",
      hello: '{"event": "configure", "token": "tok"}',
      told: [],
    },
    { name: "a first line that is not JSON", hello: "not json", told: [] },
  ];
  for (const c of cases) {
    await t.step(c.name, () => {
      const told: string[] = [];
      const listen = tallyObserverLines("tok", {
        collected: (ids) => told.push(`collected ${ids.join()}`),
        reported: (id, outcome) => told.push(`${id} ${outcome}`),
        end: () => {},
      });
      for (
        const line of [
          c.hello,
          '{"event": "collected", "nodeids": ["t.py::a", "t.py::b"]}',
          report("t.py::a", "setup", "passed"),
          report("t.py::a", "call", "passed"),
          "not json",
          '{"event": "report", "nodeid": 3}',
          '{"event": "report", "nodeid": 3, "when": "call", "outcome": "passed"}',
          '{"event": "collected", "nodeids": ["t.py::c", 4]}',
          '{"event": "collected", "nodeids": "t.py::c"}',
          // A line that only mentions a report, or an event of another name
          // that does, tells nothing; nor does a phase other than the call
          // that passed.
          'not json, though it says "report"',
          '{"event": "made", "kind": "report", "nodeid": "t.py::z", "when": "call", "outcome": "passed"}',
          report("t.py::c", "setup", "passed"),
          report("t.py::c", "teardown", "passed"),
          // An outcome pytest's own reports never give (a plugin's "rerun")
          // is not a pass.
          report("t.py::d", "call", "rerun"),
          report("t.py::b", "setup", "failed"),
          report("t.py::b", "call", "skipped"),
        ]
      ) listen(line);
      deepEqual(told, c.told);
    });
  }
});

Deno.test("tallyObserverLines() trusts no hello when the run has no token", () => {
  const told: string[] = [];
  const listen = tallyObserverLines("", {
    collected: (ids) => told.push(`collected ${ids.join()}`),
    reported: (id, outcome) => told.push(`${id} ${outcome}`),
    end: () => {},
  });
  listen('{"event": "hello", "token": ""}');
  listen('{"event": "collected", "nodeids": ["t.py::a"]}');
  listen(report("t.py::a", "call", "passed"));
  deepEqual(told, []);
});
