import assert from "node:assert/strict";

/**
 * In a fresh process (this one may have loaded the full YAML parser
 * already): `code` runs with `loadContracts`, `readCommits` and `FakeGit`
 * in scope and prints one line.
 */
async function inFreshProcess(code: string): Promise<string> {
  const url = (path: string) => new URL(path, import.meta.url).href;
  const script = `
    const { loadContracts } = await import(${
    JSON.stringify(url("./load_contracts.ts"))
  });
    const { readCommits } = await import(${
    JSON.stringify(url("./read_commits.ts"))
  });
    const { FakeGit } = await import(${
    JSON.stringify(url("../git/fake_git.ts"))
  });
    const { SILENT_PROGRESS } = await import(${
    JSON.stringify(url("../core/progress.ts"))
  });
    ${code}
  `;
  const result = await new Deno.Command(Deno.execPath(), {
    args: ["eval", "--node-modules-dir=manual", script],
    cwd: new URL("../../", import.meta.url),
    stdout: "piped",
    stderr: "piped",
  }).output();
  const stderr = new TextDecoder().decode(result.stderr);
  assert.equal(result.code, 0, stderr);
  return new TextDecoder().decode(result.stdout).trim();
}

const CONTRACT = `version: 1
properties:
  - id: parse_ok
    module: tests.properties.test_parse
    name: test_parse
    min_examples: 40
`;

Deno.test("loadContracts() loads the full YAML parser when a contract needs it: a base only it reads, a head it refuses", async () => {
  // A trailing comment is beyond the fast reader; an anchor is refused.
  const base = CONTRACT.replace("version: 1", "version: 1 # the format");
  const head = base.replace("min_examples: 40", "min_examples: &n 40");
  const out = await inFreshProcess(`
    const git = new FakeGit({ commits: {
      main: { "tests/agent_contract.yaml": ${JSON.stringify(base)} },
      pr: { "tests/agent_contract.yaml": ${JSON.stringify(head)} },
    } });
    const commits = await readCommits(git, { base: "main", head: "pr" }, SILENT_PROGRESS);
    const contracts = await loadContracts(git, commits, { repo: "." });
    console.log(JSON.stringify(contracts.findings.map((f) => [f.rule, f.line])));
  `);
  assert.equal(out, '[["config.contract_invalid",6]]');
});
