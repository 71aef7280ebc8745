import assert from "node:assert/strict";
import {
  findExecutable,
  isExecutableFile,
  SYSTEM_DIRS,
} from "./find_executable.ts";

async function withDir(body: (dir: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "pawl-find-exec-" });
  try {
    await body(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

async function file(path: string, mode: number): Promise<string> {
  await Deno.writeTextFile(path, "#!/bin/sh\n");
  await Deno.chmod(path, mode);
  return path;
}

Deno.test("isExecutableFile() takes a file with any execute bit, through links, and nothing else", async (t) => {
  await withDir(async (dir) => {
    const cases: [string, () => Promise<string>, boolean][] = [
      ["executable by its owner", () => file(`${dir}/owner`, 0o700), true],
      ["executable by its group only", () => file(`${dir}/group`, 0o610), true],
      ["executable by others only", () => file(`${dir}/others`, 0o601), true],
      ["readable, not executable", () => file(`${dir}/plain`, 0o644), false],
      ["a directory", async () => {
        await Deno.mkdir(`${dir}/sub`, { mode: 0o755 });
        return `${dir}/sub`;
      }, false],
      ["a link to an executable", async () => {
        await file(`${dir}/target`, 0o755);
        await Deno.symlink(`${dir}/target`, `${dir}/link`);
        return `${dir}/link`;
      }, true],
      ["a dangling link", async () => {
        await Deno.symlink(`${dir}/nowhere`, `${dir}/dangling`);
        return `${dir}/dangling`;
      }, false],
      [
        "a path that does not exist",
        () => Promise.resolve(`${dir}/none`),
        false,
      ],
    ];
    for (const [name, make, want] of cases) {
      await t.step(name, async () => {
        assert.equal(await isExecutableFile(await make()), want);
      });
    }
  });
});

Deno.test("findExecutable() gives the first folder's executable of that name, skipping what is not one", async () => {
  await withDir(async (dir) => {
    for (const sub of ["a", "b", "c"]) await Deno.mkdir(`${dir}/${sub}`);
    await file(`${dir}/a/tool`, 0o644);
    await file(`${dir}/b/tool`, 0o755);
    await file(`${dir}/c/tool`, 0o755);
    const dirs = [`${dir}/a`, `${dir}/b`, `${dir}/c`];
    assert.equal(await findExecutable("tool", dirs), `${dir}/b/tool`);
    assert.equal(await findExecutable("other", dirs), undefined);
    assert.equal(await findExecutable("tool", []), undefined);
  });
});

Deno.test("SYSTEM_DIRS are the system's own folders, and /usr/local is not one", async () => {
  assert.deepEqual(SYSTEM_DIRS, ["/usr/sbin", "/usr/bin", "/sbin", "/bin"]);
  assert.equal(await findExecutable("sh", SYSTEM_DIRS), "/usr/bin/sh");
});
