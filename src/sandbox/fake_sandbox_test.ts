import assert from "node:assert/strict";
import { FakeSandbox } from "./fake_sandbox.ts";
import type { SandboxCommand } from "./sandbox.ts";

Deno.test("FakeSandbox records commands and lets the handler write files as a test run would", async () => {
  const dir = await Deno.makeTempDir({ prefix: "pawl-fake-sandbox-" });
  try {
    const sandbox = new FakeSandbox(async (command) => {
      await Deno.writeTextFile(
        `${command.writable[0]}/junit.xml`,
        "<testsuites/>",
      );
      return { code: 1, outputHead: "1 failed, 2 passed\n" };
    });
    await sandbox.prepareDir(dir);
    const seen: Uint8Array[] = [];
    const command: SandboxCommand = {
      argv: ["python3", "-m", "pytest"],
      cwd: dir,
      env: { PATH: "/usr/bin" },
      writable: [dir],
      onOutput: (chunk) => seen.push(chunk),
    };
    const result = await sandbox.run(command);
    assert.deepEqual(result, {
      code: 1,
      signal: null,
      timedOut: false,
      outputExceeded: false,
      outputHead: "1 failed, 2 passed\n",
      outputTail: "1 failed, 2 passed\n",
      outputBytes: 19,
    });
    assert.equal(await Deno.readTextFile(`${dir}/junit.xml`), "<testsuites/>");
    assert.deepEqual(sandbox.commands, [command]);
    assert.deepEqual(sandbox.preparedDirs, [dir]);
    assert.equal(new TextDecoder().decode(seen[0]), "1 failed, 2 passed\n");
    assert.equal(sandbox.isolation.tier, "none");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("FakeSandbox fills a clean exit, and a null code for a signal", async (t) => {
  await t.step("empty handler result", async () => {
    const sandbox = new FakeSandbox(() => ({}));
    const result = await sandbox.run({
      argv: ["true"],
      cwd: "/",
      env: {},
      writable: [],
    });
    assert.deepEqual(result, {
      code: 0,
      signal: null,
      timedOut: false,
      outputExceeded: false,
      outputHead: "",
      outputTail: "",
      outputBytes: 0,
    });
  });
  await t.step("a timeout", async () => {
    const sandbox = new FakeSandbox(
      () => ({ signal: "SIGKILL", timedOut: true }),
      {
        isolation: {
          tier: "bwrap",
          network: "isolated",
          uid: 64123,
          notes: [],
        },
      },
    );
    const result = await sandbox.run({
      argv: ["sleep", "9"],
      cwd: "/",
      env: {},
      writable: [],
    });
    assert.equal(result.code, null);
    assert.equal(result.signal, "SIGKILL");
    assert.equal(result.timedOut, true);
    assert.equal(sandbox.isolation.tier, "bwrap");
  });
});
