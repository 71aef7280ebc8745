/**
 * `[fixtures] roots` in the base's `pawl.toml`, end to end on real git
 * repositories: a fixture outside `tests/fixtures/` (a project's
 * `tests/test_mypy.yml`) can be locked in seed 000's contract and in seed
 * 003's `fixtures.lock`; path hygiene is unchanged; a head cannot move the
 * root; a base fixture outside its own root is exit 2.
 */
import assert from "node:assert/strict";
import { sampleBaseFiles } from "../src/demo/build_sample_repo.ts";
import { blocking, check, explain, pawl, rules } from "./_cli.ts";
import { L003, layout003Base } from "./_layouts.ts";
import { buildRepo, edit, git, replaceOnce, sha256 } from "./_repo.ts";

const MYPY = "tests/test_mypy.yml";
const MYPY_TEXT = `- case: parse_invoice_types
  main: |
    from payments.parser import parse_invoice
    reveal_type(parse_invoice(b"INV|a|1"))
`;
const ROOTS_TESTS = '[fixtures]\nroots = ["tests"]\n';

/** The sample repository with its fixture moved to `tests/invoice_v3.json` and a second one at `tests/test_mypy.yml`. */
function base000(settings: string | undefined): Record<string, string> {
  const files = sampleBaseFiles();
  const fixture = files["tests/fixtures/invoice_v3.json"]!;
  delete files["tests/fixtures/invoice_v3.json"];
  files["tests/invoice_v3.json"] = fixture;
  files[MYPY] = MYPY_TEXT;
  files["tests/test_invoices.py"] = replaceOnce(
    files["tests/test_invoices.py"]!,
    'Path(__file__).parent / "fixtures" / "invoice_v3.json"',
    'Path(__file__).parent / "invoice_v3.json"',
  );
  files["tests/agent_contract.yaml"] = replaceOnce(
    files["tests/agent_contract.yaml"]!,
    "path: tests/fixtures/invoice_v3.json",
    "path: tests/invoice_v3.json",
  ).replace(
    "freezes:",
    `  - id: mypy_cases\n    path: ${MYPY}\n    sha256: ${
      sha256(MYPY_TEXT)
    }\n    unlock: null\nfreezes:`,
  );
  if (settings !== undefined) files["pawl.toml"] = settings;
  return files;
}

Deno.test("seed 000: fixtures under the base's [fixtures] roots are locked, judged and run", async () => {
  await using repo = await buildRepo({
    base: base000(ROOTS_TESTS),
    heads: {
      "agent/readme": { "README.md": "# payments\n\nA note.\n" },
      "agent/rewrite-mypy": {
        [MYPY]: MYPY_TEXT.replace("parse_invoice_types", "anything_goes"),
      },
      "agent/move-root": {
        "pawl.toml": '[fixtures]\nroots = ["."]\n',
        "payments/data.json": "{}\n",
        "tests/agent_contract.yaml": edit(
          "freezes:",
          `  - id: data\n    path: payments/data.json\n    sha256: ${
            sha256("{}\n")
          }\n    unlock: null\nfreezes:`,
        ),
      },
      "agent/escape": {
        "tests/agent_contract.yaml": edit(
          "freezes:",
          `  - id: up\n    path: tests/../payments/parser.py\n    sha256: "${
            "0".repeat(64)
          }"\n    unlock: null\nfreezes:`,
        ),
      },
      "agent/symlink": {
        "tests/linked": { symlink: "../payments" },
        "tests/agent_contract.yaml": edit(
          "freezes:",
          `  - id: linked\n    path: tests/linked/parser.py\n    sha256: "${
            "0".repeat(64)
          }"\n    unlock: null\nfreezes:`,
        ),
      },
    },
  });
  // The full gate, tests included: the suite reads the moved fixture.
  const honest = await check(repo.dir, "agent/readme");
  assert.equal(honest.code, 0, explain(honest));
  assert.deepEqual(blocking(honest.verdict), []);

  const rewritten = await check(repo.dir, "agent/rewrite-mypy", {
    command: "diff",
  });
  assert.equal(rewritten.code, 1, explain(rewritten));
  assert.deepEqual(rules(blocking(rewritten.verdict)), [
    "fixture.digest_mismatch",
  ]);
  assert.equal(blocking(rewritten.verdict)[0]?.path, MYPY);

  // The head's pawl.toml is never used: the new fixture is outside the
  // base's root, and changing the root is itself a settings change.
  const moved = await check(repo.dir, "agent/move-root", { command: "diff" });
  assert.equal(moved.code, 1, explain(moved));
  const movedRules = rules(blocking(moved.verdict));
  assert.ok(movedRules.includes("config.settings_changed"), movedRules.join());
  const unsafe = blocking(moved.verdict).find((f) =>
    f.rule === "fixture.path_unsafe"
  );
  assert.match(
    unsafe?.message ?? "",
    /"payments\/data\.json" is outside "tests\/"/,
  );

  const escape = await check(repo.dir, "agent/escape", { command: "diff" });
  assert.equal(escape.code, 1, explain(escape));
  // The contract's schema already refuses a ".." path (a head contract
  // that does not validate is judged by the base's and rejected).
  assert.ok(
    ["fixture.path_unsafe", "config.contract_invalid"].includes(
      blocking(escape.verdict)[0]?.rule ?? "",
    ),
    explain(escape),
  );
  assert.match(blocking(escape.verdict)[0]!.message, /\.\./);

  const symlink = await check(repo.dir, "agent/symlink", { command: "diff" });
  assert.equal(symlink.code, 1, explain(symlink));
  assert.ok(
    rules(blocking(symlink.verdict)).includes("fixture.symlink"),
    explain(symlink),
  );
});

