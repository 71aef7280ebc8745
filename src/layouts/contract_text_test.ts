import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { ContractSyntaxError } from "../contract/contract_syntax_error.ts";
import {
  baseContractText,
  contractFileRefs,
  headContractText,
  invalidHeadContract,
} from "./contract_text.ts";
import type { ContractBlob, ContractBlobs } from "./dialect.ts";
import type { Finding } from "../core/finding.ts";

const PATH = "tests/agent_contract.yaml";

function file(text: string | null): ContractBlob {
  return {
    kind: "file",
    text,
    bytes: new TextEncoder().encode(text ?? "\xff"),
  };
}

Deno.test("baseContractText() names the size cap an oversize contract is over", () => {
  const blobs: ContractBlobs = new Map([
    ["invariants.toml", {
      kind: "oversize",
      size: 9_000_000,
      limit: 8 * 1024 * 1024,
    }],
  ]);
  assert.throws(
    () => baseContractText(blobs, "invariants.toml"),
    (error: unknown) =>
      error instanceof ContractSyntaxError &&
      error.message.includes(
        "it is 9000000 bytes, over the 8388608-byte (8 MiB) cap on contract files; refused before parsing",
      ),
  );
});

Deno.test("headContractText() judges a head that removed, symlinked or broke the contract against the base copy, each with its own finding", async (t) => {
  const base: ContractBlobs = new Map([[PATH, file("version: 1\n")]]);
  const cases: [string, ContractBlobs, ContractBlobs, unknown, string[]][] = [
    [
      "a kept file is its text",
      base,
      new Map([[PATH, file("v: 2\n")]]),
      "v: 2\n",
      [],
    ],
    ["a removed file", base, new Map(), null, ["config.contract_removed"]],
    ["a symlink", base, new Map([[PATH, { kind: "symlink" }]]), null, [
      "config.contract_symlink",
    ]],
    ["a file that is not UTF-8", base, new Map([[PATH, file(null)]]), null, [
      "config.contract_invalid",
    ]],
    [
      "something other than a file",
      base,
      new Map([[PATH, { kind: "other" }]]),
      null,
      [
        "config.contract_invalid",
      ],
    ],
    ["a file neither side has", new Map(), new Map(), undefined, []],
  ];
  for (const [name, b, h, text, rules] of cases) {
    await t.step(name, () => {
      const findings: Finding[] = [];
      assert.equal(headContractText(b, h, PATH, findings), text);
      assert.deepEqual(findings.map((f) => f.rule), rules);
      for (const f of findings) assert.equal(f.path, PATH);
    });
  }
});

Deno.test("contractFileRefs() digests the base's regular contract files only", () => {
  const base: ContractBlobs = new Map<string, ContractBlob>([
    ["a.yaml", file("x")],
    ["b.yaml", { kind: "symlink" }],
    ["c.yaml", { kind: "oversize", size: 10, limit: 5 }],
  ]);
  assert.deepEqual(
    contractFileRefs("002", base, ["a.yaml", "b.yaml", "c.yaml", "d.yaml"]),
    [{
      path: "a.yaml",
      layout: "002",
      // sha256("x")
      sha256:
        "2d711642b726b04401627ca9fbac32f5c8530fb1903cc4db02258717921a4881",
    }],
  );
});

Deno.test("invalidHeadContract() records a head contract's syntax error as a finding at its path and line", () => {
  const findings: Finding[] = [];
  invalidHeadContract(
    new ContractSyntaxError(PATH, 'unknown key "notes"', {
      line: 4,
      column: 3,
    }),
    findings,
  );
  assert.deepEqual(
    findings.map((f) => [f.rule, f.path, f.line]),
    [["config.contract_invalid", PATH, 4]],
  );
  assert.match(findings[0]?.message ?? "", /unknown key "notes"/);
});

Deno.test("contractFileRefs() goes past a missing or irregular file to the ones after it, and digests their bytes as read", () => {
  // A byte order mark the text read from the blob no longer shows.
  const bytes = new TextEncoder().encode("\ufeffy");
  const base: ContractBlobs = new Map<string, ContractBlob>([
    ["b.yaml", { kind: "symlink" }],
    ["c.yaml", { kind: "file", text: "y", bytes }],
  ]);
  assert.deepEqual(
    contractFileRefs("003", base, ["a.yaml", "b.yaml", "c.yaml"]),
    [{
      path: "c.yaml",
      layout: "003",
      sha256: createHash("sha256").update(bytes).digest("hex"),
    }],
  );
});

Deno.test("baseContractText() and headContractText() read an empty contract file as empty text, not as invalid UTF-8", () => {
  const blobs: ContractBlobs = new Map([[PATH, file("")]]);
  const findings: Finding[] = [];
  assert.equal(baseContractText(blobs, PATH), "");
  assert.equal(headContractText(blobs, blobs, PATH, findings), "");
  assert.deepEqual(findings, []);
});

Deno.test("headContractText() says in its finding what the pull request did to the contract file", async (t) => {
  const base: ContractBlobs = new Map([[PATH, file("version: 1\n")]]);
  const cases: [string, ContractBlobs, string][] = [
    [
      "removed",
      new Map(),
      `The pull request removes the contract file "${PATH}"; the head is judged against the base copy`,
    ],
    [
      "symlinked",
      new Map([[PATH, { kind: "symlink" }]]),
      `The pull request turns the contract file "${PATH}" into a symlink; pawl never follows it and judges against the base copy`,
    ],
    [
      "replaced by something other than a file",
      new Map([[PATH, { kind: "other" }]]),
      `Cannot read contract "${PATH}": it is not a regular file`,
    ],
    [
      "no longer valid UTF-8",
      new Map([[PATH, file(null)]]),
      `Cannot read contract "${PATH}": it is not valid UTF-8`,
    ],
  ];
  for (const [name, head, message] of cases) {
    await t.step(name, () => {
      const findings: Finding[] = [];
      assert.equal(headContractText(base, head, PATH, findings), null);
      assert.deepEqual(findings.map((f) => f.message), [message]);
    });
  }
});

Deno.test("baseContractText() says why a base contract file cannot be read", async (t) => {
  const cases: [string, ContractBlob, string][] = [
    [
      "a symlink",
      { kind: "symlink" },
      "it is a symlink, which pawl never follows",
    ],
    [
      "something other than a file",
      { kind: "other" },
      "it is not a regular file",
    ],
    ["a file that is not UTF-8", file(null), "it is not valid UTF-8"],
  ];
  for (const [name, blob, detail] of cases) {
    await t.step(name, () => {
      assert.throws(
        () => baseContractText(new Map([[PATH, blob]]), PATH),
        (error: unknown) => {
          assert.ok(error instanceof ContractSyntaxError);
          assert.equal(error.path, PATH);
          assert.equal(
            error.message,
            `Cannot read contract "${PATH}": ${detail}`,
          );
          return true;
        },
      );
    });
  }
});
