import assert from "node:assert/strict";
import { showCall, showForm } from "./show_form.ts";

Deno.test("showForm() shows canonical forms as short Python-like text", async (t) => {
  const cases: [string, unknown, string][] = [
    ["None and booleans", ["list", [null, true, false]], "[None, True, False]"],
    ["a one-item tuple", ["tuple", [["int", "1"]]], "(1,)"],
    ["a dict", ["dict", [[["str", "a"], ["float", "1.5"]]]], '{"a": 1.5}'],
    [
      "an object by its type's name and fields",
      ["obj", "pkg.core.Receipt", [["amount", ["int", "3"]]]],
      "Receipt(amount=3)",
    ],
    ["a raise", ["raise", "builtins.ValueError"], "raised ValueError"],
    [
      "a subclass of a builtin",
      ["sub", "pkg.Code", ["str", "x"], []],
      'Code("x")',
    ],
    ["bytes by length", ["bytes", "6162", 2], "<2 bytes>"],
  ];
  for (const [name, form, expected] of cases) {
    await t.step(name, () => assert.equal(showForm(form), expected));
  }
  await t.step("long text is cut", () => {
    const long = showForm(["str", "x".repeat(500)], 20);
    assert.equal(long.length, 20);
    assert.ok(long.endsWith("..."));
  });
});

Deno.test("showCall() names the call with its positional and keyword arguments", () => {
  const shown = [
    "tuple",
    [["tuple", [["int", "1"]]], ["dict", [[["str", "rate"], ["int", "2"]]]]],
  ];
  assert.equal(showCall("total", shown), "total(1, rate=2)");
});
