import assert from "node:assert/strict";
import { finding } from "../core/finding.ts";
import { buildVerdict } from "../core/verdict.ts";
import {
  acceptVerdict,
  HEAD,
  hostileVerdict,
  input,
  longVerdict,
  mixedFindings,
  rejectVerdict,
  staticVerdict,
} from "./_testing.ts";
import { MARKDOWN_MARKER, renderMarkdown } from "./render_markdown.ts";

/** The table rows (header and separator included). */
function tableRows(markdown: string): string[] {
  return markdown.split("\n").filter((line) => line.startsWith("| "));
}

/** `|` characters that delimit cells (not backslash-escaped). */
function cellPipes(row: string): number {
  let n = 0;
  for (let i = 0; i < row.length; i++) {
    if (row[i] !== "|") continue;
    let slashes = 0;
    for (let j = i - 1; j >= 0 && row[j] === "\\"; j--) slashes++;
    if (slashes % 2 === 0) n++;
  }
  return n;
}

Deno.test("renderMarkdown() starts with the marker, then the decision", async (t) => {
  await t.step("accept", () => {
    const md = renderMarkdown(acceptVerdict());
    const lines = md.split("\n");
    assert.equal(lines[0], MARKDOWN_MARKER);
    assert.equal(lines[2], "## ✅ pawl: accept");
    assert.equal(
      lines[4],
      "`3f1c2a9b0d11..8e7d6c5b4a39` · the contract held and the tests passed · clock `2026-11-30T12:00:00Z`",
    );
    assert.match(md, /\nNo findings\.\n/);
    assert.equal(tableRows(md).length, 0);
  });

  await t.step("reject", () => {
    const md = renderMarkdown(rejectVerdict());
    const lines = md.split("\n");
    assert.equal(lines[0], MARKDOWN_MARKER);
    assert.equal(lines[2], "## ❌ pawl: reject");
    assert.equal(
      lines[4],
      "`3f1c2a9b0d11..8e7d6c5b4a39` · 4 blocking findings · 2 notes · clock `2026-11-30T12:00:00Z`",
    );
  });

  await t.step("the marker constant is the hidden comment", () => {
    assert.equal(MARKDOWN_MARKER, "<!-- pawl:verdict -->");
  });
});

Deno.test("renderMarkdown() tabulates findings with layer, rule, place and message", () => {
  const verdict = rejectVerdict();
  const rows = tableRows(renderMarkdown(verdict));
  assert.equal(rows[0], "| | Layer | Rule | Where | Message |");
  assert.equal(rows.length, 2 + verdict.findings.length);
  assert.ok(
    rows.includes(
      '| ❌ | property | `property.removed` | `tests/agent_contract.yaml:3` | Property "roundtrip\\_stable" was removed or renamed away: restore it |',
    ),
  );
  assert.ok(
    rows.includes(
      "| ❌ | tests | `tests.timeout` | — | The test run was stopped at its time limit of 600000 ms |",
    ),
  );
  assert.ok(
    rows.includes(
      '| ❌ | harness | `harness.pytest_config_changed` | `pyproject.toml` | The pull request changed pytest configuration "pyproject.toml" |',
    ),
  );
  assert.ok(rows.some((r) => r.startsWith("| ℹ️ | config |")));
  for (const row of rows) assert.equal(cellPipes(row), 6, row);
});

Deno.test("renderMarkdown() reports tests, properties, reruns, seeds and the sandbox", async (t) => {
  await t.step("after a run", () => {
    const md = renderMarkdown(rejectVerdict());
    assert.match(
      md,
      /\n- \*\*Tests:\*\* 4 passed, 1 failed, 0 errors, 0 skipped, 0 xfailed\n/,
    );
    assert.match(
      md,
      /\n- \*\*Properties:\*\* 1\/2 passed: `roundtrip_stable` ✅, `total_is_sum` ❌ failed\n/,
    );
    assert.match(
      md,
      /\n- \*\*Reruns:\*\* freeze `test_report_render_flaky` 1\/2 used, passed\n/,
    );
    assert.match(
      md,
      /\n- \*\*Seeds:\*\* fresh `1234567`, 50 trials; 1 frozen seed replayed: `42` \(freeze `seed_freeze`\) ✅\n/,
    );
    assert.match(md, /\n- \*\*Sandbox:\*\* bwrap, network isolated\n/);
  });

  await t.step("when nothing ran", () => {
    const md = renderMarkdown(staticVerdict());
    assert.match(
      md,
      /the contract held in the static checks; no tests were run/,
    );
    assert.doesNotMatch(md, /tests passed/);
    assert.match(
      md,
      /\n- \*\*Tests:\*\* not run: the tests, the registered properties and the frozen seeds are judged only by `pawl check`; these were static checks only\n/,
    );
    assert.match(md, /\n- \*\*Sandbox:\*\* not used/);
    assert.doesNotMatch(md, /Seeds/);
  });
});

