/**
 * Files pawl writes can be read by a later CI step running as another user:
 * reports are 0644 whatever the umask, in the directory the user named;
 * only the private key is 0600.
 */
import assert from "node:assert/strict";
import { check, explain, pawl } from "./_cli.ts";
import { buildRepo, type TestRepo } from "./_repo.ts";

/** Run the CLI under `umask 077`, as a locked-down CI runner might. */
const UMASK_077 = ["sh", "-c", 'umask 077 && exec "$0" "$@"'];

async function modeOf(path: string): Promise<number> {
  return (await Deno.stat(path)).mode! & 0o777;
}

Deno.test("pawl diff writes every report 0644 under umask 077, where it was told", async () => {
  await using repo: TestRepo = await buildRepo({
    heads: { "modes/conftest": { "tests/conftest.py": "x = 1\n" } },
  });
  const dir = await Deno.makeTempDir({ prefix: "pawl-e2e-modes-" });
  try {
    await Deno.mkdir(`${dir}/reports`);
    const files = {
      out: `${dir}/reports/verdict.json`,
      sarif: `${dir}/reports/pawl.sarif`,
      junit: `${dir}/reports/pawl.xml`,
      markdown: `${dir}/reports/pawl.md`,
    };
    const result = await check(repo.dir, "modes/conftest", {
      command: "diff",
      out: files.out,
      wrapper: UMASK_077,
      extra: [
        "--sarif",
        files.sarif,
        "--junit",
        files.junit,
        "--markdown",
        files.markdown,
      ],
    });
    assert.equal(result.code, 1, explain(result));
    for (const [kind, path] of Object.entries(files)) {
      assert.equal(await modeOf(path), 0o644, `${kind}: ${path}`);
    }
    const names = [];
    for await (const entry of Deno.readDir(`${dir}/reports`)) {
      names.push(entry.name);
    }
    assert.deepEqual(names.sort(), [
      "pawl.md",
      "pawl.sarif",
      "pawl.xml",
      "verdict.json",
    ]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("pawl keygen under umask 077 writes the key 0600 and the public key 0644", async () => {
  const dir = await Deno.makeTempDir({ prefix: "pawl-e2e-modes-" });
  try {
    const result = await pawl(["keygen", "--out", `${dir}/pawl.key`], {
      out: false,
      wrapper: UMASK_077,
    });
    assert.equal(result.code, 0, explain(result));
    assert.equal(await modeOf(`${dir}/pawl.key`), 0o600);
    assert.equal(await modeOf(`${dir}/pawl.key.pub`), 0o644);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
