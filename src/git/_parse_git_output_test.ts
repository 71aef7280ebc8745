import { deepEqual, throws } from "node:assert/strict";
import {
  GitOutputError,
  parseLsTree,
  parseNameStatus,
} from "./_parse_git_output.ts";

const OID = "e69de29bb2d1d6434b8b29ae775a8c2ab2fd6ae4";
const bytes = (...parts: (string | number[])[]) =>
  new Uint8Array(
    parts.flatMap((p) =>
      typeof p === "string" ? [...new TextEncoder().encode(p)] : p
    ),
  );

Deno.test("parseLsTree() reads every mode and odd paths", () => {
  const tree = parseLsTree(bytes(
    `100644 blob ${OID}       0\ta\nb\0`,
    `100755 blob ${OID}  123456\tx y\0`,
    `120000 blob ${OID}       3\tl\0`,
    `040000 tree ${OID}       -\td\0`,
    `160000 commit ${OID}       -\ts\0`,
  ));
  deepEqual([...tree.values()], [
    { path: "a\nb", kind: "file", oid: OID, size: 0 },
    { path: "x y", kind: "executable", oid: OID, size: 123456 },
    { path: "l", kind: "symlink", oid: OID, size: 3 },
    { path: "d", kind: "tree", oid: OID, size: 0 },
    { path: "s", kind: "submodule", oid: OID, size: 0 },
  ]);
  deepEqual(parseLsTree(new Uint8Array()), new Map());
});

Deno.test("parseLsTree() refuses what it cannot represent faithfully", async (t) => {
  const cases: [string, Uint8Array, RegExp][] = [
    [
      "a path that is not UTF-8",
      bytes(`100644 blob ${OID} 1\tbad`, [0xff], "\0"),
      /is not valid UTF-8$/,
    ],
    [
      "a dot-dot segment",
      bytes(`040000 tree ${OID} -\t..\x00100644 blob ${OID} 1\t../x\0`),
      /forbidden segment "\.\."$/,
    ],
    [
      "a .git segment in any case",
      bytes(`100644 blob ${OID} 1\tvendor/.GIT/config\0`),
      /forbidden segment "\.GIT"$/,
    ],
    [
      "an unknown mode",
      bytes(`100664 blob ${OID} 1\tf\0`),
      /unsupported mode "100664"$/,
    ],
    ["a garbled record", bytes("garbage\tf\0"), /unexpected tree record/],
    ["a record without a path", bytes(`100644 blob ${OID} 1\0`), /no tab$/],
    [
      "a duplicate path",
      bytes(`100644 blob ${OID} 1\tf\x00100644 blob ${OID} 1\tf\0`),
      /appears twice$/,
    ],
  ];
  for (const [name, input, message] of cases) {
    await t.step(
      name,
      () =>
        throws(
          () => parseLsTree(input),
          (e: unknown) =>
            e instanceof GitOutputError && message.test(e.message),
        ),
    );
  }
});

Deno.test("parseNameStatus() reads statuses and refuses unknown ones", () => {
  deepEqual(parseNameStatus(bytes("A\0new file\0M\0m\0D\0gone\nx\0T\0t\0")), [
    { status: "A", path: "new file" },
    { status: "M", path: "m" },
    { status: "D", path: "gone\nx" },
    { status: "T", path: "t" },
  ]);
  throws(
    () => parseNameStatus(bytes("R100\0a\0")),
    /unexpected change status "R100"/,
  );
  throws(() => parseNameStatus(bytes("A\0")), /status record has no path/);
});
