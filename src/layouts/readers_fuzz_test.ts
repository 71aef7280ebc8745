/**
 * A fuzz test of every contract reader and of `pawl.toml`, through the
 * dialects' own `load` on both sides: malformed input is never silently
 * accepted, never escapes as anything but a `ContractSyntaxError` (base
 * side) or a `config.contract_invalid` finding (head side), and every
 * message names the file. Fixed seed, so a failure reproduces.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { ContractSyntaxError } from "../contract/contract_syntax_error.ts";
import { readSettings } from "../settings/read_settings.ts";
import { agentContractDialect } from "./agent_contract/agent_contract_dialect.ts";
import { SEED_CONTRACT } from "./agent_contract/_testing.ts";
import type { ContractBlob, ContractBlobs, Dialect } from "./dialect.ts";
import { invariantsDialect } from "./invariants/invariants_dialect.ts";
import { SEED_CONTRACTS, SEED_FREEZE } from "./seed_contracts/_testing.ts";
import { seedContractsDialect } from "./seed_contracts/seed_contracts_dialect.ts";
import { loadYamlParser } from "../contract/parse_yaml_document.ts";

// These texts include ones only the full YAML parser reads.
await loadYamlParser();

const RUNS = { seed: 42, numRuns: 300 } as const;

const REGISTRY = `[policy]
min_properties = 0
allow_agent_additions = false

[[property]]
id = "parse.roundtrip"
module = "tests.test_parse"
function = "test_roundtrip"
source_sha256 = "${"1".repeat(64)}"
`;

const LOCK =
  `{"policy": {"allow_rotate_on_agent_pr": false}, "files": {"tests/fixtures/a.json": "${
    "2".repeat(64)
  }"}}`;

const FREEZE_LIST = `policy:
  max_frozen: 3
  fail_on_expired: true
freezes:
  - id: "tz"
    path: tests/test_a.py::test_a
    body_sha256: "${"3".repeat(64)}"
    expires_on: "2026-09-26"
    owner: "human"
    reason: "tzdata on the host"
`;

const SETTINGS = `[tests]
command = ["python3", "-m", "pytest", "tests"]
timeout_seconds = 60

[seeds]
env_seed = "CONTRACT_SEED"
env_trials = "CONTRACT_TRIALS"

[fixtures]
roots = ["tests/fixtures", "testdata"]

[[excuses]]
test = "tests/test_io.py::test_locale"
owner = "platform"
expires = "2026-12-31T00:00:00Z"
reason = "no de_DE locale on this runner"
`;

/** Every contract file of every layout, with valid texts for its siblings. */
const FILES: {
  dialect: Dialect;
  path: string;
  valid: Record<string, string>;
}[] = [
  {
    dialect: agentContractDialect,
    path: "tests/agent_contract.yaml",
    valid: { "tests/agent_contract.yaml": SEED_CONTRACT },
  },
  ...["invariants.toml", "fixtures.lock", "freeze.yml"].map((path) => ({
    dialect: invariantsDialect,
    path,
    valid: {
      "invariants.toml": REGISTRY,
      "fixtures.lock": LOCK,
      "freeze.yml": FREEZE_LIST,
    },
  })),
  ...["contracts.yml", "flake_freeze.yml"].map((path) => ({
    dialect: seedContractsDialect,
    path,
    valid: { "contracts.yml": SEED_CONTRACTS, "flake_freeze.yml": SEED_FREEZE },
  })),
];

/**
 * Text a reader must refuse: NUL in any file; in a YAML file, anything
 * outside YAML's printable set, or a BOM after the first character.
 */
function mustRefuse(path: string, text: string): boolean {
  if (text.includes("\0")) return true;
  if (!/\.ya?ml$/.test(path)) return false;
  return /[^\t\n\r\x20-\x7E\x85\xA0-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/u
    .test(text) || text.indexOf("\uFEFF", 1) > 0;
}

/** A blob as the shell reads it: UTF-8 (a leading BOM dropped) or `null` text. */
function blobOf(bytes: Uint8Array): ContractBlob {
  let text: string | null;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    text = null;
  }
  return { kind: "file", text, bytes };
}

function blobs(files: Record<string, Uint8Array | string>): ContractBlobs {
  return new Map(
    Object.entries(files).map(([path, content]) => [
      path,
      blobOf(
        typeof content === "string"
          ? new TextEncoder().encode(content)
          : content,
      ),
    ]),
  );
}

function utf16(text: string, bigEndian: boolean): Uint8Array {
  const out = new Uint8Array(2 + text.length * 2);
  out[0] = bigEndian ? 0xfe : 0xff;
  out[1] = bigEndian ? 0xff : 0xfe;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    out[2 + 2 * i + (bigEndian ? 1 : 0)] = unit & 0xff;
    out[2 + 2 * i + (bigEndian ? 0 : 1)] = unit >> 8;
  }
  return out;
}

