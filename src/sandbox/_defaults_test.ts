import assert from "node:assert/strict";
import { readSettings } from "../settings/read_settings.ts";
import { ALWAYS_HIDDEN, DEFAULT_LIMITS } from "./_defaults.ts";

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
