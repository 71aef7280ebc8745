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

Deno.test("showForm() shows every kind of form, and what it cannot read as such", async (t) => {
  const cases: [string, unknown, string][] = [
    ["an int", ["int", "12"], "12"],
    ["a string with a quote", ["str", 'a"b'], '"a\\"b"'],
    ["a complex number", ["complex", "1.0", "-2.0"], "complex(1.0, -2.0)"],
    ["an empty tuple", ["tuple", []], "()"],
    ["a tuple of two", ["tuple", [["int", "1"], ["int", "2"]]], "(1, 2)"],
    ["a list of two", ["list", [["int", "1"], ["int", "2"]]], "[1, 2]"],
    ["a set", ["set", [["int", "1"], ["int", "2"]]], "{1, 2}"],
    ["a dict of two with a broken pair", [
      "dict",
      [[["int", "1"], null], "x"],
    ], "{1: None, ?}"],
    ["an object with a broken field and no type path", [
      "obj",
      "Receipt",
      [["a", ["int", "1"]], "x"],
    ], "Receipt(a=1, ?)"],
    ["an object without fields", ["obj", "m.T", "x"], "T()"],
    ["an exception", [
      "exception",
      "builtins.KeyError",
      ["tuple", [["str", "k"]]],
    ], 'KeyError("k",)'],
    ["a reference", ["ref", "#2"], "#2"],
    ["an opaque value", ["opaque", "socket.socket"], "<socket>"],
    ["an unknown tag", ["what", 1], "..."],
    ["a list whose items are not a list", ["list", "x"], "[]"],
    ["a number that is no form", 3, "?"],
    ["a string that is no form", "x", "?"],
  ];
  for (const [name, form, expected] of cases) {
    await t.step(name, () => assert.equal(showForm(form), expected));
  }
  await t.step("text exactly as long as allowed is not cut", () => {
    assert.equal(showForm(["str", "x".repeat(18)], 20), `"${"x".repeat(18)}"`);
    assert.equal(
      showForm(["str", "x".repeat(19)], 20),
      `"${"x".repeat(16)}...`,
    );
  });
  await t.step("the default length is 120 characters", () => {
    const shown = showForm(["str", "x".repeat(500)]);
    assert.equal(shown, `"${"x".repeat(116)}...`);
  });
});

Deno.test("showCall() shows what it cannot read and stays short", async (t) => {
  const cases: [string, unknown, string][] = [
    ["no arguments", ["tuple", [["tuple", []], ["dict", []]]], "f()"],
    ["a form that is no pair", null, "f()"],
    ["a keyword that is not a string", [
      "tuple",
      [["tuple", []], ["dict", [[["int", "1"], ["int", "2"]]]]],
    ], "f(1=2)"],
    ["a keyword that is a tuple", [
      "tuple",
      [["tuple", []], ["dict", [[["tuple", [["int", "1"]]], ["int", "2"]]]]],
    ], "f((1,)=2)"],
    ["a broken keyword pair", [
      "tuple",
      [["tuple", []], ["dict", ["x"]]],
    ], "f(?=?)"],
  ];
  for (const [name, shown, expected] of cases) {
    await t.step(name, () => assert.equal(showCall("f", shown), expected));
  }
  await t.step("a long call is cut at 120 characters", () => {
    const shown = ["tuple", [["tuple", [["str", "x".repeat(500)]]], [
      "dict",
      [],
    ]]];
    assert.equal(showCall("f", shown), `f("${"x".repeat(114)}...`);
  });
});
