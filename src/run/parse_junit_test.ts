import assert from "node:assert/strict";
import {
  JunitError,
  MAX_MESSAGE_CHARS,
  parseJunit,
  type TestCaseResult,
} from "./parse_junit.ts";

const SAMPLE_TEST = `import pytest
from hypothesis import given, settings, strategies as st


def test_pass():
    assert 1 == 1


def test_fail():
    assert 1 == 2, "one is not two <&>\\"'"


@pytest.fixture
def broken():
    raise RuntimeError("fixture exploded")


def test_fixture_error(broken):
    pass


@pytest.mark.skip(reason="not today")
def test_skipped():
    pass


@pytest.mark.xfail(reason="known bug")
def test_xfail():
    assert False


@pytest.mark.xfail(reason="maybe")
def test_xpass():
    pass


@pytest.mark.xfail(reason="strictly", strict=True)
def test_xpass_strict():
    pass


@pytest.mark.parametrize("n", [1, 2, 3])
def test_param(n):
    assert n != 2


class TestThing:
    def test_method(self):
        assert True

    @pytest.mark.parametrize("s", ["a b", "x::y"])
    def test_method_param(self, s):
        assert s


@settings(max_examples=20, deadline=None, database=None)
@given(st.integers())
def test_prop(x):
    assert x + 0 == x


@settings(max_examples=50, deadline=None, database=None)
@given(st.integers())
def test_prop_fail(x):
    assert x < 10
`;

/** name → expected outcome, for the sample above. */
const EXPECTED: [string, string, TestCaseResult["outcome"]][] = [
  ["tests.test_sample", "test_pass", "passed"],
  ["tests.test_sample", "test_fail", "failed"],
  ["tests.test_sample", "test_fixture_error", "error"],
  ["tests.test_sample", "test_skipped", "skipped"],
  ["tests.test_sample", "test_xfail", "xfailed"],
  ["tests.test_sample", "test_xpass", "passed"],
  ["tests.test_sample", "test_xpass_strict", "failed"],
  ["tests.test_sample", "test_param[1]", "passed"],
  ["tests.test_sample", "test_param[2]", "failed"],
  ["tests.test_sample", "test_param[3]", "passed"],
  ["tests.test_sample.TestThing", "test_method", "passed"],
  ["tests.test_sample.TestThing", "test_method_param[a b]", "passed"],
  ["tests.test_sample.TestThing", "test_method_param[x::y]", "passed"],
  ["tests.test_sample", "test_prop", "passed"],
  ["tests.test_sample", "test_prop_fail", "failed"],
];