function insertAt(text: string, at: number, piece: string): string {
  const i = Math.min(at, text.length);
  return text.slice(0, i) + piece + text.slice(i);
}

/** Malformed (and sometimes valid) contents for a file whose valid text is `valid`. */
function contents(valid: string): fc.Arbitrary<Uint8Array | string> {
  const encoder = new TextEncoder();
  const position = fc.nat({ max: valid.length });
  return fc.oneof(
    fc.uint8Array({ maxLength: 512 }),
    fc.string({ unit: "binary", maxLength: 256 }),
    fc.tuple(
      position,
      fc.constantFrom("\0", "\uFEFF", "\x07", "\x7f", "\uD800", "\uFFFE"),
    )
      .map(([at, bad]) => insertAt(valid, at, bad)),
    fc.tuple(position, fc.string({ unit: "binary", maxLength: 8 }))
      .map(([at, piece]) => insertAt(valid, at, piece)),
    fc.tuple(position, fc.nat({ max: valid.length }))
      .map(([at, length]) => valid.slice(0, at) + valid.slice(at + length)),
    fc.boolean().map((bigEndian) => utf16(valid, bigEndian)),
    fc.constant(encoder.encode(`\uFEFF${valid}`)),
    fc.tuple(
      fc.constantFrom(2, 64, 1000),
      fc.constantFrom("[", "{", "- ", "a:\n "),
    )
      .map(([depth, open]) => open.repeat(depth)),
    fc.constantFrom(64 * 1024, 1024 * 1024 + 1).map((size) =>
      `version: 1\nnotes: "${"x".repeat(size)}"\n`
    ),
    fc.jsonValue({ maxDepth: 4 }).map((value) => JSON.stringify(value)),
    fc.tuple(fc.jsonValue({ maxDepth: 2 }), fc.nat({ max: 40 })).map(
      ([value, line]) => {
        // A value of the wrong type in place of one of the file's own.
        const lines = valid.split("\n");
        const target = line % lines.length;
        lines[target] = (lines[target] ?? "").replace(
          /([:=]\s*).*$/,
          `$1${JSON.stringify(value)}`,
        );
        return lines.join("\n");
      },
    ),
    fc.constant(valid),
  );
}

for (const file of FILES) {
  Deno.test(`load() of ${file.path}: a malformed base is a ContractSyntaxError naming the file, never anything else`, () => {
    fc.assert(
      fc.property(contents(file.valid[file.path]!), (content) => {
        const base = blobs({ ...file.valid, [file.path]: content });
        const blob = base.get(file.path);
        const text = blob?.kind === "file" ? blob.text : null;
        try {
          file.dialect.load(base, base);
          assert.ok(text !== null, "undecodable bytes were read");
          assert.ok(!mustRefuse(file.path, text), JSON.stringify(text));
        } catch (error) {
          if (!(error instanceof ContractSyntaxError)) throw error;
          assert.ok(error.message.includes(`"${error.path}"`), error.message);
          assert.ok(file.dialect.files.includes(error.path), error.message);
        }
      }),
      RUNS,
    );
  });

  Deno.test(`load() of ${file.path}: a malformed head is a config finding naming the file, never a throw`, () => {
    fc.assert(
      fc.property(contents(file.valid[file.path]!), (content) => {
        const base = blobs(file.valid);
        const head = blobs({ ...file.valid, [file.path]: content });
        const loaded = file.dialect.load(base, head);
        for (const f of loaded.loadFindings) {
          assert.ok(f.blocking, f.message);
          assert.equal(f.path, file.path);
          assert.ok(f.message.includes(`"${file.path}"`), f.message);
        }
        const blob = head.get(file.path);
        const text = blob?.kind === "file" ? blob.text : null;
        if (text === null || mustRefuse(file.path, text)) {
          assert.equal(loaded.loadFindings.length, 1, JSON.stringify(text));
        }
      }),
      RUNS,
    );
  });
}

Deno.test("readSettings(): malformed pawl.toml is a ContractSyntaxError naming the file, never anything else", () => {
  fc.assert(
    fc.property(contents(SETTINGS), (content) => {
      const blob = blobOf(
        typeof content === "string"
          ? new TextEncoder().encode(content)
          : content,
      );
      if (blob.kind !== "file" || blob.text === null) return;
      try {
        readSettings(blob.text, { path: "pawl.toml" });
      } catch (error) {
        if (!(error instanceof ContractSyntaxError)) throw error;
        assert.equal(error.path, "pawl.toml");
        assert.ok(error.message.includes('"pawl.toml"'), error.message);
      }
    }),
    RUNS,
  );
});
