import assert from "node:assert/strict";
import { ScriptedSandbox, withRunDirs } from "../_scripted_sandbox.ts";
import { installObserver } from "../observer.ts";
import {
  CALLS_IN_ALL,
  CALLS_PER_FUNCTION,
  RECORD_BYTES,
  recordCalls,
  writeSpec,
} from "./record_calls.ts";

Deno.test("recordCalls() runs nothing and records nothing without an installed recorder", async () => {
  await withRunDirs(async (dirs) => {
    const { recorder: _, ...observer } = await installObserver(dirs.reportDir);
    const sandbox = new ScriptedSandbox(() => ({ code: 0 }));
    assert.equal(
      await recordCalls(sandbox, { ...dirs, observer, codeFiles: [] }),
      null,
    );
    assert.deepEqual(sandbox.calls, []);
  });
});

Deno.test("recordCalls() loads the recorder after the run's own command and keeps the run's environment", async () => {
  await withRunDirs(async (dirs) => {
    const observer = await installObserver(dirs.reportDir);
    const sandbox = new ScriptedSandbox(() => ({ code: 0 }));
    const recording = await recordCalls(sandbox, {
      ...dirs,
      observer,
      command: ["python3.12", "-m", "pytest", "-x"],
      env: { CONTRACT_SEED: "7" },
      codeFiles: ["pkg/core.py"],
    });
    assert.equal(recording?.complete, false);
    const command = sandbox.calls[0];
    assert.deepEqual(command?.argv.slice(0, 6), [
      "python3.12",
      "-m",
      "pytest",
      "-x",
      "-p",
      observer.recorder,
    ]);
    assert.equal(command?.env["CONTRACT_SEED"], "7");
    const spec = JSON.parse(
      await Deno.readTextFile(command?.env["PAWL_RECORD_SPEC"] as string),
    );
    assert.deepEqual(spec.code, ["pkg/core.py"]);
  });
});

Deno.test("recordCalls() runs pytest with python3 when the run names no command", async () => {
  await withRunDirs(async (dirs) => {
    const observer = await installObserver(dirs.reportDir);
    const sandbox = new ScriptedSandbox(() => ({ code: 0 }));
    await recordCalls(sandbox, { ...dirs, observer, codeFiles: [] });
    assert.deepEqual(sandbox.calls[0]?.argv.slice(0, 5), [
      "python3",
      "-m",
      "pytest",
      "-p",
      observer.recorder,
    ]);
  });
});

Deno.test("writeSpec() leaves its file readable by every uid and writable by none", async () => {
  await withRunDirs(async ({ reportDir }) => {
    const path = await writeSpec(reportDir, "spec", { a: 1 });
    assert.deepEqual(JSON.parse(await Deno.readTextFile(path)), { a: 1 });
    assert.equal((await Deno.stat(path)).mode! & 0o777, 0o444);
    const dir = path.slice(0, path.lastIndexOf("/"));
    assert.equal((await Deno.stat(dir)).mode! & 0o777, 0o555);
    assert.ok(dir.startsWith(`${reportDir}/spec-`));
    await Deno.chmod(dir, 0o755);
  });
});

Deno.test("recordCalls() bounds the recorder and reads only what comes back on its own channel", async () => {
  await withRunDirs(async (dirs) => {
    const observer = await installObserver(dirs.reportDir);
    const sandbox = new ScriptedSandbox(async ({ command }) => {
      const spec = JSON.parse(
        await Deno.readTextFile(command.env["PAWL_RECORD_SPEC"] as string),
      );
      assert.deepEqual([spec.per, spec.total, spec.bytes], [
        CALLS_PER_FUNCTION,
        CALLS_IN_ALL,
        RECORD_BYTES,
      ]);
      assert.notEqual(spec.token, command.env["PAWL_OBSERVER_TOKEN"]);
      const conn = await Deno.connect({ transport: "unix", path: spec.socket });
      const lines = [
        { hello: spec.token },
        { roots: ["src"], ran: [] },
        { end: true, skipped: 0 },
      ].map((l) => `${JSON.stringify(l)}\n`).join("");
      const bytes = new TextEncoder().encode(lines);
      for (let n = 0; n < bytes.length;) {
        n += await conn.write(bytes.subarray(n));
      }
      conn.close();
      return { code: 0 };
    });
    const recording = await recordCalls(sandbox, {
      ...dirs,
      observer,
      codeFiles: [],
    });
    assert.deepEqual(recording, {
      roots: ["src"],
      importRan: [],
      calls: [],
      complete: true,
    });
  });
});
