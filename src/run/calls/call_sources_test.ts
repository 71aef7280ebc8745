import assert from "node:assert/strict";
import {
  callRecorderSource,
  callReplayerSource,
  withoutCommentLines,
} from "./call_sources.ts";

Deno.test("withoutCommentLines() drops full-line comments, indented or not, and keeps every code line whole", async (t) => {
  const cases: [string, string, string][] = [
    ["a comment line", "# how it works\nx = 1", "x = 1"],
    [
      "an indented comment line",
      "def f():\n    # why\n    return 1",
      "def f():\n    return 1",
    ],
    ["a comment after code", "x = 1  # the count", "x = 1  # the count"],
    ["a hash inside a string", 'x = "#1"', 'x = "#1"'],
    ["blank lines", "x = 1\n\ny = 2", "x = 1\n\ny = 2"],
  ];
  for (const [name, text, want] of cases) {
    await t.step(name, () => assert.equal(withoutCommentLines(text), want));
  }
});

Deno.test("the replayer's source is the value forms and the replayer, with no comment line, and the recorder's is both whole", async () => {
  const forms = await Deno.readTextFile(
    new URL("./call_forms.py", import.meta.url),
  );
  const replayer = await Deno.readTextFile(
    new URL("./call_replayer.py", import.meta.url),
  );
  const recorder = await Deno.readTextFile(
    new URL("./call_recorder.py", import.meta.url),
  );
  assert.equal(
    await callReplayerSource(),
    withoutCommentLines(`${forms}\n${replayer}`),
  );
  assert.equal(await callRecorderSource(), `${forms}\n${recorder}`);
});
