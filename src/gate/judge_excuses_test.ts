import assert from "node:assert/strict";
import { ContractSyntaxError } from "../contract/contract_syntax_error.ts";
import { parseRfc3339 } from "../core/parse_rfc3339.ts";
import type { Excuse } from "../settings/excuses_settings.ts";
import { type GuardedTest, judgeExcuses } from "./judge_excuses.ts";

const NOW = parseRfc3339("2026-12-01T12:00:00Z")!;

function excuse(test: string, expires = "2026-12-31T00:00:00Z"): Excuse {
  return { test, owner: "platform", reason: "no de_DE locale here", expires };
}

function judge(excuses: Excuse[], guarded: GuardedTest[] = [], now = NOW) {
  return judgeExcuses(excuses, { now, runner: "pytest", guarded });
}

Deno.test("judgeExcuses() deselects an unexpired excuse and records it with a note", () => {
  const j = judge([excuse("tests/test_io.py::test_locale")]);
  assert.deepEqual(j.deselect, ["tests/test_io.py::test_locale"]);
  assert.deepEqual(j.records.map((r) => r.status), ["active"]);
  assert.deepEqual(j.findings.map((f) => [f.rule, f.blocking, f.path]), [[
    "tests.excused",
    false,
    "pawl.toml",
  ]]);
  assert.match(
    j.findings[0]!.message,
    /owner "platform": no de_DE locale here/,
  );
  assert.match(j.findings[0]!.message, /until 2026-12-31T00:00:00Z/);
});

Deno.test("judgeExcuses() compares the expiry with the given clock only: at and after it the test runs again", async (t) => {
  const expires = "2026-12-01T12:00:00Z";
  for (
    const [name, now, status] of [
      ["a millisecond before", NOW - 1, "active"],
      ["at the instant", NOW, "expired"],
      ["a year later", NOW + 365 * 86_400_000, "expired"],
    ] as const
  ) {
    await t.step(name, () => {
      const j = judge([excuse("tests/a.py::t", expires)], [], now);
      assert.deepEqual(j.records.map((r) => r.status), [status]);
      assert.deepEqual(
        j.deselect,
        status === "active" ? ["tests/a.py::t"] : [],
      );
      assert.deepEqual(
        j.findings.map((f) => [f.rule, f.blocking]),
        [[
          status === "active" ? "tests.excused" : "config.excuse_expired",
          false,
        ]],
      );
    });
  }
  await t.step("an offset is an instant like any other", () => {
    const j = judge([excuse("tests/a.py::t", "2026-12-01T13:00:00+01:00")]);
    assert.deepEqual(j.records.map((r) => r.status), ["expired"]);
  });
});

Deno.test("judgeExcuses() refuses an excuse that would deselect a registered property or a frozen seed's test", async (t) => {
  const property: GuardedTest = {
    nodeId: "tests/test_codec.py::test_roundtrip",
    what: 'the registered property "roundtrip" (layout agent-contract)',
    atBase: true,
  };
  const cases: [string, string, boolean][] = [
    ["the property itself", "tests/test_codec.py::test_roundtrip", true],
    ["its whole file", "tests/test_codec.py", true],
    ["its directory, as pytest matches prefixes", "tests/", true],
    [
      "one parametrization of it",
      "tests/test_codec.py::test_roundtrip[3]",
      true,
    ],
    ["a test sharing its prefix", "tests/test_codec.py::test_round", true],
    ["another test of the file", "tests/test_codec.py::test_other", false],
    ["a longer name", "tests/test_codec.py::test_roundtrip_slow", false],
  ];
  for (const [name, test, refused] of cases) {
    await t.step(name, () => {
      const j = judge([excuse(test)], [property]);
      assert.deepEqual(
        j.baseProblems.map((f) => f.rule),
        refused ? ["config.excuse_covers_property"] : [],
      );
      if (refused) {
        assert.match(j.baseProblems[0]!.message, /"roundtrip"/);
        assert.match(j.baseProblems[0]!.message, /must run/);
      }
    });
  }
  await t.step(
    "a test the pull request registers is a blocking finding, not the base's problem",
    () => {
      const j = judge([excuse("tests/test_new.py")], [{
        nodeId: "tests/test_new.py::test_p",
        what: 'the registered property "new" (layout agent-contract)',
        atBase: false,
      }]);
      assert.deepEqual(j.baseProblems, []);
      const blocking = j.findings.filter((f) => f.blocking);
      assert.deepEqual(blocking.map((f) => f.rule), [
        "config.excuse_covers_property",
      ]);
      assert.match(blocking[0]!.message, /a test the pull request registers/);
    },
  );
  await t.step("a frozen seed's test", () => {
    const j = judge([excuse("tests/contracts")], [{
      nodeId: "tests/contracts/test_ledger.py::test_apply",
      what: 'the test of frozen seed 17 (freeze "f", layout seed-contracts)',
      atBase: true,
    }]);
    assert.match(j.baseProblems[0]?.message ?? "", /frozen seed 17/);
  });
  await t.step(
    "an expired excuse deselects nothing, so it hides nothing",
    () => {
      const j = judge([excuse(property.nodeId, "2026-01-01T00:00:00Z")], [
        property,
      ]);
      assert.deepEqual(j.baseProblems, []);
      assert.deepEqual(j.deselect, []);
    },
  );
});

Deno.test("judgeExcuses() needs the pytest runner to deselect anything", () => {
  assert.throws(
    () =>
      judgeExcuses([excuse("tests/a.py::t")], {
        now: NOW,
        runner: "deno",
        guarded: [],
      }),
    (e) => e instanceof ContractSyntaxError && /pytest runner/.test(e.message),
  );
  assert.deepEqual(
    judgeExcuses([], { now: NOW, runner: "deno", guarded: [] }).records,
    [],
  );
});
