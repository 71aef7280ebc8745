import assert from "node:assert/strict";
import fc from "fast-check";
import type { Tree } from "../git/git.ts";
import { analyzePython } from "../python/analyze_python.ts";
import { loadPythonParser } from "../python/load_python_parser.ts";
import type { PythonModule } from "../python/python_module.ts";
import { checkRegisteredTests } from "./check_registered_tests.ts";

const parser = await loadPythonParser();
const MODULE = "tests/test_p.py";

const HEADER = `import math

import numpy as np
import pytest
from hypothesis import given, strategies as st

from shop import Invoice, ParseError, parse, total


def check_total(invoice, expected):
    assert invoice.total == expected


`;

/** A registered test `test_p` drawing `a` and `b`, with `body` indented. */
function test(body: string, params = "a, b"): string {
  // Two parameters are drawn by @given; one is a pytest fixture.
  const given = params.includes(",")
    ? "@given(st.integers(), st.integers())\n"
    : "";
  return `${HEADER}${given}def test_p(${params}):\n${
    body.trim().split("\n").map((l) => `    ${l}`).join("\n")
  }\n`;
}

function analyses(
  text: string,
): { modules: Map<string, PythonModule>; tree: Tree } {
  return {
    modules: new Map([[MODULE, analyzePython(parser, text)]]),
    tree: new Map([[MODULE, {
      path: MODULE,
      kind: "file",
      oid: MODULE,
      size: 1,
    }]]),
  };
}

type Verdict = "accepted" | "rejected" | "rewritten";

/** How the assertions of `head` stand to those of `base`. */
function verdict(base: string, head: string): Verdict {
  const b = analyses(base);
  const h = analyses(head);
  const found = checkRegisteredTests([{
    layout: "000",
    id: "p",
    module: "tests.test_p",
    name: "test_p",
  }], {
    baseModules: b.modules,
    headModules: h.modules,
    baseTree: b.tree,
    headTree: h.tree,
    isTestSide: () => true,
  });
  const removed = found.findings.filter((f) =>
    f.rule === "property.assertion_removed"
  );
  if (removed.length > 0) return "rejected";
  return found.rewrites.length > 0 ? "rewritten" : "accepted";
}

const SAME: [string, string, string][] = [
  [
    "a local renamed everywhere",
    "obj = Invoice(a)\nassert obj.total == a\nassert obj.paid",
    "invoice = Invoice(a)\nassert invoice.total == a\nassert invoice.paid",
  ],
  [
    "a local renamed along the locals it is made from",
    "lines = [a, b]\nobj = Invoice(lines)\nassert obj.total == a + b",
    "items = [a, b]\ninvoice = Invoice(items)\nassert invoice.total == a + b",
  ],
  [
    "two locals swapped together with what binds them",
    "x = Invoice(a)\ny = Invoice(b)\nassert x.total == a\nassert y.total == b",
    "y = Invoice(a)\nx = Invoice(b)\nassert y.total == a\nassert x.total == b",
  ],
  [
    "a comprehension's variable renamed",
    "assert all(v >= 0 for v in [a * a, b * b])",
    "assert all(w >= 0 for w in [a * a, b * b])",
  ],
  [
    "a lambda's parameter renamed",
    "assert sorted([a, b], key=lambda v: -v)[0] == max(a, b)",
    "assert sorted([a, b], key=lambda w: -w)[0] == max(a, b)",
  ],
  [
    "an assertion's message changed",
    'assert total(a, b) == a + b, "sum"',
    "assert total(a, b) == a + b",
  ],
  [
    "an `and` split into two assertions, in another order",
    "assert a * a >= 0 and b * b >= 0",
    "assert b * b >= 0\nassert a * a >= 0",
  ],
  [
    "a chained comparison written as a conjunction",
    "assert 0 <= a * a <= 10**40",
    "assert a * a >= 0 and a * a <= 10**40",
  ],
  [
    "the two sides of an equality swapped",
    "assert parse(str(a)) == a",
    "assert a == parse(str(a))",
  ],
  [
    "the two sides of an equality of names swapped",
    "assert a == b",
    "assert b == a",
  ],
  [
    "the two sides of an equality swapped and a local renamed",
    "expected = Invoice(a)\nassert parse(str(a)) == expected",
    "want = Invoice(a)\nassert want == parse(str(a))",
  ],
];

