import assert from "node:assert/strict";
import fc from "fast-check";
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { JUNIT_XML_OPTIONS, scanJunitXml } from "./_junit_xml.ts";

/** What the validator and the parser make of `xml`: a tree, or null when either refuses it. */
function parsed(xml: string): unknown {
  if (XMLValidator.validate(xml) !== true) return null;
  try {
    return new XMLParser(JUNIT_XML_OPTIONS).parse(xml);
  } catch {
    return null;
  }
}

const SUITE = `import sys

import pytest
from hypothesis import given, settings, strategies as st


def test_pass():
    print("out \\x1b[1m <&> \\u00e9")


def test_fail():
    assert "a\\tb" == "<&>\\"'\\r\\n", "one is not two"


@pytest.fixture
def broken():
    raise RuntimeError("fixture exploded")


def test_fixture_error(broken):
    pass


@pytest.fixture
def broken_teardown():
    yield
    raise RuntimeError("teardown exploded")


def test_teardown_error(broken_teardown):
    sys.stderr.write("err \\x00 \\U0001F600\\n")


@pytest.mark.skip(reason="not today")
def test_skipped():
    pass


@pytest.mark.xfail(reason="known bug")
def test_xfail():
    assert False


@pytest.mark.xfail(reason="strictly", strict=True)
def test_xpass_strict():
    pass


@pytest.mark.parametrize("s", ["a b", "x::y", "<&>", "\\u00e9"])
def test_param(s):
    assert s != "x::y"


class TestThing:
    def test_method(self, record_property):
        record_property("key", "value <&>")


@settings(max_examples=5)
@given(st.integers())
def test_prop(x):
    pass
`;

