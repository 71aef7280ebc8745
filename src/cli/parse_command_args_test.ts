import assert from "node:assert/strict";
import {
  parseCommandArgs,
  requiredOption,
  UsageError,
  usageErrorText,
  wantsHelp,
} from "./parse_command_args.ts";

const OPTIONS = {
  now: { type: "string" },
  label: { type: "string", multiple: true },
  json: { type: "boolean", default: false },
} as const;

Deno.test("parseCommandArgs() reads a command line that fits", () => {
  const v = parseCommandArgs(
    ["--now", "2026-11-30T12:00:00Z", "--label", "a", "--label=b", "--json"],
    OPTIONS,
  );
  assert.equal(v.now, "2026-11-30T12:00:00Z");
  assert.deepEqual(v.label, ["a", "b"]);
  assert.equal(v.json, true);
  // A flag given twice says the same thing twice.
  assert.equal(parseCommandArgs(["--json", "--json"], OPTIONS).json, true);
});

Deno.test("parseCommandArgs() refuses what does not fit as a UsageError", async (t) => {
  const cases: [string, string[], RegExp][] = [
    ["an unknown option", ["--frob"], /^Unknown option '--frob'$/],
    ["a positional", ["x"], /^Unexpected argument 'x'/],
    ["a missing value", ["--now"], /--now/],
    [
      "a repeated single-valued option",
      ["--now", "a", "--now=b"],
      /^Option "--now" is given more than once; it takes one value$/,
    ],
  ];
  for (const [name, args, message] of cases) {
    await t.step(name, () => {
      assert.throws(() => parseCommandArgs(args, OPTIONS), (error) => {
        assert.ok(error instanceof UsageError, String(error));
        assert.match(error.message, message);
        return true;
      });
    });
  }
  assert.throws(() => requiredOption(undefined, "repo"), UsageError);
  assert.throws(() => requiredOption("", "repo"), /"--repo"/);
  assert.equal(requiredOption("r", "repo"), "r");
});

Deno.test("wantsHelp() sees --help and -h only as options of their own", async (t) => {
  const cases: [string, string[], boolean][] = [
    ["--help alone", ["--help"], true],
    ["-h after an option and its value", ["--now", "x", "-h"], true],
    ["-h after a flag", ["--json", "-h"], true],
    ["-h after an unknown option", ["--frob", "-h"], true],
    ["no help", ["--now", "x"], false],
    ["after --", ["--", "--help"], false],
    ["a longer option", ["--helpful"], false],
    ["-h as the value of a string option", ["--now", "-h"], false],
    ["--help as the value of a string option", ["--now", "--help"], false],
    ["-h given inline", ["--now=-h"], false],
    ["--help with a value", ["--help=yes"], false],
  ];
  for (const [name, args, want] of cases) {
    await t.step(name, () => {
      assert.equal(wantsHelp(args, OPTIONS), want);
    });
  }
});

Deno.test("parseCommandArgs() refuses an empty value and a value that looks like an option", async (t) => {
  const cases: [string, string[], RegExp][] = [
    [
      "an empty value",
      ["--now", ""],
      /^Option "--now" is given an empty value$/,
    ],
    [
      "an empty inline value",
      ["--now="],
      /^Option "--now" is given an empty value$/,
    ],
    [
      "an empty value of a repeatable option",
      ["--label", "a", "--label="],
      /^Option "--label" is given an empty value$/,
    ],
    [
      "-h as the value",
      ["--now", "-h"],
      /^Option "--now" is followed by "-h", which looks like an option rather than its value \(write "--now=-h" if the value really starts with "-"\)$/,
    ],
    [
      "--help as the value",
      ["--now", "--help", "--json"],
      /"--now" is followed by "--help"/,
    ],
    [
      "another option as the value",
      ["--now", "--json"],
      /"--now" is followed by "--json"/,
    ],
    ["-- as the value", ["--now", "--"], /"--now" is followed by "--"/],
  ];
  for (const [name, args, message] of cases) {
    await t.step(name, () => {
      assert.throws(() => parseCommandArgs(args, OPTIONS), (error) => {
        assert.ok(error instanceof UsageError, String(error));
        assert.match(error.message, message);
        return true;
      });
    });
  }
  await t.step("a value starting with - given inline is a value", () => {
    assert.equal(parseCommandArgs(["--now=-1"], OPTIONS).now, "-1");
    assert.equal(parseCommandArgs(["--now", "-"], OPTIONS).now, "-");
  });
});

Deno.test("usageErrorText() names the command, the problem and where the usage is", () => {
  const usage = "Usage:\n  pawl x --y\n";
  const expected = 'pawl x: usage error: Missing required option "--y"\n' +
    'Run "pawl x --help" for its usage.\n';
  assert.equal(
    usageErrorText("x", 'Missing required option "--y"', usage),
    expected,
  );
  // A message that still carries the whole usage is shown without it.
  assert.equal(
    usageErrorText("x", `Missing required option "--y"\n\n${usage}`, usage),
    expected,
  );
  assert.equal(
    usageErrorText("x", 'Missing required option "--y"'),
    expected,
  );
});