const STRONGER: [string, string, string][] = [
  [
    "match= added to pytest.raises",
    'with pytest.raises(ParseError):\n    parse("")',
    'with pytest.raises(ParseError, match="empty"):\n    parse("")',
  ],
  [
    "match= added to pytest.warns",
    "with pytest.warns(UserWarning):\n    total(a, b)",
    'with pytest.warns(UserWarning, match="rounded"):\n    total(a, b)',
  ],
  [
    "an extra conjunct",
    "assert total(a, b) >= a",
    "assert total(a, b) >= a and total(a, b) >= b",
  ],
  [
    "an extra assertion",
    "assert total(a, b) == a + b",
    "assert total(a, b) == a + b\nassert total(b, a) == a + b",
  ],
  [
    "a tighter absolute tolerance in pytest.approx",
    "assert total(a, b) == pytest.approx(a + b, abs=1e-3)",
    "assert total(a, b) == pytest.approx(a + b, abs=1e-6)",
  ],
  [
    "a tighter relative tolerance, approx on the left",
    "assert total(a, b) == pytest.approx(a + b, rel=1e-3)",
    "assert pytest.approx(a + b, rel=1e-9) == total(a, b)",
  ],
  [
    "an absolute tolerance below approx's defaults",
    "assert total(a, b) == pytest.approx(a + b)",
    "assert total(a, b) == pytest.approx(a + b, abs=1e-15)",
  ],
  [
    "a looser tolerance where the values must differ",
    "assert total(a, 1) != pytest.approx(a, abs=1e-6)",
    "assert total(a, 1) != pytest.approx(a, abs=1e-3)",
  ],
  [
    "math.isclose at its default from a looser rel_tol",
    "assert math.isclose(total(a, b), a + b, rel_tol=1e-6)",
    "assert math.isclose(total(a, b), a + b)",
  ],
  [
    "numpy's assert_allclose with a tighter rtol",
    "np.testing.assert_allclose(total(a, b), a + b, rtol=1e-5)",
    "np.testing.assert_allclose(total(a, b), a + b, rtol=1e-9)",
  ],
  [
    "an equality of one attribute added beside the whole",
    "assert parse(str(a)) == Invoice(a)",
    "assert parse(str(a)) == Invoice(a) and parse(str(a)).cents == Invoice(a).cents",
  ],
  [
    "a tighter bound on a difference",
    "assert abs(total(a, b) - a - b) <= 1e-3",
    "assert abs(total(a, b) - a - b) < 1e-6",
  ],
  [
    "a narrower chained range",
    "assert 0 <= a * a <= 10**40",
    "assert 0 <= a * a <= 10**30",
  ],
];