Deno.test("renderMarkdown() says how to verify the signature only with a keyid", () => {
  const signed = renderMarkdown(acceptVerdict(), { keyid: "SHA256:AbC+/1" });
  assert.match(signed, /Signed with key `SHA256:AbC\+\/1`/);
  assert.ok(
    signed.includes(
      `\n\`\`\`sh\npawl verify --key pawl.key.pub --envelope verdict.dsse.json --head ${HEAD}\n\`\`\`\n`,
    ),
  );
  assert.doesNotMatch(renderMarkdown(acceptVerdict()), /pawl verify/);
});

Deno.test("renderMarkdown() escapes what the repository wrote", async (t) => {
  const md = renderMarkdown(hostileVerdict());
  const rows = tableRows(md);

  await t.step("each finding stays one row of five cells", () => {
    assert.equal(rows.length, 4);
    for (const row of rows) assert.equal(cellPipes(row), 6, row);
  });

  await t.step("no markup, comment or mention survives", () => {
    assert.doesNotMatch(md, /<script>/);
    assert.equal(md.split(MARKDOWN_MARKER).length, 2);
    assert.ok(md.startsWith(MARKDOWN_MARKER + "\n"));
    assert.doesNotMatch(md, /@octocat/);
    assert.match(md, /@&#8203;octocat/);
    assert.match(
      md,
      /&lt;script&gt;alert\(1\)&lt;\/script&gt; &amp; 'x' &gt; y/,
    );
    assert.match(md, /\\`tick\\` \\\*\\\*bold\\\*\\\* \\_\\_init\\_\\_/);
  });

  await t.step("newlines become <br> and control characters U+FFFD", () => {
    assert.match(md, /y<br>second line\ufffd bell<br>carriage/);
    // deno-lint-ignore no-control-regex
    assert.doesNotMatch(md, /[\u0000-\u0008\u000b-\u001f]/);
  });

  await t.step("a path with a pipe stays inside its code span", () => {
    assert.ok(rows[2]!.includes("| `tests/test_a\\|b <x>.py:4` |"));
  });

  await t.step("a path cannot forge the marker inside a code span", () => {
    const md = renderMarkdown(buildVerdict([
      finding("tests.failed", "x", { path: "<!-- pawl:verdict -->.py" }),
    ], input()));
    assert.equal(md.split(MARKDOWN_MARKER).length, 2);
  });
});

Deno.test("renderMarkdown() caps long tables and long messages", async (t) => {
  await t.step("50 rows, then one row for the rest", () => {
    const rows = tableRows(renderMarkdown(longVerdict(120)));
    assert.equal(rows.length, 2 + 50 + 1);
    assert.equal(
      rows.at(-1),
      "| | | | | …and 70 more findings (70 blocking) in the verdict JSON |",
    );
  });

  await t.step("maxRows sets the cap", () => {
    const rows = tableRows(renderMarkdown(longVerdict(12), { maxRows: 10 }));
    assert.equal(rows.length, 2 + 10 + 1);
    assert.match(rows.at(-1)!, /…and 2 more/);
    assert.equal(
      tableRows(renderMarkdown(longVerdict(10), { maxRows: 10 })).length,
      12,
    );
  });

  await t.step("a long message is kept whole, with the fix at its end", () => {
    const message = `${"x".repeat(1000)}: restore the assert`;
    const md = renderMarkdown(buildVerdict([
      finding("tests.failed", message),
    ], input()));
    assert.ok(md.includes(` | ${message} |`));
  });

  await t.step(
    "a body over the limit drops whole findings, never part of one",
    () => {
      const findings = Array.from(
        { length: 40 },
        (_, i) =>
          finding(
            "tests.failed",
            `Test ${i} failed: ${"y".repeat(3000)}; fix test ${i}`,
          ),
      );
      const md = renderMarkdown(buildVerdict(findings, input()));
      assert.ok(new TextEncoder().encode(md).length <= 65_536);
      const rows = tableRows(md).slice(2);
      const listed = rows.length - 1;
      assert.ok(listed > 5 && listed < 40, String(listed));
      for (const row of rows.slice(0, -1)) {
        assert.match(
          row,
          /; fix test \d+ \|$/,
        );
      }
      assert.equal(
        rows.at(-1),
        `| | | | | …and ${40 - listed} more findings (${
          40 - listed
        } blocking) in the verdict JSON |`,
      );
    },
  );

  await t.step("maxBytes sets the limit", () => {
    const md = renderMarkdown(longVerdict(12), { maxBytes: 2000 });
    assert.ok(new TextEncoder().encode(md).length <= 2000);
    assert.match(tableRows(md).at(-1)!, /…and \d+ more findings? \(/);
  });
});

Deno.test("renderMarkdown() is deterministic", () => {
  const findings = mixedFindings();
  const once = renderMarkdown(buildVerdict(findings, input()), {
    keyid: "SHA256:k",
  });
  assert.equal(
    renderMarkdown(buildVerdict(findings, input()), { keyid: "SHA256:k" }),
    once,
  );
  assert.equal(
    renderMarkdown(buildVerdict([...findings].reverse(), input()), {
      keyid: "SHA256:k",
    }),
    once,
  );
  assert.ok(once.endsWith("</sub>\n"));
});

Deno.test("renderMarkdown() names the contract's layouts by what they keep", () => {
  const markdown = renderMarkdown(acceptVerdict());
  assert.match(markdown, / · layouts agent-contract<\/sub>$/m);
  assert.doesNotMatch(markdown, /layouts 000/);
});

Deno.test("renderMarkdown() shows a failure in a collapsible block nothing the test printed can break", () => {
  const hostile = "````\n</details>\n<!-- pawl:verdict -->\n@octocat `x`";
  const md = renderMarkdown(buildVerdict([
    finding("property.not_passed", "Property p did not pass on seed 7", {
      path: "tests/test_p.py",
      line: 3,
      failure: {
        test: "tests/test_p.py::test_p[<b>@x</b>]",
        example: "test_p(\n    x=10,\n)",
        exception: `AssertionError: ${hostile}`,
        traceback: [hostile, "tests/test_p.py:4: AssertionError"],
        reproduce:
          "PYTHONHASHSEED=0 python3 -m pytest 'tests/test_p.py::test_p'",
      },
    }),
  ], input()));
  assert.equal(md.split(MARKDOWN_MARKER).length, 2);
  assert.ok(md.startsWith(MARKDOWN_MARKER + "\n"));
  assert.ok(md.includes(
    "<details>\n<summary>❌ <code>tests/test_p.py::test_p[&lt;b&gt;@&#8203;x&lt;/b&gt;]</code>: what the test showed, and how to reproduce it</summary>\n",
  ));
  assert.ok(
    md.includes("Falsifying example:\n\n```text\ntest_p(\n    x=10,\n)\n```\n"),
  );
  assert.ok(md.includes(
    "Reproduce it in a checkout of the head:\n\n```sh\nPYTHONHASHSEED=0 python3 -m pytest 'tests/test_p.py::test_p'\n```\n\n</details>\n",
  ));
  // Every block of the test's own text is fenced longer than its backtick runs.
  assert.ok(md.includes("`````text\nAssertionError: ````\n</details>\n"));
  // The test's "</details>" lines stay inside their fenced blocks: the
  // only one outside is the block's own, last.
  const outside = md.replace(/^(`{3,})\w*\n[\s\S]*?\n\1$/gm, "");
  assert.equal(outside.match(/^<\/details>$/gm)?.length, 1);
});

Deno.test("renderMarkdown() keeps every row that fits and shows failures only while room is left", () => {
  const findings = Array.from(
    { length: 40 },
    (_, i) =>
      finding("tests.failed", `Test "t.py::test_${i}" failed: fix it`, {
        failure: {
          test: `t.py::test_${i}`,
          traceback: Array.from({ length: 20 }, () => "z".repeat(99)),
          reproduce: `python3 -m pytest 't.py::test_${i}'`,
        },
      }),
  );
  const md = renderMarkdown(buildVerdict(findings, input()), {
    maxBytes: 30_000,
  });
  assert.ok(new TextEncoder().encode(md).length <= 30_000);
  assert.equal(tableRows(md).length, 2 + 40);
  const shown = md.match(/^<details>$/gm)?.length ?? 0;
  assert.ok(shown > 5 && shown < 40, String(shown));
  assert.ok(
    md.includes(
      `\nWhat ${40 - shown} more failed tests showed is in the verdict JSON.\n`,
    ),
  );
});

Deno.test("renderMarkdown() shows one failure's block once when two findings carry it", () => {
  const failure = {
    test: "tests/test_p.py::test_p",
    exception: "AssertionError: assert 10 < 10",
    reproduce: "python3 -m pytest 'tests/test_p.py::test_p'",
  };
  const md = renderMarkdown(buildVerdict([
    finding("property.not_passed", "Property p did not pass", { failure }),
    finding("tests.failed", 'Test "tests/test_p.py::test_p" failed', {
      failure,
    }),
  ], input()));
  assert.equal(md.match(/^<details>$/gm)?.length, 1);
  assert.equal(tableRows(md).length, 2 + 2);
});
