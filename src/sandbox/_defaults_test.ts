import assert from "node:assert/strict";
import { readSettings } from "../settings/read_settings.ts";
import {
  ALWAYS_HIDDEN,
  DEFAULT_LIMITS,
  DEFAULT_PATH,
  DEFAULT_TMP_BYTES,
} from "./_defaults.ts";
import { findExecutable } from "./find_executable.ts";

Deno.test("a command that leaves its limits out gets pawl.toml's documented [tests] defaults", () => {
  const tests = readSettings("").tests;
  assert.equal(DEFAULT_LIMITS.timeoutMs, tests.timeout_seconds * 1000);
  assert.equal(
    DEFAULT_LIMITS.maxOutputBytes,
    tests.max_output_mib * 1024 * 1024,
  );
  assert.equal(DEFAULT_LIMITS.maxProcesses, tests.max_processes);
  assert.ok(Object.isFrozen(DEFAULT_LIMITS));
});

Deno.test("root's home, where keys and credentials live, is hidden from every command", () => {
  assert.ok(ALWAYS_HIDDEN.includes("/root"));
});

Deno.test("a command whose environment has no PATH still finds the system's programs", async () => {
  const dirs = DEFAULT_PATH.split(":");
  assert.ok(dirs.includes("/usr/bin") && dirs.includes("/bin"));
  assert.equal(await findExecutable("python3", dirs), "/usr/bin/python3");
});

Deno.test("the private /tmp a bubblewrap sandbox gets holds 512 MiB", () => {
  assert.equal(DEFAULT_TMP_BYTES, 512 * 1024 * 1024);
});
