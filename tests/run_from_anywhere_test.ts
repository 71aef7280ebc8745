/**
 * The documented ways to run pawl (docs/cli.md, "Running pawl") from a
 * directory that is not pawl's checkout: `bin/pawl` through a symbolic link
 * on PATH, and `deno task pawl` with pawl's deno.json named. Relative paths
 * on the command line are the caller's in both.
 */
import assert from "node:assert/strict";
import { NOW, ROOT } from "./_cli.ts";
import { buildRepo, type TestRepo } from "./_repo.ts";

// deno-lint-ignore no-explicit-any
type Json = any;

interface Ran {
  code: number;
  stdout: string;
  stderr: string;
}

async function run(
  cmd: string,
  args: readonly string[],
  cwd: string,
  path: string,
): Promise<Ran> {
  // As from a shell: a deno task this test runs under sets INIT_CWD, and
  // Deno keeps a value it inherits, which would name that task's directory.
  const env = Deno.env.toObject();
  delete env["INIT_CWD"];
  const out = await new Deno.Command(cmd, {
    args: [...args],
    cwd,
    clearEnv: true,
    env: { ...env, PATH: path, NO_COLOR: "1" },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
  return {
    code: out.code,
    stdout: decode(out.stdout),
    stderr: decode(out.stderr),
  };
}

/** `pawl diff --repo .` of the repository's honest head, as a command line. */
const DIFF_HERE = [
  "diff",
  "--repo",
  ".",
  "--base",
  "main",
  "--head",
  "agent/readme",
  "--now",
  NOW,
  "--json",
  "--quiet",
];

async function assertJudgedHere(r: Ran, repo: TestRepo): Promise<void> {
  assert.equal(r.code, 0, `${r.stderr}\n${r.stdout}`);
  const verdict: Json = JSON.parse(r.stdout);
  assert.equal(verdict.decision, "accept");
  assert.equal(verdict.head, await repo.commit("agent/readme"));
}

Deno.test("pawl runs from any directory, with relative paths resolved against it", async (t) => {
  await using repo = await buildRepo({
    heads: { "agent/readme": { "README.md": "# payments\n\nA note.\n" } },
  });
  const bin = await Deno.makeTempDir({ prefix: "pawl-path-" });
  const deno = Deno.execPath();
  const denoDir = deno.slice(0, deno.lastIndexOf("/"));
  const path = `${bin}:${denoDir}:/usr/local/bin:/usr/bin:/bin`;
  try {
    await t.step(
      "bin/pawl through a symbolic link on PATH, in the repository",
      async () => {
        await Deno.symlink(`${ROOT}/bin/pawl`, `${bin}/pawl`);
        const r = await run("pawl", DIFF_HERE, repo.dir, path);
        await assertJudgedHere(r, repo);
      },
    );
    await t.step(
      "bin/pawl through a relative symbolic link to it",
      async () => {
        const hop = await Deno.makeTempDir({ prefix: "pawl-hop-" });
        try {
          await Deno.symlink(`${ROOT}/bin/pawl`, `${hop}/pawl`);
          await Deno.symlink(`../${hop.split("/").pop()}/pawl`, `${bin}/p2`);
          const r = await run("p2", DIFF_HERE, repo.dir, path);
          await assertJudgedHere(r, repo);
        } finally {
          await Deno.remove(hop, { recursive: true });
        }
      },
    );
    await t.step(
      "deno task pawl with pawl's deno.json, in the repository",
      async () => {
        const r = await run(
          deno,
          [
            "task",
            "--quiet",
            "--config",
            `${ROOT}/deno.json`,
            "pawl",
            ...DIFF_HERE,
          ],
          repo.dir,
          path,
        );
        await assertJudgedHere(r, repo);
      },
    );
  } finally {
    await Deno.remove(bin, { recursive: true });
  }
});
