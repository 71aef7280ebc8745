import assert from "node:assert/strict";
import { lchown } from "node:fs/promises";
import { sealEnvDir } from "./seal_env_dir.ts";
import { SetupFailedError } from "./setup_failed_error.ts";

/** Ownership only: nothing runs as this uid. */
const STEP_UID = 64438;

async function withTree(
  fn: (entry: string, env: string) => Promise<void>,
): Promise<void> {
  const entry = await Deno.makeTempDir({ prefix: "pawl-seal-test-" });
  const env = `${entry}/env`;
  await Deno.mkdir(`${env}/bin`, { recursive: true });
  try {
    await fn(entry, env);
  } finally {
    await Deno.remove(entry, { recursive: true });
  }
}

async function own(paths: string[]): Promise<void> {
  for (const p of paths) await lchown(p, STEP_UID, STEP_UID);
}

Deno.test("sealEnvDir() leaves a root-owned, read-only tree without setuid bits or shared inodes", async () => {
  await withTree(async (entry, env) => {
    await Deno.writeTextFile(`${env}/bin/tool`, "#!/bin/sh\n");
    await Deno.chmod(`${env}/bin/tool`, 0o4777);
    await Deno.writeTextFile(`${entry}/outside`, "the step's own file\n");
    await Deno.link(`${entry}/outside`, `${env}/linked`);
    await Deno.symlink("/etc/hostname", `${env}/link`);
    await own([env, `${env}/bin`, `${env}/bin/tool`, `${entry}/outside`]);
    await lchown(`${env}/link`, STEP_UID, STEP_UID);
    await Deno.chmod(`${env}/bin`, 0o777);
    await sealEnvDir(env, { uid: STEP_UID });
    for (
      const [path, mode] of [
        [env, 0o755],
        [`${env}/bin`, 0o755],
        [`${env}/bin/tool`, 0o755],
        [`${env}/linked`, 0o644],
      ] as const
    ) {
      const info = await Deno.lstat(path);
      assert.equal(info.uid, 0, path);
      assert.equal((info.mode ?? 0) & 0o7777, mode, path);
    }
    assert.equal((await Deno.lstat(`${env}/link`)).uid, 0);
    const outside = await Deno.lstat(`${entry}/outside`);
    assert.equal(outside.uid, STEP_UID, "the other name's file is untouched");
    assert.equal(outside.nlink, 1);
    assert.equal(
      await Deno.readTextFile(`${env}/linked`),
      "the step's own file\n",
    );
  });
});

Deno.test("sealEnvDir() refuses a file the step's uid does not own", async () => {
  await withTree(async (_entry, env) => {
    await Deno.writeTextFile(`${env}/bin/planted`, "x");
    await own([env, `${env}/bin`]);
    await assert.rejects(
      sealEnvDir(env, { uid: STEP_UID }),
      (e: unknown) =>
        e instanceof SetupFailedError &&
        /planted" is owned by uid 0/.test(e.message),
    );
  });
});
