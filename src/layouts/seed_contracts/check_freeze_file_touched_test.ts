import assert from "node:assert/strict";
import {
  checkFreezeFileTouched,
  freezeFileChange,
  type FreezeFileState,
} from "./check_freeze_file_touched.ts";
import { SEED_FREEZE } from "./_testing.ts";

const PATH = "flake_freeze.yml";

function file(text: string, kind = "file", oid?: string): FreezeFileState {
  return { kind, oid, bytes: new TextEncoder().encode(text) };
}

Deno.test("freezeFileChange() reports every touch, even a harmless one", async (t) => {
  const same = file(SEED_FREEZE);
  const cases: [
    string,
    FreezeFileState | undefined,
    FreezeFileState | undefined,
    boolean,
    string | undefined,
  ][] = [
    ["an untouched file", same, file(SEED_FREEZE), false, undefined],
    ["no file on either side", undefined, undefined, false, undefined],
    ["a new file", undefined, same, false, "added"],
    ["a deleted file", same, undefined, false, "deleted"],
    [
      "a reformat",
      same,
      file(SEED_FREEZE.replace("freezes:", "freezes:  ")),
      false,
      "modified",
    ],
    [
      "a new comment",
      same,
      file(SEED_FREEZE + "# reviewed\n"),
      false,
      "modified",
    ],
    ["a symlink", same, { kind: "symlink" }, false, "kind changed"],
    [
      "an executable bit",
      same,
      file(SEED_FREEZE, "executable"),
      false,
      "kind changed",
    ],
    [
      "another object id",
      file(SEED_FREEZE, "file", "a"),
      { kind: "file", oid: "b" },
      false,
      "modified",
    ],
    ["a path git lists as changed", same, file(SEED_FREEZE), true, "modified"],
  ];
  for (const [name, base, head, listed, change] of cases) {
    await t.step(`${name}: ${change ?? "untouched"}`, () => {
      assert.equal(
        freezeFileChange({ path: PATH, base, head, listed }),
        change,
      );
      const findings = checkFreezeFileTouched({
        path: PATH,
        base,
        head,
        listed,
      });
      assert.deepEqual(
        findings.map((f) => [f.rule, f.path, f.blocking]),
        change === undefined ? [] : [["freeze.file_touched", PATH, true]],
      );
    });
  }
});

Deno.test("checkFreezeFileTouched() says what happened to the file", () => {
  const [f] = checkFreezeFileTouched({
    path: PATH,
    base: file(SEED_FREEZE),
    head: undefined,
  });
  assert.equal(
    f?.message,
    'The pull request deleted "flake_freeze.yml": the freeze file is human-owned and an agent patch must not touch it; revert the change',
  );
});

Deno.test("freezeFileChange() compares what it knows of each side", async (t) => {
  const cases: [
    string,
    FreezeFileState | undefined,
    FreezeFileState | undefined,
    boolean,
    string | undefined,
  ][] = [
    [
      "one byte changed, same length",
      file("skip: false"),
      file("skip: falsE"),
      false,
      "modified",
    ],
    [
      "the first byte changed",
      file("a: 1"),
      file("b: 1"),
      false,
      "modified",
    ],
    [
      "the same object id, bytes unknown",
      { kind: "file", oid: "a" },
      { kind: "file", oid: "a" },
      false,
      undefined,
    ],
    [
      "an object id on one side only, the same bytes",
      file("x", "file", "a"),
      file("x"),
      false,
      undefined,
    ],
    [
      "an object id on one side only, other bytes",
      file("x", "file", "a"),
      file("y"),
      false,
      "modified",
    ],
    [
      "an object id on the head only, the same bytes",
      file("x"),
      file("x", "file", "b"),
      false,
      undefined,
    ],
    [
      "bytes on the head only, the same kind",
      { kind: "file" },
      file("x"),
      false,
      undefined,
    ],
    [
      "bytes on one side only, the same kind",
      file("x"),
      { kind: "file" },
      false,
      undefined,
    ],
    [
      "no file on either side, but git lists the path",
      undefined,
      undefined,
      true,
      "modified",
    ],
  ];
  for (const [name, base, head, listed, change] of cases) {
    await t.step(`${name}: ${change ?? "untouched"}`, () => {
      assert.equal(
        freezeFileChange({ path: PATH, base, head, listed }),
        change,
      );
    });
  }
});

Deno.test("checkFreezeFileTouched() names an addition and a change of file type", async (t) => {
  const cases: [
    string,
    FreezeFileState | undefined,
    FreezeFileState,
    string,
  ][] = [
    [
      "an added file",
      undefined,
      file(SEED_FREEZE),
      'The pull request added "flake_freeze.yml": the freeze file is human-owned and an agent patch must not touch it; revert the change',
    ],
    [
      "a file turned into a symlink",
      file(SEED_FREEZE),
      { kind: "symlink" },
      'The pull request changed the file type of "flake_freeze.yml": the freeze file is human-owned and an agent patch must not touch it; revert the change',
    ],
  ];
  for (const [name, base, head, message] of cases) {
    await t.step(name, () => {
      assert.deepEqual(
        checkFreezeFileTouched({ path: PATH, base, head }).map((f) =>
          f.message
        ),
        [message],
      );
    });
  }
});
