import assert from "node:assert/strict";
import { findPasswdUser, passwdNamesOf } from "./_passwd.ts";

const PASSWD = [
  "root:x:0:0:root:/root:/bin/bash",
  "pawl:x:64000:64000::/nonexistent:/usr/sbin/nologin",
  "twin:x:64000:100::/:/bin/false",
].join("\n");

Deno.test("findPasswdUser() reads a user's uid and gid, and nothing from a line it cannot read whole", async (t) => {
  const cases: [string, string, string, unknown][] = [
    ["a user", PASSWD, "pawl", { uid: 64000, gid: 64000 }],
    ["no such user", PASSWD, "nobody", undefined],
    [
      "an empty uid (which Number() would read as root)",
      "pawl:x::100::/:/bin/false",
      "pawl",
      undefined,
    ],
    ["an empty gid", "pawl:x:64000:::/:/bin/false", "pawl", undefined],
    [
      "a uid that is no integer",
      "pawl:x:6.5:100::/:/bin/false",
      "pawl",
      undefined,
    ],
    ["too few fields", "pawl:x:64000", "pawl", undefined],
    [
      "ids with leading zeros, as the C library reads them",
      "pawl:x:064000:0100::/:/bin/false",
      "pawl",
      {
        uid: 64000,
        gid: 100,
      },
    ],
    ...["1e3", "0x10", " 5", "+5", "-1", "5 "].map((id): [
      string,
      string,
      string,
      unknown,
    ] => [
      `a uid written ${JSON.stringify(id)}, which is not read as an id`,
      `pawl:x:${id}:100::/:/bin/false`,
      "pawl",
      undefined,
    ]),
    ["just the four fields it reads", "pawl:x:64000:100", "pawl", {
      uid: 64000,
      gid: 100,
    }],
    [
      "a gid that is no integer",
      "pawl:x:64000:1.5::/:/bin/false",
      "pawl",
      undefined,
    ],
    [
      "a user whose name only begins with the one asked for",
      `pawlx:x:65000:65000::/:/bin/false\n${PASSWD}`,
      "pawl",
      { uid: 64000, gid: 64000 },
    ],
    [
      "a broken line before a good one",
      `pawl:x::0::/:/bin/false\n${PASSWD}`,
      "pawl",
      { uid: 64000, gid: 64000 },
    ],
  ];
  for (const [name, text, user, want] of cases) {
    await t.step(name, () => {
      assert.deepEqual(findPasswdUser(text, user), want);
    });
  }
});

Deno.test("passwdNamesOf() names every user with a uid, and no nameless line", () => {
  assert.deepEqual(passwdNamesOf(PASSWD, 64000), ["pawl", "twin"]);
  assert.deepEqual(
    passwdNamesOf(`:x:64000:1::/:/bin/false\n${PASSWD}`, 64000),
    [
      "pawl",
      "twin",
    ],
  );
  assert.deepEqual(passwdNamesOf("pawl:x:64000", 64000), []);
  assert.deepEqual(passwdNamesOf("pawl:x:64000:1", 64000), ["pawl"]);
  assert.deepEqual(passwdNamesOf(PASSWD, 1), []);
});

Deno.test("passwdNamesOf() reads a uid the way the system does: leading zeros, and no other spelling", () => {
  const text = [
    "zero:x:064000:1::/:/bin/false",
    "exp:x:64e3:1::/:/bin/false",
    "hex:x:0xfa00:1::/:/bin/false",
    "padded:x: 64000:1::/:/bin/false",
  ].join("\n");
  assert.deepEqual(passwdNamesOf(text, 64000), ["zero"]);
});