async function pytestReport(family: "xunit1" | "xunit2"): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "pawl_junit_" });
  try {
    await Deno.mkdir(`${dir}/tests`);
    await Deno.writeTextFile(`${dir}/tests/test_sample.py`, SAMPLE_TEST);
    const report = `${dir}/junit.xml`;
    const output = await new Deno.Command("/usr/bin/python3", {
      args: [
        "-m",
        "pytest",
        "-q",
        "-p",
        "no:cacheprovider",
        `--junitxml=${report}`,
        "-o",
        `junit_family=${family}`,
        "tests",
      ],
      cwd: dir,
      clearEnv: true,
      env: {
        PATH: "/usr/bin:/bin",
        HOME: dir,
        LANG: "C.UTF-8",
        PYTHONDONTWRITEBYTECODE: "1",
        PYTHONHASHSEED: "0",
      },
      stdout: "piped",
      stderr: "piped",
    }).output();
    assert.equal(
      output.code,
      1,
      `pytest should report failures: ${
        new TextDecoder().decode(output.stdout)
      }${new TextDecoder().decode(output.stderr)}`,
    );
    return await Deno.readTextFile(report);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

function byName(cases: TestCaseResult[], classname: string, name: string) {
  const found = cases.filter((c) =>
    c.classname === classname && c.name === name
  );
  assert.equal(found.length, 1, `one case for ${classname}::${name}`);
  return found[0] as TestCaseResult;
}

for (const family of ["xunit2", "xunit1"] as const) {
  Deno.test(`parseJunit() reads real pytest output of the ${family} family`, async (t) => {
    const cases = parseJunit(await pytestReport(family));
    assert.equal(cases.length, EXPECTED.length);

    for (const [classname, name, outcome] of EXPECTED) {
      await t.step(`${classname}::${name} is ${outcome}`, () => {
        assert.equal(byName(cases, classname, name).outcome, outcome);
      });
    }

    await t.step("a failure keeps its decoded message", () => {
      const fail = byName(cases, "tests.test_sample", "test_fail");
      assert.equal(
        fail.message,
        "AssertionError: one is not two <&>\"'\nassert 1 == 2",
      );
    });

    await t.step("a fixture error says it failed on setup", () => {
      const error = byName(cases, "tests.test_sample", "test_fixture_error");
      assert.match(error.message ?? "", /failed on setup.*fixture exploded/);
    });

    await t.step("skip and xfail keep their reasons", () => {
      assert.equal(
        byName(cases, "tests.test_sample", "test_skipped").message,
        "not today",
      );
      assert.equal(
        byName(cases, "tests.test_sample", "test_xfail").message,
        "known bug",
      );
    });

    await t.step("a Hypothesis failure carries the falsifying example", () => {
      const prop = byName(cases, "tests.test_sample", "test_prop_fail");
      assert.match(prop.message ?? "", /Falsifying example/);
    });

    await t.step(
      family === "xunit1"
        ? "file and 1-based line are kept"
        : "there is no file or line",
      () => {
        const pass = byName(cases, "tests.test_sample", "test_pass");
        if (family === "xunit1") {
          const line = SAMPLE_TEST.split("\n").indexOf("def test_pass():") + 1;
          assert.equal(pass.file, "tests/test_sample.py");
          assert.equal(pass.line, line);
        } else {
          assert.equal(pass.file, undefined);
          assert.equal(pass.line, undefined);
        }
      },
    );
  });
}

Deno.test("parseJunit() reads a collection error as an error case with an empty classname", () => {
  const cases = parseJunit(
    `<?xml version="1.0" encoding="utf-8"?><testsuites><testsuite name="pytest" errors="1"><testcase classname="" name="tests.test_broken" time="0.000"><error message="collection failure">ImportError while importing test module</error></testcase></testsuite></testsuites>`,
  );
  assert.deepEqual(cases, [{
    classname: "",
    name: "tests.test_broken",
    outcome: "error",
    message: "collection failure",
  }]);
});

Deno.test("parseJunit() reads every suite, bare or nested", async (t) => {
  await t.step("a bare testsuite root", () => {
    assert.deepEqual(
      parseJunit(`<testsuite><testcase classname="a" name="t1"/></testsuite>`),
      [{ classname: "a", name: "t1", outcome: "passed" }],
    );
  });
  await t.step("several suites in document order", () => {
    const cases = parseJunit(
      `<testsuites><testsuite><testcase classname="a" name="t1"/></testsuite>` +
        `<testsuite><testcase classname="b" name="t2"><skipped message="xfail: flaky"/></testcase>` +
        `<testsuite><testcase classname="c" name="t3"><error/></testcase></testsuite></testsuite></testsuites>`,
    );
    assert.deepEqual(cases.map((c) => [c.name, c.outcome]), [
      ["t1", "passed"],
      ["t2", "xfailed"],
      ["t3", "error"],
    ]);
  });
  await t.step("a failure wins over a teardown error on the same case", () => {
    const cases = parseJunit(
      `<testsuite><testcase classname="a" name="t"><failure message="f"/><error message="e"/></testcase></testsuite>`,
    );
    assert.equal(cases[0]?.outcome, "failed");
  });
  await t.step("a message without an attribute comes from the body", () => {
    const cases = parseJunit(
      `<testsuite><testcase classname="a" name="t"><failure>line one &amp; more<![CDATA[ &lol; ]]></failure></testcase></testsuite>`,
    );
    assert.equal(cases[0]?.message, "line one & more &lol;");
  });
  await t.step("character references decode", () => {
    const cases = parseJunit(
      `<testsuite><testcase classname="a" name="t&#91;&#x41;&#93;"/></testsuite>`,
    );
    assert.equal(cases[0]?.name, "t[A]");
  });
});

Deno.test("parseJunit() keeps only the first 500 characters of a message", () => {
  const cases = parseJunit(
    `<testsuite><testcase classname="a" name="t"><failure message="${
      "x".repeat(5000)
    }"/></testcase></testsuite>`,
  );
  assert.equal(cases[0]?.message?.length, MAX_MESSAGE_CHARS);
});

Deno.test("parseJunit() refuses hostile and malformed XML", async (t) => {
  const laughs = `<?xml version="1.0"?>
<!DOCTYPE lolz [
 <!ENTITY lol "lol">
 <!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
 <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
 <!ENTITY lol4 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">
 <!ENTITY lol5 "&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;">
 <!ENTITY lol6 "&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;">
 <!ENTITY lol7 "&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;">
 <!ENTITY lol8 "&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;">
 <!ENTITY lol9 "&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;">
]>
<testsuite><testcase classname="a" name="&lol9;"/></testsuite>`;
  const table: [string, string, RegExp][] = [
    ["billion laughs", laughs, /"<!DOCTYPE" is refused at line 2$/],
    [
      "an external entity",
      `<!DOCTYPE t [<!ENTITY x SYSTEM "file:///etc/passwd">]><testsuite><testcase classname="a" name="&x;"/></testsuite>`,
      /DOCTYPE/,
    ],
    [
      "a lower-case doctype",
      `<!doctype testsuite><testsuite/>`,
      /refused/,
    ],
    [
      "an undefined entity without a DOCTYPE",
      `<testsuite><testcase classname="a" name="&lol9;"/></testsuite>`,
      /undefined or invalid reference "&lol9;"/,
    ],
    [
      "a bare ampersand in an attribute",
      `<testsuite><testcase classname="a & b" name="t"/></testsuite>`,
      /reference/,
    ],
    ["an unclosed tag", `<testsuite><testcase name="t"></testsuite>`, /./],
    ["empty input", ``, /./],
    ["plain text", `all tests passed`, /./],
    [
      "two root elements",
      `<testsuite/><testsuite/>`,
      /expected one root element, found 2/,
    ],
    ["trailing garbage", `<testsuite/>junk`, /./],
    [
      "a root that is not JUnit",
      `<html><testcase classname="a" name="t"/></html>`,
      /root element "html"/,
    ],
    [
      "a testcase without a name",
      `<testsuite><testcase classname="a"/></testsuite>`,
      /no "name" attribute/,
    ],
    [
      "absurd nesting",
      `${"<testsuite>".repeat(200)}${"</testsuite>".repeat(200)}`,
      /nested tags exceeded/,
    ],
  ];
  for (const [label, xml, pattern] of table) {
    await t.step(`${label} throws JunitError`, () => {
      assert.throws(() => parseJunit(xml), (error: unknown) => {
        assert.ok(error instanceof JunitError);
        assert.ok(error instanceof SyntaxError);
        assert.equal(error.name, "JunitError");
        assert.match(error.message, /^Cannot read JUnit report: /);
        assert.match(error.message, pattern);
        return true;
      });
    });
  }
});

Deno.test("parseJunit() reads what a case's attributes and children say", async (t) => {
  const table: [string, string, TestCaseResult][] = [
    [
      "a case without a classname has an empty one",
      `<testsuite><testcase name="t"/></testsuite>`,
      { classname: "", name: "t", outcome: "passed" },
    ],
    [
      "a skip without a message has no message",
      `<testsuite><testcase classname="a" name="t"><skipped/></testcase></testsuite>`,
      { classname: "a", name: "t", outcome: "skipped" },
    ],
    [
      "a message of control characters and blanks only is no message",
      `<testsuite><testcase classname="a" name="t"><failure message=" &#1;&#x7f; "/></testcase></testsuite>`,
      { classname: "a", name: "t", outcome: "failed" },
    ],
    [
      "control characters other than tab and newline leave a message, and so do its outer blanks",
      `<testsuite><testcase classname="a" name="t"><failure message="  &#1;a&#7;b&#9;c&#10;d&#x1f;&#x7f;  "/></testcase></testsuite>`,
      { classname: "a", name: "t", outcome: "failed", message: "ab\tc\nd" },
    ],
    [
      "an error wins over a skip, whatever their order",
      `<testsuite><testcase classname="a" name="t"><skipped message="s"/><error message="e"/></testcase></testsuite>`,
      { classname: "a", name: "t", outcome: "error", message: "e" },
    ],
    [
      "an empty file attribute is no file",
      `<testsuite><testcase classname="a" name="t" file=""/></testsuite>`,
      { classname: "a", name: "t", outcome: "passed" },
    ],
    [
      "a file attribute is decoded",
      `<testsuite><testcase classname="a" name="t" file="tests/a&amp;b.py"/></testsuite>`,
      { classname: "a", name: "t", outcome: "passed", file: "tests/a&b.py" },
    ],
    [
      "line 0 is the first line",
      `<testsuite><testcase classname="a" name="t" line="0"/></testsuite>`,
      { classname: "a", name: "t", outcome: "passed", line: 1 },
    ],
    [
      "a nine-digit line is kept",
      `<testsuite><testcase classname="a" name="t" line="123456789"/></testsuite>`,
      { classname: "a", name: "t", outcome: "passed", line: 123456790 },
    ],
    ...[
      ["not a number", "x"],
      ["negative", "-1"],
      ["with a sign", "+1"],
      [
        "fractional",
        "1.5",
      ],
      ["ten digits long", "1234567890"],
      ["padded", " 1"],
      [
        "followed by text",
        "1x",
      ],
      ["empty", ""],
    ].map(([label, line]): [string, string, TestCaseResult] => [
      `a line ${label} is no line`,
      `<testsuite><testcase classname="a" name="t" line="${line}"/></testsuite>`,
      { classname: "a", name: "t", outcome: "passed" },
    ]),
    [
      "a bare testsuite root with attributes is one root",
      `<testsuite name="pytest" tests="1"><testcase classname="a" name="t" time="0.1"/></testsuite>`,
      { classname: "a", name: "t", outcome: "passed" },
    ],
    [
      "a case's own output and properties leave it passed",
      `<testsuite><testcase classname="a" name="t"><properties><property name="p" value="v"/></properties><system-out>out</system-out><system-err>err</system-err></testcase></testsuite>`,
      { classname: "a", name: "t", outcome: "passed" },
    ],
    [
      "a suite's properties and output are no cases",
      `<testsuite><properties><property name="p" value="v"/></properties><testcase classname="a" name="t"/><system-out>out</system-out><system-err>err</system-err></testsuite>`,
      { classname: "a", name: "t", outcome: "passed" },
    ],
    [
      "a case inside as many suites as the parser takes is read",
      `${"<testsuite>".repeat(65)}<testcase classname="a" name="t"/>${
        "</testsuite>".repeat(65)
      }`,
      { classname: "a", name: "t", outcome: "passed" },
    ],
    [
      "a testsuites element inside a testsuite is read too",
      `<testsuite><testsuites><testcase classname="a" name="t"/></testsuites></testsuite>`,
      { classname: "a", name: "t", outcome: "passed" },
    ],
    [
      "a report starting with a byte order mark is read",
      `\uFEFF<testsuite><testcase classname="a" name="t"/></testsuite>`,
      { classname: "a", name: "t", outcome: "passed" },
    ],
    [
      "white space around the root, after another declaration, is no text outside it",
      `<?xml version="1.0"?>\n<testsuite>\n<testcase classname="a" name="t"/>\n</testsuite>\n`,
      { classname: "a", name: "t", outcome: "passed" },
    ],
    [
      "the largest code points either side of the surrogates and of Unicode decode",
      `<testsuite><testcase classname="a" name="&#xD7FF;&#xE000;&#x10FFFF;&#1;"/></testsuite>`,
      {
        classname: "a",
        name: "\uD7FF\uE000\u{10FFFF}\u0001",
        outcome: "passed",
      },
    ],
    [
      "every predefined entity decodes",
      `<testsuite><testcase classname="a" name="&lt;&gt;&amp;&quot;&apos;"/></testsuite>`,
      { classname: "a", name: `<>&"'`, outcome: "passed" },
    ],
  ];
  for (const [label, xml, expected] of table) {
    await t.step(label, () => {
      assert.deepEqual(parseJunit(xml), [expected]);
    });
  }
});

Deno.test("parseJunit() tells an xfail from a skip by its type or its message", async (t) => {
  const table: [string, TestCaseResult["outcome"]][] = [
    [`type="pytest.xfail" message="known bug"`, "xfailed"],
    [`type="PYTEST.XFAIL" message="known bug"`, "xfailed"],
    [`message="xfail: flaky"`, "xfailed"],
    [`message="XFAIL flaky"`, "xfailed"],
    [`message="expected test failure"`, "xfailed"],
    [`message="Expected Test Failure"`, "xfailed"],
    [`message="expected test failure later"`, "skipped"],
    [`message="not an xfail"`, "skipped"],
    [`type="pytest.skip" message="not today"`, "skipped"],
    [``, "skipped"],
  ];
  for (const [attributes, outcome] of table) {
    await t.step(`<skipped ${attributes}/> is ${outcome}`, () => {
      const [found] = parseJunit(
        `<testsuite><testcase classname="a" name="t"><skipped ${attributes}/></testcase></testsuite>`,
      );
      assert.equal(found?.outcome, outcome);
    });
  }
});

Deno.test("parseJunit() counts a message's characters, not its code units", () => {
  const [found] = parseJunit(
    `<testsuite><testcase classname="a" name="t"><failure message="${
      "😀".repeat(MAX_MESSAGE_CHARS + 1)
    }"/></testcase></testsuite>`,
  );
  assert.equal(found?.message, "😀".repeat(MAX_MESSAGE_CHARS));
});

Deno.test("parseJunit() refuses what it cannot read unambiguously, saying where", async (t) => {
  const table: [string, string, RegExp, number | undefined][] = [
    [
      "an entity declaration without a doctype",
      `<!ENTITY x "y"><testsuite/>`,
      /"<!ENTITY" is refused at line 1$/,
      1,
    ],
    [
      "a lower-case doctype, named in upper case, on its line",
      `\n\n<!doctype testsuite><testsuite/>`,
      /"<!DOCTYPE" is refused at line 3$/,
      3,
    ],
    [
      "a reference without its semicolon",
      `<testsuite><testcase classname="a" name="a &amp b"/></testsuite>`,
      /unterminated reference "&amp"/,
      undefined,
    ],
    [
      "a less-than sign inside an attribute value",
      `<testsuite><testcase classname="a" name="a<b"/></testsuite>`,
      /"<" inside an attribute value/,
      undefined,
    ],
    ...[
      "&#0;",
      "&x#65;",
      "&#65x;",
      "&#xD800;",
      "&#xDFFF;",
      "&#x110000;",
      "&#1114112;",
    ].map((
      reference,
    ): [string, string, RegExp, number | undefined] => [
      `the character reference ${reference}`,
      `<testsuite><testcase classname="a" name="${reference}"/></testsuite>`,
      new RegExp(`undefined or invalid reference "${reference}"`),
      undefined,
    ]),
    [
      "an undefined entity in a failure's body",
      `<testsuite><testcase classname="a" name="t"><failure>&nbsp;</failure></testcase></testsuite>`,
      /undefined or invalid reference "&nbsp;"/,
      undefined,
    ],
    [
      "text before the root, after white space",
      `  x<testsuite/>`,
      /./,
      undefined,
    ],
  ];
  for (const [label, xml, pattern, line] of table) {
    await t.step(label, () => {
      assert.throws(() => parseJunit(xml), (error: unknown) => {
        assert.ok(error instanceof JunitError);
        assert.match(error.message, /^Cannot read JUnit report: /);
        assert.match(error.message, pattern);
        if (line !== undefined) assert.equal(error.line, line);
        return true;
      });
    });
  }
});
