import assert from "node:assert/strict";
import { currentUid, findTools } from "./_setup.ts";
import { findExecutable, SYSTEM_DIRS } from "./_exec.ts";

Deno.test("currentUid() asks id(1) once per process, and asks again after a failure", async () => {
  const dir = await Deno.makeTempDir({ prefix: "pawl-setup-test-" });
  try {
    const calls = `${dir}/calls`;
    const answer = `${dir}/answer`;
    await Deno.writeTextFile(answer, "not a uid\n");
    // An id(1) that counts its calls and prints what `answer` holds.
    await Deno.writeTextFile(
      `${dir}/id`,
      `#!/bin/sh\necho x >> '${calls}'\ncat '${answer}'\n`,
      { mode: 0o755 },
    );
    const tools = await findTools([dir]);
    assert.equal(tools.id, `${dir}/id`);
    const count = async () =>
      (await Deno.readTextFile(calls)).split("\n").filter((l) => l).length;
    await assert.rejects(currentUid(tools), /Cannot tell which uid/);
    await Deno.writeTextFile(answer, "4242\n");
    assert.equal(await currentUid(tools), 4242);
    assert.equal(await currentUid(tools), 4242);
    // The failure was not kept; the answer was.
    assert.equal(await count(), 2);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("findTools() finds each tool where a one-by-one search would", async () => {
  const tools = await findTools(SYSTEM_DIRS);
  for (const name of ["prlimit", "env", "setpriv", "kill", "id", "chown"]) {
    assert.equal(
      tools[name as keyof typeof tools],
      await findExecutable(name, SYSTEM_DIRS),
    );
  }
});