const WEAKER: [string, string, string][] = [
  [
    "an assertion dropped",
    "assert total(a, b) == a + b\nassert total(b, a) == a + b",
    "assert total(a, b) == a + b",
  ],
  [
    "a conjunct dropped",
    "assert total(a, b) >= a and total(a, b) >= b",
    "assert total(a, b) >= a",
  ],
  [
    "`and` turned into `or`",
    "assert total(a, b) >= a and total(a, b) >= b",
    "assert total(a, b) >= a or total(a, b) >= b",
  ],
  [
    "an alternative added with `or`",
    "assert total(a, b) == a + b",
    "assert total(a, b) == a + b or a < 0",
  ],
  [
    "a looser absolute tolerance",
    "assert total(a, b) == pytest.approx(a + b, abs=1e-6)",
    "assert total(a, b) == pytest.approx(a + b, abs=1e-3)",
  ],
  [
    "approx's defaults from a tighter absolute tolerance",
    "assert total(a, b) == pytest.approx(a + b, abs=1e-15)",
    "assert total(a, b) == pytest.approx(a + b)",
  ],
  [
    "nan_ok=True added",
    "assert total(a, b) == pytest.approx(a + b)",
    "assert total(a, b) == pytest.approx(a + b, nan_ok=True)",
  ],
  [
    "a tighter tolerance where the values must differ",
    "assert total(a, 1) != pytest.approx(a, abs=1e-3)",
    "assert total(a, 1) != pytest.approx(a, abs=1e-6)",
  ],
  [
    "math.isclose with a looser rel_tol",
    "assert math.isclose(total(a, b), a + b)",
    "assert math.isclose(total(a, b), a + b, rel_tol=1e-3)",
  ],
  [
    "a looser bound on a difference",
    "assert abs(total(a, b) - a - b) <= 1e-6",
    "assert abs(total(a, b) - a - b) <= 1e-3",
  ],
  [
    "an equality narrowed to one attribute of each side",
    "assert parse(str(a)) == Invoice(a)",
    "assert parse(str(a)).cents == Invoice(a).cents",
  ],
  [
    "an equality narrowed to one attribute, sides swapped",
    "expected = Invoice(a)\nassert parse(str(a)) == expected",
    "expected = Invoice(a)\nassert expected.cents == parse(str(a)).cents",
  ],
  [
    "an equality narrowed to one attribute, a local renamed",
    "expected = Invoice(a)\nassert parse(str(a)) == expected",
    "want = Invoice(a)\nassert parse(str(a)).cents == want.cents",
  ],
  [
    "an equality narrowed to one item of each side",
    "assert parse(str(a)) == Invoice(a)",
    'assert parse(str(a))["cents"] == Invoice(a)["cents"]',
  ],
  [
    "an equality narrowed to the lengths of each side",
    "assert total(a, b) == [a, b]",
    "assert len(total(a, b)) == len([a, b])",
  ],
  [
    "an equality narrowed to the text of each side",
    "assert total(a, b) == a + b",
    "assert str(total(a, b)) == str(a + b)",
  ],
  [
    "an equality narrowed through nested projections",
    "assert parse(str(a)) == Invoice(a)",
    "assert len(parse(str(a)).lines[0]) == len(Invoice(a).lines[0])",
  ],
  [
    "an equality narrowed to an attribute inside an `and`",
    "assert a >= 0 and parse(str(a)) == Invoice(a)",
    "assert a >= 0 and parse(str(a)).cents == Invoice(a).cents",
  ],
  [
    "an inequality of attributes widened to one of the whole",
    "assert parse(str(a)).cents != Invoice(b).cents",
    "assert parse(str(a)) != Invoice(b)",
  ],
  [
    "match= removed",
    'with pytest.raises(ParseError, match="empty"):\n    parse("")',
    'with pytest.raises(ParseError):\n    parse("")',
  ],
];

/** Renamings that are not consistent: never taken as the same assertion. */
const NOT_RENAMINGS: [string, string, string][] = [
  [
    "two locals swapped in the assertions only",
    "x = Invoice(a)\ny = Invoice(b)\nassert x.total == a\nassert y.total == b",
    "x = Invoice(a)\ny = Invoice(b)\nassert y.total == a\nassert x.total == b",
  ],
  [
    "a local renamed to one bound to something else",
    "obj = Invoice(a)\nassert obj.total == a",
    "invoice = Invoice(b)\nassert invoice.total == a",
  ],
  [
    "two locals collapsed into one",
    "x = Invoice(a)\ny = Invoice(a)\nassert total(x, y) > 0",
    "x = Invoice(a)\ny = Invoice(a)\nassert total(x, x) > 0",
  ],
  [
    "a local replaced by a module-level name",
    "parsed = parse(str(a))\nassert parsed == a",
    "parsed = parse(str(a))\nassert total == a",
  ],
  [
    "a module-level name replaced by a local",
    "total = Invoice(a)\nassert parse(str(a)) == a",
    "total = Invoice(a)\nassert total(str(a)) == a",
  ],
];

Deno.test("checkRegisteredTests() takes assertions equal up to a consistent renaming as unchanged", async (t) => {
  for (const [name, base, head] of SAME) {
    await t.step(name, () => {
      assert.equal(verdict(test(base), test(head)), "accepted");
      assert.equal(verdict(test(head), test(base)), "accepted");
    });
  }
  await t.step("a drawn parameter renamed in the def and the body", () => {
    assert.equal(
      verdict(
        test("assert total(a, b) == a + b"),
        test("assert total(x, b) == x + b", "x, b"),
      ),
      "accepted",
    );
  });
  await t.step("drawn parameters swapped in the def and the body", () => {
    assert.equal(
      verdict(
        test("assert total(a, b) == a + b"),
        test("assert total(b, a) == b + a", "b, a"),
      ),
      "accepted",
    );
  });
  await t.step("a helper's parameter and local renamed", () => {
    const body = "check_total(Invoice([a, b]), a + b)\nassert a + b == b + a";
    const base = test(body);
    const head = base.replace(
      "def check_total(invoice, expected):\n    assert invoice.total == expected",
      "def check_total(bill, want):\n    got = bill.total\n    assert got == want",
    );
    assert.notEqual(head, base);
    // `got` is new: the base's assertion is rewritten, not renamed.
    assert.equal(verdict(base, head), "rewritten");
    const renamed = base.replace(
      "def check_total(invoice, expected):\n    assert invoice.total == expected",
      "def check_total(bill, want):\n    assert bill.total == want",
    );
    assert.equal(verdict(base, renamed), "accepted");
  });
});

