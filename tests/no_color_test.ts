/**
 * The text report is coloured on a terminal unless `--no-color` is passed
 * or `NO_COLOR` is set to anything but the empty string (no-color.org).
 */
import assert from "node:assert/strict";
import { checkCommand } from "../src/cli/check_command.ts";
import { E2E_SANDBOX_UIDS, NOW } from "./_cli.ts";
import { buildRepo } from "./_repo.ts";

Deno.test("pawl diff on a terminal colours its report unless NO_COLOR is set or --no-color is passed", async (t) => {
  await using repo = await buildRepo({
    heads: { "agent/conftest": { "tests/conftest.py": "x = 1\n" } },
  });
  const cases: {
    name: string;
    env: Record<string, string>;
    flags: string[];
    colour: boolean;
  }[] = [
    { name: "a terminal", env: {}, flags: [], colour: true },
    { name: "NO_COLOR=1", env: { NO_COLOR: "1" }, flags: [], colour: false },
    { name: "NO_COLOR=0", env: { NO_COLOR: "0" }, flags: [], colour: false },
    { name: "NO_COLOR empty", env: { NO_COLOR: "" }, flags: [], colour: true },
    { name: "--no-color", env: {}, flags: ["--no-color"], colour: false },
  ];
  for (const c of cases) {
    await t.step(c.name, async () => {
      let stdout = "";
      const code = await checkCommand([
        "--repo",
        repo.dir,
        "--base",
        "main",
        "--head",
        "agent/conftest",
        "--now",
        NOW,
        "--quiet",
        ...c.flags,
      ], {
        out: (text) => stdout += text,
        err: () => {},
        env: {
          PATH: Deno.env.get("PATH") ?? "",
          PAWL_SANDBOX_UIDS: E2E_SANDBOX_UIDS,
          ...c.env,
        },
        terminal: true,
      }, { runTests: false });
      assert.equal(code, 1, stdout);
      assert.equal(stdout.includes("\x1b["), c.colour, stdout);
    });
  }
});
