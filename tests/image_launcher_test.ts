/**
 * The image's launcher (tools/image_launcher.sh, installed as
 * /usr/local/bin/pawl and pawl-action), run on the host with a stand-in
 * `deno` that records what it was started with. On a read-only DENO_DIR
 * (bound read-only in a private mount namespace, as a `docker run
 * --read-only` root file system is) it must start Deno on a private,
 * writable copy of the cache databases that it made itself, and never on a
 * directory someone else put in TMPDIR first.
 */
import assert from "node:assert/strict";
import { ROOT } from "./_cli.ts";

const LAUNCHER = `${ROOT}/tools/image_launcher.sh`;
const UID = (await new Deno.Command("id", { args: ["-u"] }).output()).stdout;
const OWN_NAME = `pawl-deno-dir-${new TextDecoder().decode(UID).trim()}`;

interface Fixture {
  dir: string;
  cache: string;
  tmp: string;
  own: string;
}

/** A cache directory like the image's, an empty TMPDIR, a stand-in deno. */
async function fixture(): Promise<Fixture & AsyncDisposable> {
  const dir = await Deno.makeTempDir({ prefix: "pawl-launcher-test-" });
  const cache = `${dir}/deno-dir`;
  const tmp = `${dir}/tmp`;
  await Deno.mkdir(`${cache}/gen/file`, { recursive: true });
  await Deno.mkdir(`${cache}/npm`);
  await Deno.writeTextFile(`${cache}/v8_code_cache_v2`, "code cache");
  await Deno.writeTextFile(`${cache}/dep_analysis_cache_v2`, "dep cache");
  await Deno.writeTextFile(`${cache}/dep_analysis_cache_v2-wal`, "log");
  await Deno.writeTextFile(`${cache}/gen/file/main.ts.js`, "emitted");
  await Deno.mkdir(tmp, { mode: 0o1777 });
  await Deno.chmod(tmp, 0o1777);
  await Deno.mkdir(`${dir}/bin`);
  await Deno.writeTextFile(
    `${dir}/bin/deno`,
    '#!/bin/sh\nprintf \'%s\\n\' "DENO_DIR=$DENO_DIR" "$@" >"$LAUNCHER_OUT.$$"\n',
    { mode: 0o755 },
  );
  await Deno.copyFile(LAUNCHER, `${dir}/bin/pawl`);
  await Deno.chmod(`${dir}/bin/pawl`, 0o755);
  await Deno.symlink("pawl", `${dir}/bin/pawl-action`);
  return {
    dir,
    cache,
    tmp,
    own: `${tmp}/${OWN_NAME}`,
    async [Symbol.asyncDispose]() {
      await Deno.remove(dir, { recursive: true });
    },
  };
}

/**
 * Run `program` (pawl or pawl-action) `count` times at once, with the
 * cache bound read-only when `readOnly`; what each stand-in deno saw.
 */
