import assert from "node:assert/strict";
import { progressLine } from "./progress_lines.ts";

Deno.test("a CI progress line says how many mutants ran of how many, how many went undetected, and the time so far", () => {
  assert.equal(
    progressLine(0, 940, 0, 4.6),
    "mutate: 0 of 940 mutants run, 0 undetected, 4s",
  );
  assert.equal(
    progressLine(120, 940, 12, 65.2),
    "mutate: 120 of 940 mutants run, 12 undetected, 1m 05s",
  );
  assert.equal(
    progressLine(940, 940, 206, 3600),
    "mutate: 940 of 940 mutants run, 206 undetected, 60m 00s",
  );
});
