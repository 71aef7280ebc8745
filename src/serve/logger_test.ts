import assert from "node:assert/strict";
import { createLogger } from "./logger.ts";

const CLOCK = () => new Date("2026-12-01T10:00:00Z");

function logged(
  secrets: readonly string[],
  event: string,
  fields?: Record<string, unknown>,
  masked: readonly string[] = [],
): string[] {
  const lines: string[] = [];
  const logger = createLogger({
    write: (line) => lines.push(line),
    secrets,
    clock: CLOCK,
  });
  for (const secret of masked) logger.mask(secret);
  logger.log(event, fields);
  return lines;
}

Deno.test("a log line is one JSON object with the time, the fields and the event, ending in a newline", () => {
  const lines = logged([], "job.done", { job: 7, pr: "acme/app#3" });
  assert.equal(lines.length, 1);
  assert.ok(lines[0]!.endsWith("}\n"));
  assert.equal(lines[0]!.indexOf("\n"), lines[0]!.length - 1);
  assert.deepEqual(JSON.parse(lines[0]!), {
    time: "2026-12-01T10:00:00.000Z",
    job: 7,
    pr: "acme/app#3",
    event: "job.done",
  });
  assert.deepEqual(JSON.parse(logged([], "ready")[0]!), {
    time: "2026-12-01T10:00:00.000Z",
    event: "ready",
  });
});

Deno.test("the event name wins over a field of the same name, and a field cannot move the time", () => {
  const line = logged([], "job.failed", { event: "job.done" })[0]!;
  assert.equal(JSON.parse(line).event, "job.failed");
  const timed = logged([], "x", { time: "1970-01-01T00:00:00.000Z" })[0]!;
  assert.equal(JSON.parse(timed).time, "1970-01-01T00:00:00.000Z");
});

Deno.test("without a clock the line is stamped with the current time", () => {
  const lines: string[] = [];
  const before = Date.now();
  createLogger({ write: (l) => lines.push(l) }).log("tick");
  const after = Date.now();
  const time = Date.parse(JSON.parse(lines[0]!).time);
  assert.ok(time >= before && time <= after, lines[0]);
});

Deno.test("a secret is masked wherever it appears, also as JSON escapes it", async (t) => {
  const cases: [string, string[], Record<string, unknown>, string][] = [
    [
      "in a value",
      ["hunter22"],
      { error: "token hunter22 refused" },
      "hunter22",
    ],
    [
      "twice in one value",
      ["hunter22"],
      { a: "hunter22/hunter22" },
      "hunter22",
    ],
    ["in a key", ["hunter22"], { hunter22: 1 }, "hunter22"],
    ["in a nested value", ["s3cret"], { a: { b: ["x s3cret"] } }, "s3cret"],
    ["holding a quote", ['pa"ss'], { error: 'pa"ss' }, 'pa\\"ss'],
    ["holding a backslash", ["a\\bcd"], { error: "a\\bcd" }, "a\\\\bcd"],
    ["holding a newline", ["ab\ncd"], { error: "ab\ncd" }, "ab\\ncd"],
    ["given later with mask()", [], { error: "late-token" }, "late-token"],
  ];
  for (const [name, secrets, fields, spelled] of cases) {
    await t.step(name, () => {
      const masked = secrets.length ? [] : [String(fields.error)];
      const line = logged(secrets, "e", fields, masked)[0]!;
      assert.ok(!line.includes(spelled), line);
      assert.ok(line.includes("***"), line);
      JSON.parse(line);
    });
  }
});

Deno.test("a secret shorter than four characters is not masked, so it cannot blank out common text", () => {
  for (const short of ["abc", "ab", ""]) {
    const line = logged([short], "e", { error: "abc abd" })[0]!;
    assert.equal(JSON.parse(line).error, "abc abd", short);
    const later = logged([], "e", { error: "abc abd" }, [short])[0]!;
    assert.equal(JSON.parse(later).error, "abc abd", short);
  }
  const four = logged(["abcd"], "e", { error: "abcd abce" })[0]!;
  assert.equal(JSON.parse(four).error, "*** abce");
  const fourLater = logged([], "e", { error: "abcd abce" }, ["abcd"])[0]!;
  assert.equal(JSON.parse(fourLater).error, "*** abce");
});

Deno.test("GitHub tokens are masked by their shape even when nobody named them", async (t) => {
  const cases: [string, string, string][] = [
    ["an installation token", "ghs_ABCdef12", "***"],
    ["an OAuth token", "gho_abcdefgh_ij", "***"],
    ["a personal token", "ghp_0123456789abcdef", "***"],
    ["a user-to-server token", "ghu_abcdefgh", "***"],
    ["a token inside text", "token=ghs_abcdefgh9; next", "token=***; next"],
    ["too short to be a token", "ghs_abcdefg", "ghs_abcdefg"],
    ["another prefix", "ghx_abcdefgh", "ghx_abcdefgh"],
    ["a refresh token", "ghr_abcdefgh", "***"],
    ["a fine-grained personal token", "github_pat_11ABCDEFG_xyz", "***"],
    ["a fine-grained prefix alone", "github_pat_short", "github_pat_short"],
    ["no underscore", "ghsabcdefghij", "ghsabcdefghij"],
    ["a hyphen ends it", "ghs_abc-defghij", "ghs_abc-defghij"],
  ];
  for (const [name, text, expected] of cases) {
    await t.step(name, () => {
      const line = logged([], "e", { text })[0]!;
      assert.equal(JSON.parse(line).text, expected);
    });
  }
});

Deno.test("masking one logger's secret does not mask it in another logger", () => {
  const a: string[] = [];
  const b: string[] = [];
  const shared = ["base"];
  const la = createLogger({
    write: (l) => a.push(l),
    secrets: shared,
    clock: CLOCK,
  });
  const lb = createLogger({
    write: (l) => b.push(l),
    secrets: shared,
    clock: CLOCK,
  });
  la.mask("only-a-secret");
  la.log("e", { v: "only-a-secret" });
  lb.log("e", { v: "only-a-secret" });
  assert.equal(JSON.parse(a[0]!).v, "***");
  assert.equal(JSON.parse(b[0]!).v, "only-a-secret");
  assert.deepEqual(shared, ["base"]);
});
