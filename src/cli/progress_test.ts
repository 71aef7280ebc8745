import { deepEqual, equal, match } from "node:assert/strict";
import {
  cliProgress,
  createProgress,
  holdProgress,
  type ProgressClock,
} from "./progress.ts";
import { SILENT_PROGRESS } from "../core/progress.ts";

/** A clock whose time moves only when told, firing due timers in order. */
function fakeClock(): ProgressClock & { advance(ms: number): void } {
  let now = 0;
  const timers: { ms: number; tick: () => void; next: number; on: boolean }[] =
    [];
  return {
    now: () => now,
    every(ms, tick) {
      const timer = { ms, tick, next: now + ms, on: true };
      timers.push(timer);
      return () => {
        timer.on = false;
      };
    },
    advance(ms) {
      const end = now + ms;
      for (;;) {
        const due = timers.filter((t) => t.on && t.next <= end)
          .sort((a, b) => a.next - b.next)[0];
        if (due === undefined) break;
        now = due.next;
        due.next += due.ms;
        due.tick();
      }
      now = end;
    },
  };
}

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

const TESTS = "running the tests (sandbox: bwrap, network isolated, seed 1)";

Deno.test("createProgress() prints the tests' counts, their time and the running test every interval in a CI log", () => {
  const clock = fakeClock();
  const out: string[] = [];
  const p = createProgress({
    terminal: false,
    write: (t) => out.push(t),
    clock,
    intervalMs: 20_000,
  });
  p.step(TESTS);
  const suite = p.tests?.("suite");
  suite?.collected(["t.py::a", "t.py::b", "t.py::c"]);
  clock.advance(5_000);
  suite?.reported("t.py::a", "passed");
  clock.advance(10_000);
  suite?.reported("t.py::b", "failed");
  p.detail("t.py .F");
  clock.advance(5_000);
  const alone = p.tests?.("properties");
  alone?.collected(["p.py::x"]);
  alone?.reported("p.py::x", "skipped");
  alone?.end();
  clock.advance(20_000);
  p.end();
  clock.advance(60_000);
  deepEqual(out, [
    `pawl: ${TESTS}\n`,
    "pawl: tests 20 s; suite 2/3: 1 passed, 1 failed, 0 skipped; running t.py::c for 5 s\n",
    "pawl: tests 40 s; suite 2/3: 1 passed, 1 failed, 0 skipped; properties done: 0 passed, 0 failed, 1 skipped; running t.py::c for 25 s\n",
  ]);
});

Deno.test("createProgress() counts a test once, by its worst phase, and sums the runs of one label", () => {
  const clock = fakeClock();
  const out: string[] = [];
  const p = createProgress({
    terminal: false,
    write: (t) => out.push(t),
    clock,
    intervalMs: 1_000,
  });
  const first = p.tests?.("suite");
  first?.collected(["t.py::a", "t.py::b"]);
  first?.reported("t.py::a", "passed");
  first?.reported("t.py::a", "failed");
  first?.reported("t.py::a", "passed");
  first?.reported("t.py::b", "skipped");
  first?.end();
  const rerun = p.tests?.("suite");
  rerun?.collected(["t.py::a"]);
  clock.advance(1_000);
  p.end();
  deepEqual(out, [
    "pawl: tests 1 s; suite 2/3: 0 passed, 1 failed, 1 skipped; running t.py::a for 1 s\n",
  ]);
});

Deno.test("createProgress() says in a CI log that a step is still going when it prints nothing else", () => {
  const clock = fakeClock();
  const out: string[] = [];
  const p = createProgress({
    terminal: false,
    write: (t) => out.push(t),
    clock,
  });
  p.step("cloning https://example.com/r.git");
  clock.advance(45_000);
  p.end();
  clock.advance(45_000);
  deepEqual(out, [
    "pawl: cloning https://example.com/r.git\n",
    "pawl: still working (the last step began 20 s ago)\n",
    "pawl: still working (the last step began 40 s ago)\n",
  ]);
});

Deno.test("createProgress() shows the tests' counts on the terminal's live line instead of their output", () => {
  const clock = fakeClock();
  const out: string[] = [];
  const p = createProgress({
    terminal: true,
    write: (t) => out.push(t),
    clock,
    color: false,
  });
  p.step(TESTS);
  const suite = p.tests?.("suite");
  suite?.collected(["t.py::a", "t.py::b"]);
  suite?.reported("t.py::a", "passed");
  p.detail("t.py . [ 50%]");
  const alone = p.tests?.("properties");
  alone?.collected(["p.py::x"]);
  alone?.reported("p.py::x", "skipped");
  clock.advance(3_000);
  const text = out.join("");
  equal(text.includes("\n"), false);
  equal(text.includes("50%"), false);
  equal(text.includes("\x1b[2m"), false, "no dimming without colour");
  equal(
    out.at(-1),
    "… tests 3 s; 1 passed, 0 failed, 1 skipped; suite 1/2, properties 1/1; running t.py::b for 3 s",
  );
  p.end();
  equal(out.at(-1), "\r\x1b[2K");
});

Deno.test("createProgress() prints a test's node id without its control characters", () => {
  const clock = fakeClock();
  const out: string[] = [];
  const p = createProgress({
    terminal: false,
    write: (t) => out.push(t),
    clock,
    intervalMs: 1_000,
  });
  p.tests?.("suite")?.collected(["t.py::a[\x1b[31mred\r]"]);
  clock.advance(1_000);
  p.end();
  match(out.join(""), /running t\.py::a\[\?\[31mred\?\] for 1 s\n$/);
});

Deno.test("cliProgress() prints nothing with --quiet, and no colour under NO_COLOR", () => {
  const io = (env: Record<string, string>, out: string[]) => ({
    out: () => {},
    err: (t: string) => out.push(t),
    env,
    terminal: true,
  });
  equal(cliProgress(io({}, []), { quiet: true }), SILENT_PROGRESS);
  for (
    const [env, dimmed] of [
      [{}, true],
      [{ NO_COLOR: "1" }, false],
      [{ NO_COLOR: "" }, true],
    ] as const
  ) {
    const out: string[] = [];
    const p = cliProgress(io(env, out), { quiet: false });
    p.step("hashing");
    p.end();
    equal(out.join("").includes("\x1b[2m"), dimmed, JSON.stringify(env));
  }
});

Deno.test("holdProgress() counts no tests while held", () => {
  const p = createProgress({ terminal: false, write: () => {} });
  const held = holdProgress(p);
  equal(held.tests?.("suite"), undefined);
  held.release();
  equal(typeof held.tests?.("suite")?.collected, "function");
});