Deno.test("scanJunitXml() reads what pytest writes, into the tree the parser builds", async (t) => {
  const dir = await Deno.makeTempDir({ prefix: "pawl-junit-xml-" });
  try {
    await Deno.writeTextFile(`${dir}/test_sample.py`, SUITE);
    await Deno.writeTextFile(`${dir}/test_broken.py`, "import nowhere\n");
    for (
      const options of [
        ["-o", "junit_family=xunit2"],
        ["-o", "junit_family=xunit1"],
        ["-o", "junit_logging=all", "-o", "junit_log_passing_tests=true"],
      ]
    ) {
      await t.step(options.join(" "), async () => {
        const report = `${dir}/report.xml`;
        const out = await new Deno.Command("python3", {
          args: [
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "--continue-on-collection-errors",
            `--junitxml=${report}`,
            ...options,
          ],
          cwd: dir,
          env: { PYTHONDONTWRITEBYTECODE: "1" },
          stdout: "piped",
          stderr: "piped",
        }).output();
        assert.equal(out.code, 1, new TextDecoder().decode(out.stdout));
        const xml = await Deno.readTextFile(report);
        const tree = scanJunitXml(xml);
        assert.notEqual(tree, undefined, xml);
        assert.deepEqual(tree, parsed(xml));
      });
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

const TAGS = [
  "testsuites",
  "testsuite",
  "testcase",
  "failure",
  "error",
  "skipped",
  "properties",
  "property",
  "system-out",
];
const NAMES = ["name", "classname", "time", "message", "type", "file", "line"];
const PIECES = [
  "a",
  "Z",
  "0",
  " ",
  "é",
  "😀",
  "/",
  "=",
  ":",
  "'",
  "&amp;",
  "&lt;",
  "&gt;",
  "&quot;",
  "&#10;",
  "&#x1F600;",
];
// Only a noisy document may carry these.
const BAD_PIECES = [
  "&",
  "&bogus;",
  "&#0;",
  "&#xD800;",
  "&#1114112;",
  "<",
  ">",
  '"',
  "\n",
  "\t",
  "\r",
  "\u0001",
  "\ufeff",
  "]]>",
  "<!-- c -->",
  "<![CDATA[x]]>",
  "<?pi x?>",
];

const text = (pieces: string[]) =>
  fc.array(fc.constantFrom(...pieces), { maxLength: 6 }).map((p) => p.join(""));

interface Node {
  tag: string;
  attributes: [string, string][];
  children: (Node | string)[];
  closed: "self" | "spaced" | "pair";
}

const node: fc.Memo<Node> = fc.memo((depth) =>
  fc.record({
    tag: fc.constantFrom(...TAGS),
    attributes: fc.uniqueArray(
      fc.tuple(fc.constantFrom(...NAMES), text(PIECES)),
      { maxLength: 3, selector: ([name]) => name },
    ),
    children: depth <= 1 ? fc.constant([]) : fc.array(
      fc.oneof(node(depth - 1), text([...PIECES, "\n", "\t", "'", '"'])),
      { maxLength: 4 },
    ),
    closed: fc.constantFrom(
      "self" as const,
      "spaced" as const,
      "pair" as const,
    ),
  })
);

function serialize(n: Node | string): string {
  if (typeof n === "string") return n;
  const attributes = n.attributes.map(([k, v]) => ` ${k}="${v}"`).join("");
  if (n.children.length === 0 && n.closed !== "pair") {
    return `<${n.tag}${attributes}${n.closed === "spaced" ? " " : ""}/>`;
  }
  return `<${n.tag}${attributes}>${
    n.children.map(serialize).join("")
  }</${n.tag}>`;
}

const DECLARATIONS = [
  "",
  '<?xml version="1.0" encoding="utf-8"?>',
  '<?xml version="1.0"?>',
  "\n",
];

/** A pytest-like document: a declaration, one root, maybe white space after it. */
const clean = fc.tuple(
  fc.constantFrom(...DECLARATIONS.slice(0, 2)),
  node(4).map((n) => ({
    ...n,
    tag: n.tag === "testsuite" ? "testsuite" : "testsuites",
  })),
  fc.constantFrom("", "\n", " \n "),
).map(([declaration, root, after]) =>
  `${declaration}${serialize(root)}${after}`
);

/** Such documents (or any root) with edits anywhere: a piece XML or the scanner refuses, a cut, a second root. */
const noisy = fc.tuple(
  fc.oneof(
    { arbitrary: clean, weight: 4 },
    {
      arbitrary: fc.tuple(fc.constantFrom(...DECLARATIONS), node(4)).map((
        [declaration, root],
      ) => `${declaration}${serialize(root)}`),
      weight: 1,
    },
  ),
  fc.array(
    fc.tuple(
      fc.nat(),
      fc.oneof(
        fc.constantFrom(...BAD_PIECES, ...TAGS.map((t) => `</${t}>`)),
        fc.constant(""),
      ),
      fc.nat(3),
    ),
    { maxLength: 2 },
  ),
  fc.boolean(),
  fc.boolean(),
).map(([doc, edits, twice, repeat]) => {
  let xml = twice ? `${doc}${doc}` : doc;
  // An attribute given twice.
  if (repeat) xml = xml.replace(/ ([a-z]+)="[^"]*"/, '$& $1="again"');
  for (const [at, piece, cut] of edits) {
    const i = at % (xml.length + 1);
    xml = xml.slice(0, i) + piece + xml.slice(i + cut);
  }
  return xml;
});

Deno.test("scanJunitXml() accepts only what the validator accepts, and builds the parser's tree", () => {
  fc.assert(
    fc.property(clean, (xml) => {
      const tree = scanJunitXml(xml);
      assert.notEqual(tree, undefined, xml);
      assert.deepEqual(tree, parsed(xml), xml);
    }),
    { numRuns: 1000 },
  );
  let scanned = 0;
  fc.assert(
    fc.property(noisy, (xml) => {
      const tree = scanJunitXml(xml);
      if (tree === undefined) return;
      scanned++;
      assert.deepEqual(tree, parsed(xml), xml);
    }),
    { numRuns: 3000 },
  );
  assert.ok(scanned > 100, `only ${scanned} noisy documents were scanned`);
  // Nesting the parser refuses is left to the parser.
  for (const depth of [10, 70]) {
    const deep = `${"<testsuite>".repeat(depth)}${
      "</testsuite>".repeat(depth)
    }`;
    assert.deepEqual(scanJunitXml(deep) ?? null, parsed(deep), `${depth}`);
  }
});

Deno.test("scanJunitXml() refuses a character reference to 0, a surrogate or past U+10FFFF, and takes the code points around them", async (t) => {
  for (
    const [reference, taken] of [
      ["&#0;", false],
      ["&#x0;", false],
      ["&#xD7FF;", true],
      ["&#xD800;", false],
      ["&#55296;", false],
      ["&#xDFFF;", false],
      ["&#xE000;", true],
      ["&#x10FFFF;", true],
      ["&#1114111;", true],
      ["&#x110000;", false],
      ["&#1114112;", false],
    ] as const
  ) {
    await t.step(`${reference} is ${taken ? "taken" : "refused"}`, () => {
      const xml =
        `<testsuite><testcase classname="a" name="t${reference}"/></testsuite>`;
      assert.equal(scanJunitXml(xml) !== undefined, taken);
    });
  }
});

Deno.test("scanJunitXml() leaves elements and attributes pytest never writes, and unclosed elements, to the parser, which refuses them", async (t) => {
  for (
    const xml of [
      '<testsuite><testcase classname="a" name="t" prototype="p"/></testsuite>',
      '<testsuite constructor="x"><testcase classname="a" name="t"/></testsuite>',
      '<testsuite><testcase classname="a" name="t"/><constructor/></testsuite>',
      '<testsuite><testcase classname="a" name="t">',
    ]
  ) {
    await t.step(xml, () => {
      assert.equal(scanJunitXml(xml), undefined);
      assert.equal(parsed(xml), null, "the parser refuses it");
    });
  }
});

Deno.test("scanJunitXml() takes every reference XML predefines, as the parser keeps it", async (t) => {
  for (const reference of ["&lt;", "&gt;", "&amp;", "&quot;", "&apos;"]) {
    await t.step(reference, () => {
      const xml =
        `<testsuite><testcase classname="a" name="t${reference}">${reference}</testcase></testsuite>`;
      const tree = scanJunitXml(xml);
      assert.notEqual(tree, undefined);
      assert.deepEqual(tree, parsed(xml));
    });
  }
});

Deno.test("scanJunitXml() takes the white space XML allows before the root element and between attributes, into the parser's tree", async (t) => {
  for (
    const xml of [
      '\n<testsuite><testcase classname="a" name="t"/></testsuite>',
      ' <testsuite><testcase classname="a" name="t"/></testsuite>',
      ' \n\t<testsuite><testcase classname="a" name="t"/></testsuite>',
      '<testsuite><testcase  classname="a"\n\tname="t"\n/></testsuite>',
      '<testsuite\n  name="s"\t\ttests="1"><testcase classname="a" name="t"/></testsuite>',
    ]
  ) {
    await t.step(JSON.stringify(xml), () => {
      const tree = scanJunitXml(xml);
      assert.notEqual(tree, undefined);
      assert.deepEqual(tree, parsed(xml));
    });
  }
});

Deno.test("scanJunitXml() leaves a document with no root element to the validator, which refuses it", async (t) => {
  for (
    const xml of [
      "",
      "\n",
      " \n\t",
      '<?xml version="1.0" encoding="utf-8"?>',
      '<?xml version="1.0" encoding="utf-8"?>\n',
    ]
  ) {
    await t.step(JSON.stringify(xml), () => {
      assert.equal(scanJunitXml(xml), undefined);
      assert.equal(parsed(xml), null, "the validator refuses it");
    });
  }
});

Deno.test("scanJunitXml() leaves text or a second root element outside the root element to the validator, and takes white space after it", async (t) => {
  const suite = '<testsuite><testcase classname="a" name="t"/></testsuite>';
  for (
    const xml of [
      `${suite}x`,
      `${suite}\n x \n`,
      `x${suite}`,
      `${suite}${suite}`,
      `${suite}\n${suite}\n${suite}`,
    ]
  ) {
    await t.step(JSON.stringify(xml), () => {
      assert.equal(scanJunitXml(xml), undefined);
      assert.equal(parsed(xml), null, "the validator refuses it");
    });
  }
  for (const xml of [`${suite}\n`, `${suite} \n\t`]) {
    await t.step(JSON.stringify(xml), () => {
      const tree = scanJunitXml(xml);
      assert.notEqual(tree, undefined);
      assert.deepEqual(tree, parsed(xml));
    });
  }
});
