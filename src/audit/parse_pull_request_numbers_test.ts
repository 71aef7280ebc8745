import assert from "node:assert/strict";
import { AuditOptionError } from "./audit_option_error.ts";
import {
  inPullRequestRanges,
  parsePullRequestNumbers,
} from "./parse_pull_request_numbers.ts";

Deno.test("parsePullRequestNumbers() reads lists, ranges and open ranges", async (t) => {
  const cases: [string, ReturnType<typeof parsePullRequestNumbers>][] = [
    ["7", [{ first: 7, last: 7 }]],
    ["3,5,9", [{ first: 3, last: 3 }, { first: 5, last: 5 }, {
      first: 9,
      last: 9,
    }]],
    ["120..180", [{ first: 120, last: 180 }]],
    [" 1..2 , 400.. ", [{ first: 1, last: 2 }, { first: 400 }]],
    ["5..5", [{ first: 5, last: 5 }]],
  ];
  for (const [text, expected] of cases) {
    await t.step(text, () => {
      assert.deepEqual(parsePullRequestNumbers(text), expected);
    });
  }
});

Deno.test("parsePullRequestNumbers() refuses what is not a number or a range", async (t) => {
  const cases: [string, RegExp][] = [
    ["", /expected numbers or ranges/],
    ["3,,5", /empty/],
    ["0", /"0" is not a pull request number/],
    ["abc", /"abc" is not/],
    ["..5", /"\.\.5" is not/],
    ["1..2..3", /"1\.\.2\.\.3" is not/],
    ["-4", /"-4" is not/],
    ["9..3", /the range "9\.\.3" runs backwards/],
    ["99999999999", /is not/],
  ];
  for (const [text, message] of cases) {
    await t.step(JSON.stringify(text), () => {
      assert.throws(() => parsePullRequestNumbers(text), (error) => {
        assert.ok(error instanceof AuditOptionError);
        assert.match(error.message, /^Cannot read --prs "/);
        assert.match(error.message, message);
        return true;
      });
    });
  }
});

Deno.test("inPullRequestRanges() includes both ends and honours open ranges", () => {
  const ranges = parsePullRequestNumbers("3,10..12,400..");
  const picked = [1, 3, 4, 9, 10, 12, 13, 399, 400, 100000].filter((n) =>
    inPullRequestRanges(ranges, n)
  );
  assert.deepEqual(picked, [3, 10, 12, 400, 100000]);
});