Deno.test("checkRegisteredTests() accepts recognised strengthenings of an assertion", async (t) => {
  for (const [name, base, head] of STRONGER) {
    await t.step(name, () => {
      assert.equal(verdict(test(base), test(head)), "accepted");
    });
  }
});

Deno.test("checkRegisteredTests() rejects each weakening of an assertion, whatever the kill sets say", async (t) => {
  for (const [name, base, head] of WEAKER) {
    await t.step(name, () => {
      assert.equal(verdict(test(base), test(head)), "rejected");
    });
  }
  // The strengthenings, undone, are weakenings.
  for (const [name, base, head] of STRONGER) {
    const added = [
      "an extra assertion",
      "an extra conjunct",
      "an equality of one attribute added beside the whole",
    ];
    if (added.includes(name)) continue;
    await t.step(`undone: ${name}`, () => {
      assert.equal(verdict(test(head), test(base)), "rejected");
    });
  }
});

Deno.test("checkRegisteredTests() takes no inconsistent renaming as a renaming", async (t) => {
  for (const [name, base, head] of NOT_RENAMINGS) {
    await t.step(name, () => {
      assert.equal(verdict(test(base), test(head)), "rewritten");
    });
  }
  await t.step("a pytest fixture renamed (pytest finds it by name)", () => {
    assert.equal(
      verdict(
        test("assert tmp_path.exists()", "tmp_path"),
        test("assert path.exists()", "path"),
      ),
      "rewritten",
    );
  });
});

Deno.test("checkRegisteredTests() leaves a rewrite it cannot classify to the kill sets", async (t) => {
  const cases: [string, string, string][] = [
    [
      "match= changed",
      'with pytest.raises(ParseError, match="empty"):\n    parse("")',
      'with pytest.raises(ParseError, match="blank"):\n    parse("")',
    ],
    [
      "another comparison",
      "assert total(a, b) == a + b",
      "assert total(a, b) - b == a",
    ],
    [
      "match= added to the call form, where it goes to the function",
      "pytest.raises(ParseError, parse, '')",
      "pytest.raises(ParseError, parse, '', match='empty')",
    ],
    [
      "another asserting call",
      "assert total(a, b) == a + b",
      "np.testing.assert_equal(total(a, b), a + b)",
    ],
  ];
  for (const [name, base, head] of cases) {
    await t.step(name, () => {
      assert.equal(verdict(test(base), test(head)), "rewritten");
    });
  }
});

/** A registered test built from named parts, rendered with any names. */
interface Model {
  /** How many locals, each `l<i> = Invoice([<an earlier name>])`. */
  locals: number;
  /** Assertions: a kind, the names it uses (indices into params and locals). */
  asserts: Claim[];
}

interface Claim {
  kind: number;
  x: number;
  y: number;
  /** The tolerance's exponent: `1e-<tol>`. */
  tol: number;
  /** `or` in place of `and`. */
  or: boolean;
  /** `match=` on `pytest.raises`. */
  match: boolean;
}

/** How each kind of claim reads. */
const KINDS: ((x: string, y: string, c: Claim) => string)[] = [
  (x, y) => `assert total(${x}, ${y}) >= total(${x}, 0)`,
  (x, y, c) => `assert abs(total(${x}, 0) - total(${y}, 0)) <= 1e-${c.tol}`,
  (x, y, c) =>
    `assert total(${x}, 0) == pytest.approx(total(${y}, 0), abs=1e-${c.tol})`,
  (x, y, c) =>
    `assert total(${x}, 1) > 0 ${c.or ? "or" : "and"} total(${y}, 1) > 0`,
  (x, _y, c) =>
    `with pytest.raises(ParseError${
      c.match ? ', match="empty"' : ""
    }):\n    parse(${x})`,
];

