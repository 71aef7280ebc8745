import { deepEqual, equal } from "node:assert/strict";
import { createProgress } from "./progress.ts";

Deno.test("createProgress() writes one plain line per step in CI logs", () => {
  const out: string[] = [];
  const p = createProgress({ terminal: false, write: (t) => out.push(t) });
  p.step("cloning");
  p.detail("Receiving objects: 10%");
  p.note("done");
  p.end();
  deepEqual(out, ["pawl: cloning\n", "pawl: done\n"]);
});

Deno.test("createProgress() rewrites one live line on a terminal", () => {
  const out: string[] = [];
  const p = createProgress({ terminal: true, write: (t) => out.push(t) });
  p.step("hashing");
  p.detail("3/10");
  p.end();
  const text = out.join("");
  equal(text.includes("\n"), false);
  equal(text.includes("hashing: 3/10"), true);
  equal(text.endsWith("\r\x1b[2K"), true);
});