Deno.test("seed 000: without [fixtures] roots a base fixture outside tests/fixtures/ is exit 2 that names the setting", async () => {
  await using repo = await buildRepo({
    base: base000(undefined),
    heads: { "agent/readme": { "README.md": "# payments\n" } },
  });
  const result = await check(repo.dir, "agent/readme", { command: "diff" });
  assert.equal(result.code, 2, explain(result));
  assert.match(result.stderr, /already breaks its own contract/);
  assert.match(result.stderr, /outside "tests\/fixtures\/"/);
  assert.match(result.stderr, /\[fixtures\] roots/);
  assert.equal(result.verdict?.decision, "undecided" as never);
});

Deno.test("seed 000: a base pawl.toml with an unsafe fixture root is exit 2 naming the key and line", async () => {
  await using repo = await buildRepo({
    base: base000('[fixtures]\nroots = ["../elsewhere"]\n'),
    heads: { "agent/readme": { "README.md": "# payments\n" } },
  });
  const result = await check(repo.dir, "agent/readme", { command: "diff" });
  assert.equal(result.code, 2, explain(result));
  assert.match(result.stderr, /pawl\.toml/);
  assert.match(result.stderr, /fixtures\.roots/);
  assert.match(result.stderr, /"\.\." segment/);
  assert.match(result.stderr, /line 2/);
});