function kindOf(claim: Claim): number {
  return claim.kind % KINDS.length;
}

function render(model: Model, names: (i: number) => string): string {
  const all = (i: number) => names(i % (2 + model.locals));
  const lines: string[] = [];
  for (let i = 0; i < model.locals; i++) {
    lines.push(`${names(2 + i)} = Invoice([${names(i % (2 + i))}])`);
  }
  for (const claim of model.asserts) {
    const kind = KINDS[kindOf(claim)] as (typeof KINDS)[number];
    lines.push(kind(all(claim.x), all(claim.y), claim));
  }
  const params = `${names(0)}, ${names(1)}`;
  return `${HEADER}@given(st.integers(), st.integers())\ndef test_p(${params}):\n${
    lines.flatMap((l) => l.split("\n")).map((l) => `    ${l}`).join("\n")
  }\n`;
}

const modelArb: fc.Arbitrary<Model> = fc.record({
  locals: fc.integer({ min: 0, max: 3 }),
  asserts: fc.array(
    fc.record({
      kind: fc.nat(),
      x: fc.nat(),
      y: fc.nat(),
      tol: fc.integer({ min: 2, max: 9 }),
      or: fc.constant(false),
      match: fc.boolean(),
    }),
    { minLength: 1, maxLength: 4 },
  ),
});

/** An edit of the head's model: whether it weakens, and whether it changes `model` at all. */
interface Edit {
  name: string;
  weakens: boolean;
  edit: (m: Model) => Model;
  applies: (m: Model) => boolean;
}

const each = (change: (c: Claim) => Claim) => (m: Model): Model => ({
  ...m,
  asserts: m.asserts.map(change),
});
const any = (kinds: number[], also: (c: Claim) => boolean = () => true) =>
(
  m: Model,
) => m.asserts.some((c) => kinds.includes(kindOf(c)) && also(c));

const EDITS: Edit[] = [
  { name: "none", weakens: false, edit: (m) => m, applies: () => true },
  {
    name: "drop the last assertion",
    weakens: true,
    edit: (m) => ({ ...m, asserts: m.asserts.slice(0, -1) }),
    // A test left with no assertion is property.vacuous, another rule's.
    applies: (m) => m.asserts.length > 1,
  },
  {
    name: "loosen every tolerance",
    weakens: true,
    edit: each((c) => ({ ...c, tol: c.tol - 1 })),
    applies: any([1, 2]),
  },
  {
    name: "tighten every tolerance",
    weakens: false,
    edit: each((c) => ({ ...c, tol: c.tol + 1 })),
    applies: () => true,
  },
  {
    name: "turn every `and` into `or`",
    weakens: true,
    edit: each((c) => ({ ...c, or: true })),
    applies: any([3]),
  },
  {
    name: "add match= to every pytest.raises",
    weakens: false,
    edit: each((c) => ({ ...c, match: true })),
    applies: () => true,
  },
  {
    name: "remove match= from every pytest.raises",
    weakens: true,
    edit: each((c) => ({ ...c, match: false })),
    applies: any([4], (c) => c.match),
  },
  {
    name: "add an assertion",
    weakens: false,
    edit: (m) => ({
      ...m,
      asserts: [...m.asserts, {
        kind: 0,
        x: 1,
        y: 0,
        tol: 3,
        or: false,
        match: false,
      }],
    }),
    applies: () => true,
  },
];

/** Names a renaming must not pick: keywords, builtins and the module's own names. */
const RESERVED = new Set(
  [
    "and as assert async await break class continue def del elif else except",
    "False finally for from global if import in is lambda None nonlocal not",
    "or pass raise return True try while with yield abs all a b",
    "math np pytest given st Invoice ParseError parse total check_total",
  ].join(" ").split(" "),
);

const plain = (i: number) => (i < 2 ? ["a", "b"][i] as string : `l${i - 2}`);

