import assert from "node:assert/strict";

const FORMS = await Deno.readTextFile(
  new URL("./call_forms.py", import.meta.url),
);

/** The forms `python3` computes for `expressions`, after `setup`. */
async function formsOf(
  setup: string,
  expressions: string[],
  options: { cwd?: string; home?: string } = {},
): Promise<unknown[]> {
  const script = `${FORMS}\n${setup}\nprint(_js.dumps([${
    expressions.map((e) => `_form(${e})`).join(", ")
  }]))`;
  const out = await new Deno.Command("python3", {
    args: ["-c", script],
    ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
    ...(options.home === undefined ? {} : { env: { HOME: options.home } }),
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
  return JSON.parse(new TextDecoder().decode(out.stdout));
}

Deno.test("the canonical form never asks the value's own __eq__, __repr__ or __iter__", async () => {
  const [liar, honest, fakeList] = await formsOf(
    `
class Money:
    def __init__(self, cents, currency):
        self.cents = cents
        self.currency = currency
    def __eq__(self, other):
        return True
    def __repr__(self):
        return "Money(?)"
class Items(list):
    def __iter__(self):
        return iter([])
`,
    ["Money(1, 'EUR')", "Money(2, 'EUR')", "Items([1, 2])"],
  );
  assert.notDeepEqual(liar, honest);
  assert.deepEqual(liar, [
    "obj",
    "__main__.Money",
    [["cents", ["int", "1"]], ["currency", ["str", "EUR"]]],
  ]);
  assert.deepEqual(fakeList, [
    "sub",
    "__main__.Items",
    ["list", [["int", "1"], ["int", "2"]]],
    [],
  ]);
});

Deno.test("the canonical form sorts dicts and sets and bounds depth and size", async () => {
  const [a, b, deep, wide] = await formsOf(
    "nested = []\nfor _ in range(50):\n    nested = [nested]",
    [
      "{'b': 1, 'a': {3, 1, 2}}",
      "{'a': {2, 3, 1}, 'b': 1}",
      "nested",
      "list(range(10000))",
    ],
  );
  assert.deepEqual(a, b);
  assert.match(JSON.stringify(deep), /"deep"/);
  assert.match(JSON.stringify(wide), /"cut"/);
});

Deno.test("the canonical form of each kind of value", async (t) => {
  const cases: [string, unknown][] = [
    ["True", true],
    ["False", false],
    ["None", null],
    ["1.5", ["float", "1.5"]],
    ["(1, 2)", ["tuple", [["int", "1"], ["int", "2"]]]],
    ["b'ab'", ["bytes", "6162", 2]],
    ["bytearray(b'ab')", ["bytes", "6162", 2]],
    ["2+3j", ["complex", "2.0", "3.0"]],
    ["{'a': 2, 'b': 1}", ["dict", [[["str", "a"], ["int", "2"]], [[
      "str",
      "b",
    ], ["int", "1"]]]]],
    ["{10, 9}", ["set", [["int", "10"], ["int", "9"]]]],
    ["frozenset({10, 9})", ["set", [["int", "10"], ["int", "9"]]]],
    ["len", ["ref", "builtins.len"]],
    ["json", ["ref", "module json"]],
    ["json.dumps", ["ref", "json.dumps"]],
    ["Pair", ["ref", "__main__.Pair"]],
    ["ValueError('x', 1)", [
      "exception",
      "builtins.ValueError",
      ["tuple", [["str", "x"], ["int", "1"]]],
    ]],
    ["Pair()", ["obj", "__main__.Pair", [["a", ["int", "2"]], [
      "b",
      ["int", "1"],
    ]]]],
    ["slotted", ["obj", "__main__.Slotted", [["a", ["int", "1"]], [
      "z",
      ["int", "2"],
    ]]]],
    ["Empty()", ["obj", "__main__.Empty", []]],
    ["...", ["opaque", "builtins.ellipsis", ["name", "Ellipsis"]]],
    ["object()", ["opaque", "builtins.object", ["tuple", [[
      "tuple",
      [["ref", "builtins.object"]],
    ], null]]]],
  ];
  const forms = await formsOf(
    `import json
class Pair:
    def __init__(self):
        self.b = 1
        self.a = 2
class Slotted:
    __slots__ = ("a", "__dict__")
class Empty:
    __slots__ = ()
slotted = Slotted()
slotted.a = 1
slotted.z = 2`,
    cases.map(([expression]) => expression),
  );
  for (const [i, [expression, want]] of cases.entries()) {
    await t.step(expression, () => assert.deepEqual(forms[i], want));
  }
});

Deno.test("the canonical form keeps text of 512 characters whole and cuts longer text to its length and digest", async () => {
  const [whole, cut] = await formsOf("", ["'x' * 512", "'x' * 512 + 'y'"]);
  assert.deepEqual(whole, ["str", "x".repeat(512)]);
  const digest = Array.from(
    new Uint8Array(
      await crypto.subtle.digest(
        "SHA-256",
        new TextEncoder().encode(`${"x".repeat(512)}y`),
      ),
    ),
    (b) => b.toString(16).padStart(2, "0"),
  ).join("");
  assert.deepEqual(cut, [
    "str",
    `${"x".repeat(512)}...[513 chars, sha256 ${digest}]`,
  ]);
});

Deno.test("the canonical form reads 8 levels deep and 2000 values in all", async () => {
  const [deep, wide] = await formsOf(
    "nested = []\nfor _ in range(50):\n    nested = [nested]",
    ["nested", "list(range(3000))"],
  );
  let levels = 0;
  let form = deep;
  while (Array.isArray(form) && form[0] === "list") {
    levels += 1;
    form = (form[1] as unknown[])[0];
  }
  assert.equal(levels, 8);
  assert.deepEqual(form, ["deep", "builtins.list"]);
  const items = (wide as [string, unknown[]])[1];
  assert.equal(items.length, 3000);
  assert.equal(
    items.filter((i) => JSON.stringify(i) === '["cut"]').length,
    1001,
  );
  assert.deepEqual(items[1998], ["int", "1998"]);
});

Deno.test("the canonical form names the tree and the HOME in text, the tree first when it lies in the HOME", async (t) => {
  const home = await Deno.makeTempDir({ prefix: "pawl-forms-" });
  try {
    await Deno.mkdir(`${home}/tree`);
    await t.step("inside the HOME", async () => {
      const [inTree, inHome] = await formsOf(
        "_PLACES[:] = _places()",
        [`"${home}/tree/a.py"`, `"${home}/b.py"`],
        { cwd: `${home}/tree`, home },
      );
      assert.deepEqual(inTree, ["str", "<tree>/a.py"]);
      assert.deepEqual(inHome, ["str", "<home>/b.py"]);
    });
    await t.step("a HOME of / names nothing", async () => {
      const [text] = await formsOf("_PLACES[:] = _places()", ['"/a/b"'], {
        cwd: `${home}/tree`,
        home: "/",
      });
      assert.deepEqual(text, ["str", "/a/b"]);
    });
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});
