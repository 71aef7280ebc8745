import assert from "node:assert/strict";
import { FakeGit } from "../git/fake_git.ts";
import { tempWorkspaces } from "./temp_workspace.ts";

Deno.test("tempWorkspaces() opens the named dir, traversable only, and removes it", async () => {
  const parent = await Deno.makeTempDir({ prefix: "pawl_workspace_test_" });
  try {
    const open = tempWorkspaces({ parent: `${parent}/` });
    const workspace = await open("pawl-0123456789abcdef");
    assert.equal(workspace.root, `${parent}/pawl-0123456789abcdef`);
    assert.equal((await Deno.stat(workspace.root)).mode! & 0o777, 0o711);
    const git = new FakeGit({ commits: { main: { "a/b.txt": "hi\n" } } });
    const dir = await workspace.export(git, "main", "work-1");
    assert.equal(await Deno.readTextFile(`${dir}/a/b.txt`), "hi\n");
    assert.equal(await workspace.mkdir("reports"), `${workspace.root}/reports`);
    await workspace.remove();
    await assert.rejects(Deno.stat(workspace.root), Deno.errors.NotFound);
  } finally {
    await Deno.remove(parent, { recursive: true });
  }
});

Deno.test("tempWorkspaces() falls back to a fresh name when the name is taken", async () => {
  const parent = await Deno.makeTempDir({ prefix: "pawl_workspace_test_" });
  try {
    const open = tempWorkspaces({ parent });
    await Deno.mkdir(`${parent}/pawl-taken`);
    const workspace = await open("pawl-taken");
    assert.notEqual(workspace.root, `${parent}/pawl-taken`);
    assert.match(workspace.root, new RegExp(`^${parent}/pawl-`));
    await workspace.remove();
    // The planted directory is left alone.
    assert.ok((await Deno.stat(`${parent}/pawl-taken`)).isDirectory);
  } finally {
    await Deno.remove(parent, { recursive: true });
  }
});