Deno.test("checkRegisteredTests(): a consistent renaming of locals and parameters never changes the verdict", () => {
  fc.assert(
    fc.property(
      modelArb,
      fc.nat({ max: EDITS.length - 1 }),
      fc.uniqueArray(fc.stringMatching(/^[a-z][a-z0-9]{0,5}$/), {
        minLength: 6,
        maxLength: 6,
      }),
      (model, which, fresh) => {
        fc.pre(fresh.every((n) => !RESERVED.has(n) && !/^l\d/.test(n)));
        const edit = EDITS[which] as Edit;
        const base = render(model, plain);
        const head = edit.edit(model);
        const spelled = verdict(base, render(head, plain));
        const renamed = verdict(
          base,
          render(head, (i) => fresh[i] ?? plain(i)),
        );
        assert.equal(renamed, spelled);
      },
    ),
    { numRuns: 150 },
  );
});

Deno.test("checkRegisteredTests(): every weakening edit of the assertions is rejected, every strengthening (an added assertion among them) accepted", () => {
  fc.assert(
    fc.property(modelArb, fc.nat({ max: EDITS.length - 1 }), (model, which) => {
      const edit = EDITS[which] as Edit;
      fc.pre(edit.applies(model));
      const got = verdict(
        render(model, plain),
        render(edit.edit(model), plain),
      );
      assert.equal(got, edit.weakens ? "rejected" : "accepted", edit.name);
    }),
    { numRuns: 150 },
  );
});

Deno.test("checkRegisteredTests() finds an assertion dropped from a helper however deep the test reaches it", async (t) => {
  const dropped = (text: string) =>
    text.replace(
      "    assert invoice.total == expected\n",
      "    invoice.total == expected\n",
    );
  const chain = (depth: number) => {
    let defs = "";
    let callee = "check_total";
    for (let i = 1; i < depth; i++) {
      defs +=
        `def check_${i}(invoice, expected):\n    ${callee}(invoice, expected)\n\n\n`;
      callee = `check_${i}`;
    }
    return `${defs}${
      test(`${callee}(Invoice([a, b]), a + b)\nassert a * a >= 0`)
    }`;
  };
  for (const depth of [1, 2, 3]) {
    const base = chain(depth);
    await t.step(`a helper ${depth} call(s) away`, () => {
      assert.equal(verdict(base, base), "accepted");
      assert.equal(verdict(base, dropped(base)), "rejected");
    });
  }
});

/** Assertions that imply none of the others. */
const POOL = [
  "assert total(a, b) == a + b",
  "assert a * a >= 0",
  "assert parse(str(a)) == a",
  "assert isinstance(Invoice(b), Invoice)",
];

Deno.test("checkRegisteredTests(): assertions count as a multiset, so one copy of a repeated assertion dropped is rejected", () => {
  fc.assert(
    fc.property(
      fc.array(fc.nat({ max: POOL.length - 1 }), {
        minLength: 1,
        maxLength: 5,
      }),
      fc.nat(),
      (picks, at) => {
        const lines = picks.map((i) => POOL[i] as string);
        const copy = lines[at % lines.length] as string;
        assert.equal(
          verdict(test([...lines, copy].join("\n")), test(lines.join("\n"))),
          "rejected",
        );
      },
    ),
    { numRuns: 60 },
  );
});

Deno.test("checkRegisteredTests(): an added assertion never removes one, even a copy of one already made", () => {
  fc.assert(
    fc.property(
      fc.array(fc.nat({ max: POOL.length - 1 }), {
        minLength: 1,
        maxLength: 5,
      }),
      fc.nat({ max: POOL.length - 1 }),
      fc.nat(),
      (picks, added, at) => {
        const lines = picks.map((i) => POOL[i] as string);
        const head = [...lines];
        head.splice(at % (lines.length + 1), 0, POOL[added] as string);
        assert.equal(
          verdict(test(lines.join("\n")), test(head.join("\n"))),
          "accepted",
        );
      },
    ),
    { numRuns: 60 },
  );
});

/** The message of the `property.assertion_removed` finding, or undefined. */
function removedMessage(base: string, head: string): string | undefined {
  const b = analyses(base);
  const h = analyses(head);
  return checkRegisteredTests([{
    layout: "000",
    id: "p",
    module: "tests.test_p",
    name: "test_p",
  }], {
    baseModules: b.modules,
    headModules: h.modules,
    baseTree: b.tree,
    headTree: h.tree,
    isTestSide: () => true,
  }).findings.find((f) => f.rule === "property.assertion_removed")?.message;
}

