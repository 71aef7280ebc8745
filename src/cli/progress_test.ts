import { deepEqual, equal } from "node:assert/strict";
import { createProgress, holdProgress } from "./progress.ts";

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

Deno.test("holdProgress() keeps everything until released, then passes it in order", () => {
  const out: string[] = [];
  const held = holdProgress(
    createProgress({ terminal: false, write: (t) => out.push(t) }),
  );
  held.step("cloning");
  held.note("waiting");
  deepEqual(out, []);
  held.release();
  deepEqual(out, ["pawl: cloning\n", "pawl: waiting\n"]);
  held.step("fetched");
  deepEqual(out.length, 3);
});

Deno.test("holdProgress() shows nothing once discarded", () => {
  const out: string[] = [];
  const held = holdProgress(
    createProgress({ terminal: false, write: (t) => out.push(t) }),
  );
  held.step("cloning");
  held.discard();
  held.step("fetched");
  held.release();
  deepEqual(out, []);
});