async function launch(
  f: Fixture,
  { readOnly, program = "pawl", count = 1 }: {
    readOnly: boolean;
    program?: string;
    count?: number;
  },
): Promise<{ denoDir: string; args: string[] }[]> {
  const starts = Array.from(
    { length: count },
    () => `"${f.dir}/bin/${program}" version & pids="$pids $!"`,
  ).join("\n");
  const script = [
    "set -eu",
    "mount --make-rprivate /",
    ...(readOnly
      ? [
        `mount --bind "${f.cache}" "${f.cache}"`,
        `mount -o remount,bind,ro "${f.cache}"`,
      ]
      : []),
    'pids=""',
    starts,
    'for pid in $pids; do wait "$pid"; done',
  ].join("\n");
  const out = await new Deno.Command("unshare", {
    args: ["--mount", "sh", "-c", script],
    env: {
      PATH: `${f.dir}/bin:/usr/bin:/bin`,
      DENO_DIR: f.cache,
      TMPDIR: f.tmp,
      LAUNCHER_OUT: `${f.dir}/out`,
    },
    clearEnv: true,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
  const seen = [];
  for await (const entry of Deno.readDir(f.dir)) {
    if (!entry.name.startsWith("out.")) continue;
    const [first = "", ...args] = (await Deno.readTextFile(
      `${f.dir}/${entry.name}`,
    )).trimEnd().split("\n");
    seen.push({ denoDir: first.replace(/^DENO_DIR=/, ""), args });
    await Deno.remove(`${f.dir}/${entry.name}`);
  }
  assert.equal(seen.length, count);
  return seen;
}

async function names(dir: string): Promise<string[]> {
  const out = [];
  for await (const entry of Deno.readDir(dir)) out.push(entry.name);
  return out.sort();
}

Deno.test("a writable DENO_DIR is used as it is, and nothing is made in TMPDIR", async () => {
  await using f = await fixture();
  const [run] = await launch(f, { readOnly: false });
  assert.equal(run?.denoDir, f.cache);
  assert.deepEqual(run?.args, [
    "run",
    "--cached-only",
    "--frozen",
    "--node-modules-dir=manual",
    "--allow-all",
    "/app/main.ts",
    "version",
  ]);
  assert.deepEqual(await names(f.tmp), []);
});

Deno.test("a read-only DENO_DIR: Deno gets a private copy of the cache databases", async () => {
  await using f = await fixture();
  const [run] = await launch(f, { readOnly: true });
  assert.equal(run?.denoDir, f.own);
  const info = await Deno.lstat(f.own);
  assert.ok(info.isDirectory);
  assert.equal((info.mode ?? 0) & 0o777, 0o700);
  assert.deepEqual(await names(f.own), [
    "dep_analysis_cache_v2",
    "gen",
    "npm",
    "v8_code_cache_v2",
  ]);
  // The databases are copies it may write; the rest links back, read-only.
  assert.ok((await Deno.lstat(`${f.own}/v8_code_cache_v2`)).isFile);
  assert.equal(
    await Deno.readTextFile(`${f.own}/v8_code_cache_v2`),
    "code cache",
  );
  assert.equal(await Deno.readLink(`${f.own}/gen`), `${f.cache}/gen`);
  assert.equal(await Deno.readLink(`${f.own}/npm`), `${f.cache}/npm`);
  // A second start reuses it.
  await Deno.writeTextFile(`${f.own}/v8_code_cache_v2`, "warmer");
  const [again] = await launch(f, { readOnly: true });
  assert.equal(again?.denoDir, f.own);
  assert.equal(await Deno.readTextFile(`${f.own}/v8_code_cache_v2`), "warmer");
});

Deno.test("starts at the same moment share one copy and leave no half-made ones", async () => {
  await using f = await fixture();
  const runs = await launch(f, { readOnly: true, count: 6 });
  assert.deepEqual(runs.map((r) => r.denoDir), runs.map(() => f.own));
  assert.deepEqual(await names(f.tmp), [OWN_NAME]);
});

Deno.test("a directory someone else made at that name is not used", async () => {
  await using f = await fixture();
  await Deno.mkdir(f.own, { mode: 0o700 });
  await Deno.chown(f.own, 64440, 64440);
  const [run] = await launch(f, { readOnly: true });
  assert.equal(run?.denoDir, f.cache);
  assert.deepEqual(await names(f.own), []);
});

Deno.test("a symlink or an open directory at that name is not used", async () => {
  await using f = await fixture();
  const elsewhere = `${f.dir}/elsewhere`;
  await Deno.mkdir(elsewhere, { mode: 0o700 });
  await Deno.symlink(elsewhere, f.own);
  const [viaLink] = await launch(f, { readOnly: true });
  assert.equal(viaLink?.denoDir, f.cache);
  assert.deepEqual(await names(elsewhere), []);
  await Deno.remove(f.own);
  await Deno.mkdir(f.own);
  await Deno.chmod(f.own, 0o755);
  const [open] = await launch(f, { readOnly: true });
  assert.equal(open?.denoDir, f.cache);
  assert.deepEqual(await names(f.own), []);
});

Deno.test("under the name pawl-action it starts the Action's entry script", async () => {
  await using f = await fixture();
  const [run] = await launch(f, { readOnly: true, program: "pawl-action" });
  assert.equal(run?.args.at(-2), "/app/tools/action_entrypoint.ts");
  assert.equal(run?.denoDir, f.own);
});

Deno.test("the launcher becomes Deno itself, so a signal to the container's entrypoint reaches pawl", async () => {
  await using f = await fixture();
  const child = new Deno.Command(`${f.dir}/bin/pawl`, {
    args: ["serve"],
    env: {
      PATH: `${f.dir}/bin:/usr/bin:/bin`,
      DENO_DIR: f.cache,
      TMPDIR: f.tmp,
      LAUNCHER_OUT: `${f.dir}/out`,
    },
    clearEnv: true,
    stdin: "null",
  }).spawn();
  assert.equal((await child.status).code, 0);
  // The stand-in deno names its record after its own pid: the launcher's.
  const [record] = (await names(f.dir)).filter((n) => n.startsWith("out."));
  assert.equal(record, `out.${child.pid}`);
});
