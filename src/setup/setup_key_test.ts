import assert from "node:assert/strict";
import { setupKey, type SetupKeyParts } from "./setup_key.ts";

const PARTS: SetupKeyParts = {
  command: ["sh", "setup.sh"],
  network: false,
  inputs: [
    { path: "requirements-dev.txt", sha256: "a".repeat(64), executable: false },
    { path: "setup.sh", sha256: "b".repeat(64), executable: true },
  ],
  runner: {
    osRelease: "c".repeat(64),
    path: "/usr/bin:/bin",
    programs: [{
      name: "python3",
      path: "/usr/bin/python3.11",
      sha256: "d".repeat(64),
    }],
  },
};

Deno.test("setupKey() ignores the order inputs are listed in", () => {
  assert.equal(
    setupKey({ ...PARTS, inputs: [...PARTS.inputs].reverse() }),
    setupKey(PARTS),
  );
});

Deno.test("setupKey() changes with every part that decides what the step writes", async (t) => {
  const key = setupKey(PARTS);
  const [req, script] = PARTS.inputs;
  const cases: [string, SetupKeyParts][] = [
    ["the command", { ...PARTS, command: ["sh", "setup.sh", "--dev"] }],
    ["network", { ...PARTS, network: true }],
    ["an input's content", {
      ...PARTS,
      inputs: [{ ...req!, sha256: "e".repeat(64) }, script!],
    }],
    ["an input's mode", {
      ...PARTS,
      inputs: [req!, { ...script!, executable: false }],
    }],
    ["an input's path", {
      ...PARTS,
      inputs: [{ ...req!, path: "requirements.txt" }, script!],
    }],
    ["an input more", {
      ...PARTS,
      inputs: [...PARTS.inputs, { ...req!, path: "uv.lock" }],
    }],
    ["the image", {
      ...PARTS,
      runner: { ...PARTS.runner, osRelease: null },
    }],
    ["the sandbox PATH", {
      ...PARTS,
      runner: { ...PARTS.runner, path: "/opt/venv/bin:/usr/bin:/bin" },
    }],
    ["the interpreter's bytes", {
      ...PARTS,
      runner: {
        ...PARTS.runner,
        programs: [{ ...PARTS.runner.programs[0]!, sha256: "f".repeat(64) }],
      },
    }],
  ];
  for (const [name, parts] of cases) {
    await t.step(name, () => assert.notEqual(setupKey(parts), key));
  }
});
