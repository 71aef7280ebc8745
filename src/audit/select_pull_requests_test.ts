import assert from "node:assert/strict";
import { parsePullRequestNumbers } from "./parse_pull_request_numbers.ts";
import { parseSince } from "./parse_since.ts";
import { selectPullRequests } from "./select_pull_requests.ts";

const PULLS = [9, 3, 12, 5, 7, 3].map((number) => ({
  number,
  createdAt: `2026-11-${String(number).padStart(2, "0")}T00:00:00Z`,
}));

Deno.test("selectPullRequests() applies every option given, ascending, each number once", async (t) => {
  const cases: [string, Parameters<typeof selectPullRequests>[1], number[]][] =
    [
      ["nothing narrows", {}, [3, 5, 7, 9, 12]],
      ["a range", { numbers: parsePullRequestNumbers("4..9") }, [5, 7, 9]],
      ["a list", { numbers: parsePullRequestNumbers("3,12,99") }, [3, 12]],
      ["since", { since: parseSince("2026-11-07") }, [7, 9, 12]],
      ["a shard", { shard: { index: 1, count: 2 } }, [3, 5, 7, 9]],
      [
        "all three",
        {
          numbers: parsePullRequestNumbers("1..10"),
          since: parseSince("2026-11-04"),
          shard: { index: 0, count: 3 },
        },
        [9],
      ],
    ];
  for (const [name, options, expected] of cases) {
    await t.step(name, () => {
      assert.deepEqual(
        selectPullRequests(PULLS, options).map((p) => p.number),
        expected,
      );
    });
  }
});

Deno.test("selectPullRequests() shards cover the unsharded selection exactly once", () => {
  const numbers = parsePullRequestNumbers("2..12");
  const whole = selectPullRequests(PULLS, { numbers }).map((p) => p.number);
  const shards = [0, 1, 2].flatMap((index) =>
    selectPullRequests(PULLS, { numbers, shard: { index, count: 3 } })
      .map((p) => p.number)
  );
  assert.deepEqual(shards.sort((a, b) => a - b), whole);
});
