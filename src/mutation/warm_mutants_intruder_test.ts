/**
 * The warm engine against code under test that connects to the warm
 * interpreter's channel (here it is handed the directory the socket is
 * in; in a sandbox it would have to find it): the session's runs count
 * for nothing, and the mutants run one process each.
 */
import assert from "node:assert/strict";
import { runColdMutants } from "./cold_mutants.ts";
import { fixture, TEST, warm } from "./_warm_mutants_fixture.ts";

Deno.test("runWarmMutants() counts nothing of a session whose channel the code under test connected to", async () => {
  await using f = await fixture();
  const intruder = `import glob as _glob
import socket as _socket

_held = []
for _path in _glob.glob(${JSON.stringify(`${f.observer.channels}/d*.sock`)}):
    _s = _socket.socket(_socket.AF_UNIX)
    try:
        _s.connect(_path)
        _held.append(_s)
    except OSError:
        pass

${TEST}`;
  const all = await f.options({ "tests/test_kit.py": intruder });
  const options = {
    ...all,
    mutants: all.mutants.filter((m) => m.function === "clamp").slice(0, 3),
  };
  const ran = await warm(f, options);
  assert.ok(
    f.progress.some((l) =>
      l.startsWith(
        "mutation: the code under test connected to the warm interpreter's channel: ",
      )
    ),
    f.progress.join("\n"),
  );
  const cold = await runColdMutants(options);
  assert.deepEqual(
    ran.results.map((r) => [r.mutant.id, r.base]),
    cold.results.map((r) => [r.mutant.id, r.base]),
  );
  assert.ok(cold.results.some((r) => r.base["000/clamp"] === "killed"));
});
