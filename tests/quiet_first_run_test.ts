/**
 * The README's quick start on a fresh checkout: `deno task demo` with no
 * `node_modules` yet prints the demo and at most a couple of lines of
 * set-up noise (no per-package "Initialize" lines, no build-script box),
 * and says which uid the sample's tests ran as.
 */
import assert from "node:assert/strict";
import { check, E2E_SANDBOX_UIDS, explain, ROOT } from "./_cli.ts";
import { buildRepo } from "./_repo.ts";

async function freshCheckout(): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "pawl-fresh-" });
  const listed = await new Deno.Command("git", {
    args: [
      "-C",
      ROOT,
      "ls-files",
      "-z",
      "--cached",
      "--others",
      "--exclude-standard",
    ],
    stdout: "piped",
  }).output();
  assert.equal(listed.code, 0);
  const files = new TextDecoder().decode(listed.stdout).split("\0").filter(
    (path) => path !== "" && !path.startsWith("node_modules/"),
  );
  for (const path of files) {
    const from = `${ROOT}/${path}`;
    const info = await Deno.lstat(from).catch(() => undefined);
    if (info === undefined || !info.isFile) continue;
    const to = `${dir}/${path}`;
    await Deno.mkdir(to.slice(0, to.lastIndexOf("/")), { recursive: true });
    await Deno.copyFile(from, to);
  }
  return dir;
}

Deno.test("deno task demo on a fresh checkout prints at most two lines of set-up noise and the tests' uid", async () => {
  const dir = await freshCheckout();
  try {
    assert.equal(
      await Deno.lstat(`${dir}/node_modules`).catch(() => null),
      null,
    );
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["task", "demo"],
      cwd: dir,
      env: { PAWL_SANDBOX_UIDS: E2E_SANDBOX_UIDS, NO_COLOR: "1" },
      stdout: "piped",
      stderr: "piped",
    }).output();
    const stdout = new TextDecoder().decode(out.stdout);
    const stderr = new TextDecoder().decode(out.stderr);
    const all = `${stderr}\n----\n${stdout}`;
    assert.equal(out.code, 0, all);
    // Everything on stderr that is not pawl's own progress is set-up noise.
    const noise = stderr.split("\n").filter((line) =>
      line.trim() !== "" && !line.startsWith("pawl: ") &&
      !line.startsWith("Note: ")
    );
    assert.ok(noise.length <= 2, all);
    assert.ok(!/Initialize|build script|approve-scripts/i.test(all), all);
    assert.match(
      stdout,
      /^The tests ran as (uids? [0-9, –]+ \((the same gid|gids? [0-9, –]+)\) in the \w+ sandbox, not as pawl's own uid \d+|pawl's own uid \d+: no uid isolation \(--isolation none\))\.$/m,
    );
    if (Deno.uid() === 0) {
      const uid = Number(/ran as uids? (\d+)/.exec(stdout)?.[1]);
      const [first, last] = E2E_SANDBOX_UIDS.split("-").map(Number);
      assert.ok(uid >= first! && uid <= last!, stdout);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("pawl check says on stderr which uid the tests ran as, and --quiet keeps it quiet", async () => {
  await using repo = await buildRepo({
    heads: { "agent/readme": { "README.md": "# payments\n" } },
  });
  const loud = await check(repo.dir, "agent/readme", { quiet: false });
  assert.equal(loud.code, 0, explain(loud));
  const line = loud.stderr.split("\n").filter((l) =>
    l.startsWith("pawl: The tests ran as ")
  );
  assert.equal(line.length, 1, loud.stderr);
  if (Deno.uid() === 0) {
    // The suite's uid, and the spare ones the properties ran beside it in.
    const listed = /ran as uids? ([0-9, –]+) \(/.exec(line[0]!)?.[1] ?? "";
    const uids = listed.split(", ").flatMap((part) => {
      const [from, to = from] = part.split("–").map(Number);
      return Array.from({ length: to! - from! + 1 }, (_, i) => from! + i);
    });
    const [first, last] = E2E_SANDBOX_UIDS.split("-").map(Number);
    assert.ok(uids.length > 0, line[0]);
    for (const uid of uids) {
      assert.ok(uid >= first! && uid <= last!, line[0]);
    }
  }
  assert.ok(!loud.stdout.includes("ran as"), loud.stdout);
  const quiet = await check(repo.dir, "agent/readme");
  assert.equal(quiet.code, 0, explain(quiet));
  assert.ok(!quiet.stderr.includes("ran as"), quiet.stderr);
});
