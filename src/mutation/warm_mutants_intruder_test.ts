/**
 * The warm engine against code under test that connects to the warm
 * interpreter's channel (here the driver leaves the socket's path in the
 * tree; in a sandbox the code would have to find it): the session's runs
 * count for nothing, and the mutants run one process each.
 */
import assert from "node:assert/strict";
import { runColdMutants } from "./cold_mutants.ts";
import { fixture, TEST, warm, wrappedDriver } from "./_warm_mutants_fixture.ts";

Deno.test("runWarmMutants() counts nothing of a session whose channel the code under test connected to", async () => {
  await using f = await fixture();
  // pawl's own driver, leaving its socket's path where the tests look.
  const driver = await wrappedDriver(
    f.root,
    'open("SOCKET", "w").write(os.environ["PAWL_DRIVER_SOCKET"])',
  );
  const intruder = `import os as _os
import socket as _socket

_held = []
if _os.path.exists("SOCKET"):
    _s = _socket.socket(_socket.AF_UNIX)
    try:
        _s.connect(open("SOCKET").read())
        _held.append(_s)
    except OSError:
        pass

${TEST}`;
  const all = await f.options({ "tests/test_kit.py": intruder });
  const options = {
    ...all,
    mutants: all.mutants.filter((m) => m.function === "clamp").slice(0, 3),
  };
  const ran = await warm(f, options, driver);
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