Deno.test("seed 003: [fixtures] roots narrows where fixtures.lock may point, and the base's own lock is held to it", async () => {
  const { files } = await layout003Base();
  const extra = "testdata/extra.json";
  const addExtra = edit(
    `"${L003.fixture}": "${sha256(files[L003.fixture]!)}"`,
    `"${L003.fixture}": "${sha256(files[L003.fixture]!)}",\n    "${extra}": "${
      sha256("[]\n")
    }"`,
  );
  await using repo = await buildRepo({
    base: { ...files, "pawl.toml": '[fixtures]\nroots = ["tests/fixtures"]\n' },
    heads: {
      "agent/lock-outside": { [extra]: "[]\n", [L003.lock]: addExtra },
      "agent/lock-inside": {
        "tests/fixtures/extra.json": "[]\n",
        [L003.lock]: edit(
          `"${L003.fixture}": "${sha256(files[L003.fixture]!)}"`,
          `"${L003.fixture}": "${
            sha256(files[L003.fixture]!)
          }",\n    "tests/fixtures/extra.json": "${sha256("[]\n")}"`,
        ),
      },
    },
  });
  const outside = await check(repo.dir, "agent/lock-outside", {
    command: "diff",
  });
  assert.equal(outside.code, 1, explain(outside));
  assert.deepEqual(rules(blocking(outside.verdict)), ["fixture.path_unsafe"]);
  assert.match(
    blocking(outside.verdict)[0]!.message,
    /"testdata\/extra\.json" is outside "tests\/fixtures\/"/,
  );
  const inside = await check(repo.dir, "agent/lock-inside", {
    command: "diff",
  });
  assert.equal(inside.code, 0, explain(inside));

  // The same lock entry at the base is the base's problem, not a reject.
  await using broken = await buildRepo({
    base: {
      ...files,
      [extra]: "[]\n",
      [L003.lock]: addExtra(files[L003.lock]!),
      "pawl.toml": '[fixtures]\nroots = ["tests/fixtures"]\n',
    },
    heads: { "agent/readme": { "README.md": "# shop\n" } },
  });
  const base = await check(broken.dir, "agent/readme", { command: "diff" });
  assert.equal(base.code, 2, explain(base));
  assert.match(base.stderr, /already breaks its own contract/);
  assert.match(base.stderr, /testdata\/extra\.json/);
});

Deno.test("propose lists fixtures under the commit's [fixtures] roots, and its proposal holds at that base", async (t) => {
  const files: Record<string, string> = {
    "pawl.toml": ROOTS_TESTS,
    "payments/__init__.py": "",
    "payments/core.py": "def one():\n    return 1\n",
    "tests/__init__.py": "",
    "tests/test_core.py":
      "from payments.core import one\n\n\ndef test_one():\n    assert one() == 1\n",
    [MYPY]: MYPY_TEXT,
    "tests/fixtures/a.json": "[]\n",
    "tests/.gitkeep": "",
  };
  await using repo = await buildRepo({ base: files });
  await t.step(
    "000: ids are paths below the root; code and hidden files are not data",
    async () => {
      const result = await pawl(["propose", "--repo", repo.dir, "--quiet"], {
        out: false,
      });
      assert.equal(result.code, 0, explain(result));
      assert.match(
        result.stdout,
        /- id: "test_mypy\.yml"\n\s+path: "tests\/test_mypy\.yml"/,
      );
      assert.match(
        result.stdout,
        /- id: "fixtures\/a\.json"\n\s+path: "tests\/fixtures\/a\.json"/,
      );
      assert.doesNotMatch(result.stdout, /path: "tests\/test_core\.py"/);
      assert.doesNotMatch(result.stdout, /\.gitkeep/);
      assert.doesNotMatch(result.stdout, /path: "pawl\.toml"/);
    },
  );
  await t.step("003: fixtures.lock locks the same files", async () => {
    const result = await pawl([
      "propose",
      "--repo",
      repo.dir,
      "--layout",
      "003",
      "--quiet",
    ], { out: false });
    assert.equal(result.code, 0, explain(result));
    assert.match(
      result.stdout,
      new RegExp(`"tests/test_mypy\\.yml": "${sha256(MYPY_TEXT)}"`),
    );
  });
  await t.step(
    "the written proposal, committed as the base, judges a harmless change as accept",
    async () => {
      const write = await pawl([
        "propose",
        "--repo",
        repo.dir,
        "--write",
        "--quiet",
      ], {
        out: false,
      });
      assert.equal(write.code, 0, explain(write));
      await git(repo.dir, ["add", "-A"]);
      await git(repo.dir, [
        "commit",
        "-q",
        "-m",
        "Adopt the proposed contract",
      ]);
      await git(repo.dir, ["checkout", "-q", "-b", "agent/readme"]);
      await Deno.writeTextFile(`${repo.dir}/README.md`, "# payments\n");
      await git(repo.dir, ["add", "-A"]);
      await git(repo.dir, ["commit", "-q", "-m", "Readme"]);
      const judged = await check(repo.dir, "agent/readme", { command: "diff" });
      assert.equal(judged.code, 0, explain(judged));
    },
  );
});
