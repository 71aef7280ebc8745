import assert from "node:assert/strict";
import type { EntryKind, TreeEntry } from "../git/git.ts";
import { collectSetupInputs } from "./collect_setup_inputs.ts";
import { SetupFailedError } from "./setup_failed_error.ts";

function tree(entries: [string, EntryKind][]): Map<string, TreeEntry> {
  return new Map(
    entries.map(([path, kind], i) => [path, {
      path,
      kind,
      oid: String(i).padStart(40, "0"),
      size: 1,
    }]),
  );
}

const BASE = "0123456789abcdef0123456789abcdef01234567";

Deno.test("collectSetupInputs() takes named files and every file under a named directory", () => {
  const t = tree([
    ["requirements-dev.txt", "file"],
    ["wheels/a.whl", "file"],
    ["wheels/sub/b.whl", "file"],
    ["wheels-other/c.whl", "file"],
    ["tools/setup.sh", "executable"],
    ["src/app.py", "file"],
  ]);
  const files = collectSetupInputs(t, {
    inputs: ["wheels/", "tools/setup.sh", "requirements-dev.txt", "wheels"],
    base: BASE,
  });
  assert.deepEqual(files.map((f) => [f.path, f.executable]), [
    ["requirements-dev.txt", false],
    ["tools/setup.sh", true],
    ["wheels/a.whl", false],
    ["wheels/sub/b.whl", false],
  ]);
});

Deno.test("collectSetupInputs() refuses an input the base lacks, a symlink or a submodule", async (t) => {
  const base = tree([
    ["link.txt", "symlink"],
    ["vendor/lib", "submodule"],
    ["uv.lock", "file"],
  ]);
  const cases: [string, string, RegExp][] = [
    [
      "missing",
      "requirements.txt",
      /"requirements.txt" .* is not in the base commit \(base 0123456789ab\)/,
    ],
    ["a symlink", "link.txt", /"link.txt" .* is a symlink/],
    [
      "a submodule in a directory",
      "vendor/",
      /"vendor\/" .* holds "vendor\/lib", a submodule/,
    ],
  ];
  for (const [name, input, pattern] of cases) {
    await t.step(name, () => {
      assert.throws(
        () =>
          collectSetupInputs(base, { inputs: ["uv.lock", input], base: BASE }),
        (e: unknown) =>
          e instanceof SetupFailedError && pattern.test(e.message) &&
          /the pull request is not at fault/.test(e.message),
      );
    });
  }
});
