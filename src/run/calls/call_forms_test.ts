import assert from "node:assert/strict";

const FORMS = await Deno.readTextFile(
  new URL("./call_forms.py", import.meta.url),
);

/** The forms `python3` computes for `expressions`, after `setup`. */
async function formsOf(
  setup: string,
  expressions: string[],
): Promise<unknown[]> {
  const script = `${FORMS}\n${setup}\nprint(_js.dumps([${
    expressions.map((e) => `_form(${e})`).join(", ")
  }]))`;
  const out = await new Deno.Command("python3", {
    args: ["-c", script],
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