Deno.test("checkRegisteredTests() pairs each base assertion with the head's as spelled before it tries renamings", async (t) => {
  const cases: [string, string, string, Verdict][] = [
    [
      "assertions on locals bound alike, reordered",
      "x = Invoice(a)\ny = Invoice(a)\nassert x.paid\nassert y.paid\nassert total(x, b) > 0",
      "x = Invoice(a)\ny = Invoice(a)\nassert y.paid\nassert x.paid\nassert total(x, b) > 0",
      "accepted",
    ],
    [
      "a local swapped for another bound alike, beside an assertion that keeps it",
      "x = Invoice(a)\ny = Invoice(a)\nassert x.paid\nassert x.total == a",
      "x = Invoice(a)\ny = Invoice(a)\nassert x.paid\nassert y.total == a",
      "rewritten",
    ],
    [
      "a weakened assertion on locals renamed along a chain (x to y, y to z)",
      "x = Invoice(a)\ny = Invoice(b)\nassert x.paid\nassert y.total == b\nassert parse(str(a)) == x",
      "y = Invoice(a)\nz = Invoice(b)\nassert y.paid\nassert z.total == b\nassert parse(str(a)).cents == y.cents",
      "rejected",
    ],
    [
      "two assertions replaced by one the form cannot compare: one is dropped",
      "assert total(a, b) == a + b\nassert a * a >= 0",
      "assert total(a, b) - b == a",
      "rejected",
    ],
  ];
  for (const [name, base, head, want] of cases) {
    await t.step(name, () => {
      assert.equal(verdict(test(base), test(head)), want);
    });
  }
});

Deno.test("checkRegisteredTests() counts a `raise AssertionError` as an assertion of its own kind", async (t) => {
  const raising = (message: string) =>
    `if total(a, b) != a + b:\n    raise AssertionError("${message}")\nassert a * a >= 0`;
  const cases: [string, string, string, Verdict][] = [
    ["kept", raising("sum"), raising("sum"), "accepted"],
    ["dropped", raising("sum"), "assert a * a >= 0", "rejected"],
    ["its message changed", raising("sum"), raising("total"), "rewritten"],
    [
      "replaced by an assert the form cannot compare",
      raising("sum"),
      "assert total(a, b) - b == a\nassert a * a >= 0",
      "rewritten",
    ],
  ];
  for (const [name, base, head, want] of cases) {
    await t.step(name, () => {
      assert.equal(verdict(test(base), test(head)), want);
    });
  }
});

Deno.test("checkRegisteredTests() says whether a base assertion was dropped or weakened, and where", async (t) => {
  await t.step(
    "a weakened assertion names the base's line and the head's",
    () => {
      const message = removedMessage(
        test(
          "assert a >= 0\nassert total(a, b) == pytest.approx(a + b, abs=1e-6)",
        ),
        test(
          "assert a >= 0\nassert total(a, b) == pytest.approx(a + b, abs=1e-3)",
        ),
      );
      assert.match(message ?? "", /weakens 1 of the base's assertions/);
      assert.doesNotMatch(message ?? "", /no longer makes/);
      assert.match(
        message ?? "",
        /base tests\/test_p\.py line\(s\) 17, now line\(s\) 17\)/,
      );
    },
  );
  await t.step("a dropped assertion names the base's line", () => {
    const message = removedMessage(
      test("assert a >= 0\nassert total(a, b) == a + b"),
      test("assert a >= 0"),
    );
    assert.match(message ?? "", /no longer makes 1 of the base's assertions/);
    assert.doesNotMatch(message ?? "", /weakens/);
    assert.match(message ?? "", /base tests\/test_p\.py line\(s\) 17\)/);
  });
});

Deno.test("checkRegisteredTests() leaves a claim too large to compare within its budget to the kill sets", () => {
  // Each of the head's alternatives is sought among the base's: about
  // n²/2 comparisons, past the budget for n = 300.
  const n = 300;
  const parts = Array.from({ length: n }, (_, i) => `a == ${i}`);
  assert.equal(
    verdict(
      test(`assert ${parts.join(" or ")}`),
      test(`assert ${parts.toReversed().join(" or ")}`),
    ),
    "rewritten",
  );
  // A small one, reordered the same way, is compared in full.
  const few = parts.slice(0, 5);
  assert.equal(
    verdict(
      test(`assert ${few.join(" or ")}`),
      test(`assert ${few.toReversed().join(" or ")}`),
    ),
    "accepted",
  );
});
