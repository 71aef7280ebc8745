import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { ContractSyntaxError } from "../../contract/contract_syntax_error.ts";
import { sourceSha256 } from "./source_sha256.ts";
import type { Finding } from "../../core/finding.ts";
import type { Tree, TreeEntry } from "../../git/git.ts";
import { analyzePython } from "../../python/analyze_python.ts";
import {
  loadPythonParser,
  type PythonParser,
} from "../../python/load_python_parser.ts";
import type { PythonModule } from "../../python/python_module.ts";
import type { ContractBlob, StaticInput, TestPlan } from "../dialect.ts";
import { invariantsDialect } from "./invariants_dialect.ts";
import { type ContractReader, ParsedTexts } from "../parsed_texts.ts";

// ---------------------------------------------------------------------------
// A small repository model: Python sources, fixtures and the three contract
// files, rendered to bytes the way a commit holds them.

/** A symlink in a tree (pawl never follows one). */
const SYMLINK = { symlink: true } as const;
type FileContent = string | typeof SYMLINK;

/** A hash to render: a literal, or computed from the side's own files. */
type Hash =
  | string
  | { function: string; qualname: string }
  | { file: string };

interface PropertyRow {
  id: string;
  module: string;
  function: string;
  sha: Hash;
}

interface FreezeRow {
  id?: string;
  path?: string;
  "body_sha256"?: Hash;
  "expires_on"?: string;
  owner?: string;
  reason?: string;
}

interface Repo {
  /** Every non-contract file; `SYMLINK` for a symlink. */
  files: Record<string, FileContent>;
  registry: {
    min_properties: number;
    allow_agent_additions: boolean;
    properties: PropertyRow[];
  } | null;
  lock: {
    allow_rotate_on_agent_pr: boolean;
    files: Record<string, Hash>;
  } | null;
  freezes: {
    max_frozen: number;
    fail_on_expired: boolean;
    freezes: FreezeRow[];
  } | null;
  /** Raw contract texts that replace the rendered ones (or symlinks). */
  raw?: Record<string, FileContent | null>;
}

const PARSE = "tests/properties/test_parse.py";
const QUEUE = "tests/properties/test_queue.py";
const BILLING = "tests/test_billing.py";
const USER_JSON = "testdata/get_user_200.json";
const ORDERS_SQL = "tests/fixtures/sql/seed_orders.sql";

const PARSE_SOURCE = `from hypothesis import given, settings
import hypothesis.strategies as st

from app.codec import decode, encode


@settings(max_examples=200)
@given(st.text())
def test_json_roundtrip(s):
    assert decode(encode(s)) == s
`;

const QUEUE_SOURCE = `from hypothesis import given
import hypothesis.strategies as st

from app.queue import Queue


@given(st.integers(min_value=1, max_value=50))
def test_lease_not_double_ack(n):
    q = Queue()
    lease = q.lease(n)
    assert q.ack(lease) and not q.ack(lease)
`;

const BILLING_SOURCE = `from app.billing import bill_at, total


def test_timezone_dst():
    assert bill_at("2026-03-29T01:30:00+01:00").hour == 1


def test_invoice_total():
    assert total([1, 2]) == 3


def test_refund():
    assert total([-1]) == -1


def test_rounding():
    assert total([0.1, 0.2]) == 0.3
`;

const DST = `${BILLING}::test_timezone_dst`;

function baseRepo(): Repo {
  return {
    files: {
      [PARSE]: PARSE_SOURCE,
      [QUEUE]: QUEUE_SOURCE,
      [BILLING]: BILLING_SOURCE,
      [USER_JSON]: '{"id": 1, "name": "Ada"}\n',
      [ORDERS_SQL]: "INSERT INTO orders VALUES (1, 'book');\n",
    },
    registry: {
      min_properties: 2,
      allow_agent_additions: false,
      properties: [
        {
          id: "parse.roundtrip.json",
          module: "tests.properties.test_parse",
          function: "test_json_roundtrip",
          sha: { function: PARSE, qualname: "test_json_roundtrip" },
        },
        {
          id: "queue.lease.not_double_ack",
          module: "tests.properties.test_queue",
          function: "test_lease_not_double_ack",
          sha: { function: QUEUE, qualname: "test_lease_not_double_ack" },
        },
      ],
    },
    lock: {
      allow_rotate_on_agent_pr: false,
      files: {
        [USER_JSON]: { file: USER_JSON },
        [ORDERS_SQL]: { file: ORDERS_SQL },
      },
    },
    freezes: {
      max_frozen: 3,
      fail_on_expired: true,
      freezes: [freezeOf("test_timezone_dst")],
    },
  };
}

function freezeOf(name: string, extra: Partial<FreezeRow> = {}): FreezeRow {
  return {
    id: `test_billing_${name}`,
    path: `${BILLING}::${name}`,
    body_sha256: { function: BILLING, qualname: name },
    reason: "dst boundary depends on host tzdata",
    expires_on: "2026-09-26",
    owner: "human",
    ...extra,
  };
}

/** Replace every computed hash by its value over `repo.files`. */
function resolve(repo: Repo, parser: PythonParser): Repo {
  const hash = (h: Hash): string => {
    if (typeof h === "string") return h;
    if ("file" in h) {
      const text = repo.files[h.file];
      assert.equal(typeof text, "string", `no file ${h.file}`);
      return sha256(text as string);
    }
    const fn = analyzePython(parser, repo.files[h.function] as string)
      .functions.get(h.qualname);
    assert.ok(fn !== undefined, `no function ${h.qualname}`);
    return sourceSha256(fn.source);
  };
  const out = structuredClone(repo);
  for (const p of out.registry?.properties ?? []) p.sha = hash(p.sha);
  for (const f of out.freezes?.freezes ?? []) {
    if (f.body_sha256 !== undefined) f.body_sha256 = hash(f.body_sha256);
  }
  if (out.lock !== null) {
    for (const [path, h] of Object.entries(out.lock.files)) {
      out.lock.files[path] = hash(h);
    }
  }
  return out;
}

function render(repo: Repo): Record<string, FileContent> {
  const out: Record<string, FileContent> = { ...repo.files };
  if (repo.registry !== null) {
    const r = repo.registry;
    out["invariants.toml"] = [
      "# invariants.toml — human-owned. Agent PRs cannot delete keys.",
      "[policy]",
      `min_properties = ${r.min_properties}`,
      `allow_agent_additions = ${r.allow_agent_additions}`,
      ...r.properties.flatMap((p) => [
        "",
        "[[property]]",
        `id = ${JSON.stringify(p.id)}`,
        `module = ${JSON.stringify(p.module)}`,
        `function = ${JSON.stringify(p.function)}`,
        `source_sha256 = ${JSON.stringify(p.sha)}`,
      ]),
      "",
    ].join("\n");
  }
  if (repo.lock !== null) {
    out["fixtures.lock"] = JSON.stringify(
      {
        policy: {
          allow_rotate_on_agent_pr: repo.lock.allow_rotate_on_agent_pr,
        },
        files: repo.lock.files,
      },
      null,
      2,
    ) + "\n";
  }
  if (repo.freezes !== null) {
    const f = repo.freezes;
    out["freeze.yml"] = [
      "policy:",
      `  max_frozen: ${f.max_frozen}`,
      `  fail_on_expired: ${f.fail_on_expired}`,
      "freezes:",
      ...f.freezes.flatMap((row) =>
        Object.entries(row).map(([key, value], i) =>
          `${i === 0 ? "  - " : "    "}${key}: ${JSON.stringify(value)}`
        )
      ),
      "",
    ].join("\n");
  }
  for (const [path, content] of Object.entries(repo.raw ?? {})) {
    if (content === null) delete out[path];
    else out[path] = content;
  }
  return out;
}

/** Append `text` to a file of `repo`. */
function append(repo: Repo, path: string, text: string): void {
  const old = repo.files[path];
  assert.equal(typeof old, "string", `no file ${path}`);
  repo.files[path] = old + text;
}

function sha256(text: string): string {
  return createHash("sha256").update(text, "utf8").digest("hex");
}

function treeOf(files: Record<string, FileContent>): Tree {
  const tree = new Map<string, TreeEntry>();
  for (const [path, content] of Object.entries(files)) {
    const segments = path.split("/");
    for (let n = 1; n < segments.length; n++) {
      const dir = segments.slice(0, n).join("/");
      tree.set(dir, { path: dir, kind: "tree", oid: `t:${dir}`, size: 0 });
    }
    tree.set(path, {
      path,
      kind: typeof content !== "string" ? "symlink" : "file",
      oid: `o:${path}`,
      size: typeof content !== "string" ? 0 : content.length,
    });
  }
  return tree;
}

function blobsOf(
  files: Record<string, FileContent>,
): Map<string, ContractBlob> {
  const blobs = new Map<string, ContractBlob>();
  for (const path of invariantsDialect.files) {
    const content = files[path];
    if (content === undefined) continue;
    blobs.set(
      path,
      typeof content !== "string" ? { kind: "symlink" } : {
        kind: "file",
        text: content,
        bytes: new TextEncoder().encode(content),
      },
    );
  }
  return blobs;
}

interface GateResult {
  loadFindings: readonly Finding[];
  findings: Finding[];
  plan: TestPlan;
  bodyHashes: readonly { freeze: string; bodyHash: string }[];
  reads: { headModules: readonly string[]; headDigests: readonly string[] };
}

interface GateOptions {
  now?: string;
  allowFixtureRotate?: boolean;
}

const NOW = "2026-07-01T12:00:00Z";

/** Run the dialect the way the shell does: load, ask what to read, read it, judge, plan. */
async function gate(
  base: Record<string, FileContent>,
  head: Record<string, FileContent>,
  options: GateOptions = {},
): Promise<GateResult> {
  const parser = await loadPythonParser();
  const loaded = invariantsDialect.load(blobsOf(base), blobsOf(head));
  const baseTree = treeOf(base);
  const headTree = treeOf(head);
  const reads = loaded.reads(baseTree, headTree);
  const analyse = (
    files: Record<string, FileContent>,
    paths: readonly string[],
  ) =>
    new Map<string, PythonModule>(paths.map((path) => {
      const text = files[path];
      assert.equal(typeof text, "string", `the shell cannot read ${path}`);
      return [path, analyzePython(parser, text as string)];
    }));
  const nowText = options.now ?? NOW;
  const input: StaticInput = {
    now: Date.parse(nowText),
    nowText,
    baseTree,
    headTree,
    changes: [],
    headModules: analyse(head, reads.headModules),
    baseModules: analyse(base, reads.baseModules),
    digests: new Map(reads.headDigests.map((path) => {
      const text = head[path];
      assert.equal(typeof text, "string", `the shell cannot hash ${path}`);
      return [path, sha256(text as string)];
    })),
    allowFixtureRotate: options.allowFixtureRotate ?? false,
  };
  return {
    loadFindings: loaded.loadFindings,
    findings: loaded.check(input),
    plan: loaded.plan(input),
    bodyHashes: loaded.verdictFacts(input).freezeBodyHashes,
    reads,
  };
}

function rules(findings: readonly Finding[], blocking: boolean): string[] {
  return findings.filter((f) => f.blocking === blocking).map((f) => f.rule)
    .sort();
}

// ---------------------------------------------------------------------------

interface Row {
  /** The seed's observation, or the workflow rule. */
  name: string;
  /** Change the base repository (default: the clean example). */
  base?: (repo: Repo) => void;
  /** Change the head repository (starts as the resolved base). */
  head?: (repo: Repo) => void;
  options?: GateOptions;
  /** Blocking rules, sorted. */
  blocking: string[];
  /** Non-blocking rules, sorted. */
  nonBlocking?: string[];
  /** Rules of the load (head file) findings. */
  load?: string[];
  /** Extra assertions. */
  then?: (result: GateResult) => void;
}

const ROWS: Row[] = [
  // The seed's merge decision table.
  {
    name:
      "CI green, all three files unchanged: no finding, the properties still run",
    blocking: [],
    then(result) {
      assert.deepEqual(result.plan.properties.map((p) => p.id), [
        "parse.roundtrip.json",
        "queue.lease.not_double_ack",
      ]);
      assert.deepEqual(result.plan.deselect, [DST]);
      // Seed 003 deselects a frozen test; it never reports a failure as non-blocking.
      assert.deepEqual(result.plan.nonBlocking, []);
      assert.deepEqual(result.bodyHashes, [{
        freeze: "test_billing_test_timezone_dst",
        bodyHash: "function",
      }]);
    },
  },
  {
    name: "CI green, a property id removed: rejected (oracle shrank)",
    head(r) {
      r.registry!.properties.pop();
    },
    blocking: ["property.below_minimum", "property.removed"],
    then(result) {
      // The removed property still runs: the base is the authority.
      assert.equal(result.plan.properties.length, 2);
    },
  },
  {
    name:
      "CI green, property source hash changed: rejected (assertion may have been weakened)",
    head(r) {
      r.files[PARSE] = (r.files[PARSE] as string).replace(
        "assert decode(encode(s)) == s",
        "assert decode(encode(s)) is not None",
      );
    },
    blocking: ["property.source_changed"],
    then(result) {
      const f = result.findings.find((f) =>
        f.rule === "property.source_changed"
      );
      assert.equal(f?.path, PARSE);
      assert.equal(f?.line, 9);
    },
  },
  {
    name:
      "CI green, fixture bytes changed, no rotate flag: rejected (snapshot rewritten)",
    head(r) {
      r.files[USER_JSON] = '{"id": 1, "name": "*"}\n';
    },
    blocking: ["fixture.digest_mismatch"],
  },
  {
    name: "CI green, freeze count 4 with max 3: rejected (freeze budget blown)",
    head(r) {
      r.freezes!.freezes.push(
        freezeOf("test_invoice_total"),
        freezeOf("test_refund"),
        freezeOf("test_rounding"),
      );
    },
    blocking: ["freeze.over_cap"],
    then(result) {
      // Freezes the pull request adds never take effect in its own run.
      assert.deepEqual(result.plan.deselect, [DST]);
    },
  },
  {
    name:
      "CI green, frozen test body hash changed: rejected (freeze used as a cover for an edit)",
    head(r) {
      r.files[BILLING] = (r.files[BILLING] as string).replace(
        ".hour == 1",
        ".hour in (1, 2)",
      );
    },
    blocking: ["freeze.body_changed"],
    then(result) {
      const f = result.findings.find((f) => f.rule === "freeze.body_changed");
      assert.equal(f?.path, BILLING);
      assert.equal(f?.line, 4);
      assert.equal(result.bodyHashes[0]?.bodyHash, "none");
    },
  },
  {
    name:
      "CI green, freeze past expires_on: rejected (fail closed), the test returns to the gate",
    options: { now: "2026-09-27T00:00:00Z" },
    blocking: ["freeze.expired"],
    then(result) {
      assert.deepEqual(result.plan.deselect, []);
    },
  },
  {
    name:
      "CI red, three files unchanged: no static finding, the test stage runs every registered property",
    blocking: [],
    then(result) {
      assert.equal(result.plan.properties.length, 2);
      assert.deepEqual(result.plan.reruns, []);
      assert.deepEqual(result.plan.replays, []);
    },
  },
  {
    name:
      "human PR with --allow-fixture-rotate and the lock updated: maybe (a non-blocking rotation)",
    head(r) {
      r.files[USER_JSON] =
        '{"id": 1, "name": "Ada", "email": "ada@example.com"}\n';
      r.lock!.files[USER_JSON] = { file: USER_JSON };
    },
    options: { allowFixtureRotate: true },
    blocking: [],
    nonBlocking: ["fixture.rotated"],
  },
  // The checker's workflow steps and the seed's "what the agent may change".
  {
    name: "the freeze holds through the whole of its expires_on day (UTC)",
    options: { now: "2026-09-26T23:59:59Z" },
    blocking: [],
    then(result) {
      assert.deepEqual(result.plan.deselect, [DST]);
    },
  },
  {
    name:
      "an expired freeze with fail_on_expired false is reported, not blocking, and not deselected",
    base(r) {
      r.freezes!.fail_on_expired = false;
    },
    options: { now: "2026-10-01T00:00:00Z" },
    blocking: [],
    nonBlocking: ["freeze.expired"],
    then(result) {
      assert.deepEqual(result.plan.deselect, []);
    },
  },
  {
    name: "the property count below min_properties is rejected",
    base(r) {
      r.registry!.min_properties = 3;
    },
    blocking: ["property.below_minimum"],
  },
  {
    name: "min_properties lowered is rejected",
    head(r) {
      r.registry!.min_properties = 1;
    },
    blocking: ["property.policy_loosened"],
  },
  {
    name: "allow_agent_additions turned on is rejected",
    head(r) {
      r.registry!.allow_agent_additions = true;
    },
    blocking: ["property.policy_loosened"],
  },
  {
    name: "a property added while the base forbids additions is rejected",
    head(r) {
      r.registry!.properties.push({
        id: "billing.total",
        module: "tests.test_billing",
        function: "test_invoice_total",
        sha: { function: BILLING, qualname: "test_invoice_total" },
      });
    },
    blocking: ["property.addition_forbidden"],
  },
  {
    name:
      "a property added while the base allows additions, with its real hash, is accepted and runs",
    base(r) {
      r.registry!.allow_agent_additions = true;
    },
    head(r) {
      r.registry!.properties.push({
        id: "billing.total",
        module: "tests.test_billing",
        function: "test_invoice_total",
        sha: { function: BILLING, qualname: "test_invoice_total" },
      });
    },
    blocking: [],
    then(result) {
      assert.deepEqual(result.plan.properties.at(-1), {
        id: "billing.total",
        module: "tests.test_billing",
        name: "test_invoice_total",
      });
    },
  },
  {
    name:
      "an added property whose recorded hash does not match its source is rejected",
    base(r) {
      r.registry!.allow_agent_additions = true;
    },
    head(r) {
      r.registry!.properties.push({
        id: "billing.total",
        module: "tests.test_billing",
        function: "test_invoice_total",
        sha: "0".repeat(64),
      });
    },
    blocking: ["property.source_mismatch"],
  },
  {
    name: "an added property that cannot fail is rejected",
    base(r) {
      r.registry!.allow_agent_additions = true;
    },
    head(r) {
      r.files["tests/properties/test_more.py"] =
        "def test_more():\n    assert True\n";
      r.registry!.properties.push({
        id: "more",
        module: "tests.properties.test_more",
        function: "test_more",
        sha: {
          function: "tests/properties/test_more.py",
          qualname: "test_more",
        },
      });
    },
    blocking: ["property.vacuous"],
  },
  {
    name:
      "a property rewritten to assert True is rejected as changed and vacuous",
    head(r) {
      r.files[PARSE] = (r.files[PARSE] as string).replace(
        "assert decode(encode(s)) == s",
        "assert True",
      );
    },
    blocking: ["property.source_changed", "property.vacuous"],
  },
  {
    name:
      "a recorded source hash rewritten to match an edit is still judged by the base record",
    head(r) {
      r.files[PARSE] = (r.files[PARSE] as string).replace(
        " == s",
        " is not None",
      );
      r.registry!.properties[0]!.sha = {
        function: PARSE,
        qualname: "test_json_roundtrip",
      };
    },
    blocking: ["property.source_changed", "property.source_changed"],
  },
  {
    name:
      "decorators lowering max_examples are rejected although the source hash holds",
    head(r) {
      r.files[PARSE] = (r.files[PARSE] as string).replace(
        "max_examples=200",
        "max_examples=5",
      );
    },
    blocking: ["property.examples_lowered"],
    then(result) {
      const f = result.findings.find((f) =>
        f.rule === "property.examples_lowered"
      );
      assert.match(f?.message ?? "", /from 200 to 5/);
      assert.equal(f?.line, 7);
    },
  },
  {
    name: "a dropped @given is rejected as fewer examples",
    head(r) {
      r.files[QUEUE] = (r.files[QUEUE] as string).replace(
        "@given(st.integers(min_value=1, max_value=50))\n",
        "",
      ).replace(
        "def test_lease_not_double_ack(n):",
        "def test_lease_not_double_ack(n=1):",
      );
      r.registry!.properties[1]!.sha = {
        function: QUEUE,
        qualname: "test_lease_not_double_ack",
      };
    },
    blocking: [
      "property.examples_lowered",
      "property.source_changed",
      "property.source_changed",
    ],
  },
  {
    name: "a redefinition that hides the registered body is rejected",
    head(r) {
      append(
        r,
        PARSE,
        "\n\ndef test_json_roundtrip(s):\n    assert decode(encode(s)) == s\n",
      );
    },
    // The later, undecorated definition is what pytest runs: one example.
    blocking: ["property.examples_lowered", "property.shadowed"],
    then(result) {
      const f = result.findings.find((f) => f.rule === "property.shadowed");
      assert.match(f?.message ?? "", /lines 9, 13/);
    },
  },
  {
    name: "a deleted property function is rejected",
    head(r) {
      r.files[QUEUE] = "from app.queue import Queue\n";
    },
    blocking: ["property.test_missing"],
  },
  {
    name: "a deleted property module is rejected",
    head(r) {
      delete r.files[QUEUE];
    },
    blocking: ["property.module_missing"],
  },
  {
    name:
      "a registered function turned async is rejected (the seed's checker only hashes def)",
    head(r) {
      r.files[QUEUE] = (r.files[QUEUE] as string).replace(
        "def test_lease",
        "async def test_lease",
      );
    },
    blocking: ["property.test_missing"],
  },
  {
    name: "a retargeted property is rejected and its base target still checked",
    head(r) {
      r.registry!.properties[0]!.function = "test_other";
      append(r, PARSE, "\n\ndef test_other():\n    assert decode('') == ''\n");
    },
    blocking: ["property.retargeted", "property.source_mismatch"],
  },
  {
    name: "fixture bytes and lock changed without the flag are rejected",
    head(r) {
      r.files[ORDERS_SQL] = "-- nothing\n";
      r.lock!.files[ORDERS_SQL] = { file: ORDERS_SQL };
    },
    blocking: ["fixture.digest_changed"],
  },
  {
    name: "the rotate flag without the lock updated is rejected",
    head(r) {
      r.files[ORDERS_SQL] = "-- nothing\n";
    },
    options: { allowFixtureRotate: true },
    blocking: ["fixture.digest_mismatch"],
  },
  {
    name: "a lock digest rewritten while the bytes stayed is rejected",
    head(r) {
      r.lock!.files[ORDERS_SQL] = "f".repeat(64);
    },
    blocking: ["fixture.digest_changed"],
  },
  {
    name:
      "a base policy allowing agent rotation lets the agent rotate with the lock updated",
    base(r) {
      r.lock!.allow_rotate_on_agent_pr = true;
    },
    head(r) {
      r.files[ORDERS_SQL] = "-- new seed\n";
      r.lock!.files[ORDERS_SQL] = { file: ORDERS_SQL };
    },
    blocking: [],
    nonBlocking: ["fixture.rotated"],
  },
  {
    name:
      "allow_rotate_on_agent_pr turned on at head does not allow its own rotation",
    head(r) {
      r.lock!.allow_rotate_on_agent_pr = true;
      r.files[ORDERS_SQL] = "-- new seed\n";
      r.lock!.files[ORDERS_SQL] = { file: ORDERS_SQL };
    },
    blocking: ["fixture.digest_changed", "fixture.policy_loosened"],
  },
  {
    name: "a fixture dropped from the lock is rejected",
    head(r) {
      delete r.lock!.files[ORDERS_SQL];
    },
    blocking: ["fixture.removed"],
  },
  {
    name: "a deleted fixture is rejected",
    head(r) {
      delete r.files[USER_JSON];
    },
    blocking: ["fixture.missing"],
  },
  {
    name: "a fixture replaced by a symlink is rejected",
    head(r) {
      r.files[USER_JSON] = SYMLINK;
    },
    blocking: ["fixture.symlink"],
  },
  {
    name: "a fixture locked outside the repository is rejected",
    base(r) {
      r.lock!.files["../secrets.json"] = "0".repeat(64);
    },
    blocking: ["fixture.path_unsafe"],
  },
  {
    name: "max_frozen raised is rejected",
    head(r) {
      r.freezes!.max_frozen = 10;
    },
    blocking: ["freeze.cap_raised"],
  },
  {
    name: "fail_on_expired turned off is rejected",
    head(r) {
      r.freezes!.fail_on_expired = false;
    },
    blocking: ["freeze.policy_loosened"],
  },
  {
    name: "expires_on extended is rejected, and the base expiry still applies",
    head(r) {
      r.freezes!.freezes[0]!.expires_on = "2027-01-01";
    },
    options: { now: "2026-10-01T00:00:00Z" },
    blocking: ["freeze.expired", "freeze.expiry_extended"],
    then(result) {
      assert.deepEqual(result.plan.deselect, []);
    },
  },
  {
    name: "a freeze owned by the agent is rejected and not deselected",
    head(r) {
      r.freezes!.freezes[0]!.owner = " Agent ";
    },
    blocking: ["freeze.agent_owner"],
    then(result) {
      assert.deepEqual(result.plan.deselect, []);
    },
  },
  {
    name: "a freeze without body_sha256 and expires_on is rejected",
    head(r) {
      r.freezes!.freezes.push({
        id: "refund",
        path: `${BILLING}::test_refund`,
        owner: "human",
        reason: "flaky",
      });
    },
    blocking: ["freeze.incomplete"],
    then(result) {
      const f = result.findings.find((f) => f.rule === "freeze.incomplete");
      assert.match(f?.message ?? "", /lacks "body_sha256", "expires_on"/);
    },
  },
  {
    name:
      "a freeze without a path is rejected, and the shell is asked to read no file for it",
    head(r) {
      r.freezes!.freezes.push({
        id: "refund",
        body_sha256: "1".repeat(64),
        expires_on: "2026-09-26",
        owner: "human",
        reason: "flaky",
      });
    },
    blocking: ["freeze.incomplete"],
    then(result) {
      const f = result.findings.find((f) => f.rule === "freeze.incomplete");
      assert.match(f?.message ?? "", /lacks "path"/);
      assert.deepEqual(result.reads.headModules, [PARSE, QUEUE, BILLING]);
      assert.deepEqual(result.reads.headDigests, [
        USER_JSON,
        ORDERS_SQL,
        BILLING,
      ]);
    },
  },
  {
    name: "a freeze moved to another test is rejected",
    head(r) {
      r.freezes!.freezes[0] = freezeOf("test_refund", {
        id: "test_billing_test_timezone_dst",
      });
    },
    blocking: ["freeze.body_changed", "freeze.retargeted"],
    then(result) {
      // The base record is what holds: its test stays deselected.
      assert.deepEqual(result.plan.deselect, [DST]);
    },
  },
  {
    name: "a frozen test's file deleted is rejected",
    head(r) {
      delete r.files[BILLING];
    },
    blocking: ["freeze.body_changed"],
  },
  {
    name:
      "a freeze recorded with the seed's whole-file hash is accepted and says so",
    base(r) {
      r.freezes!.freezes[0]!.body_sha256 = { file: BILLING };
    },
    blocking: [],
    then(result) {
      assert.equal(result.bodyHashes[0]?.bodyHash, "file");
    },
  },
  {
    name: "a whole-file freeze hash breaks on any edit of the file",
    base(r) {
      r.freezes!.freezes[0]!.body_sha256 = { file: BILLING };
    },
    head(r) {
      append(r, BILLING, "\n# a comment\n");
    },
    blocking: ["freeze.body_changed"],
  },
  {
    name: "a function freeze hash survives edits elsewhere in the file",
    head(r) {
      append(r, BILLING, "\n# a comment\n");
    },
    blocking: [],
  },
  {
    name:
      "the seed's 32-digit placeholder body hash written at head is reported, not a crash",
    head(r) {
      r.freezes!.freezes[0]!.body_sha256 = "6b86b273ff34fce19d6b804eff5a3f57";
    },
    blocking: ["freeze.body_changed"],
    then(result) {
      const f = result.findings.find((f) => f.rule === "freeze.body_changed");
      assert.match(f?.message ?? "", /body_sha256 was rewritten/);
    },
  },
  {
    name: "a freeze list the pull request creates has no budget",
    base(r) {
      r.freezes = null;
    },
    head(r) {
      r.freezes = {
        max_frozen: 3,
        fail_on_expired: true,
        freezes: [freezeOf("test_refund")],
      };
    },
    blocking: ["freeze.over_cap"],
    then(result) {
      assert.deepEqual(result.plan.deselect, []);
    },
  },
  {
    name:
      "a registry the base lacks sets no constraint: an addition with its real hash is accepted",
    base(r) {
      r.registry = null;
    },
    head(r) {
      r.registry = {
        min_properties: 1,
        allow_agent_additions: false,
        properties: [{
          id: "parse.roundtrip.json",
          module: "tests.properties.test_parse",
          function: "test_json_roundtrip",
          sha: { function: PARSE, qualname: "test_json_roundtrip" },
        }],
      };
    },
    blocking: [],
  },
  {
    name:
      "a contract file removed at head is rejected and the base copy enforced",
    head(r) {
      r.raw = { "freeze.yml": null };
      r.files[BILLING] = (r.files[BILLING] as string).replace("== 1", "== 2");
    },
    load: ["config.contract_removed"],
    blocking: ["freeze.body_changed"],
  },
  {
    name:
      "a contract file turned into a symlink is rejected and the base copy enforced",
    head(r) {
      r.raw = { "invariants.toml": SYMLINK };
      r.files[PARSE] = (r.files[PARSE] as string).replace(
        " == s",
        " is not None",
      );
    },
    load: ["config.contract_symlink"],
    blocking: ["property.source_changed"],
  },
  {
    name:
      "an invalid head contract file is rejected and the base copy enforced",
    head(r) {
      r.raw = { "fixtures.lock": '{"policy": {}, "files": {}}' };
      r.files[USER_JSON] = "{}\n";
    },
    load: ["config.contract_invalid"],
    blocking: ["fixture.digest_mismatch"],
  },
];

Deno.test("invariantsDialect follows seed 003's decision table and workflow", async (t) => {
  const parser = await loadPythonParser();
  for (const row of ROWS) {
    await t.step(row.name, async () => {
      const base = baseRepo();
      row.base?.(base);
      const resolvedBase = resolve(base, parser);
      const head = structuredClone(resolvedBase);
      row.head?.(head);
      const result = await gate(
        render(resolvedBase),
        render(resolve(head, parser)),
        row.options,
      );
      assert.deepEqual(rules(result.loadFindings, true), row.load ?? []);
      assert.deepEqual(rules(result.findings, true), row.blocking);
      assert.deepEqual(rules(result.findings, false), row.nonBlocking ?? []);
      for (const f of result.findings) {
        assert.ok(f.path !== undefined, `${f.rule} has no path`);
        assert.doesNotMatch(f.message, /\.$/);
        assert.match(f.message, /^[A-Z]/);
      }
      row.then?.(result);
    });
  }
});

Deno.test("invariantsDialect lists what the shell must read", async () => {
  const parser = await loadPythonParser();
  const files = render(resolve(baseRepo(), parser));
  const result = await gate(files, files);
  assert.deepEqual(result.reads.headModules, [PARSE, QUEUE, BILLING]);
  assert.deepEqual(result.reads.headDigests, [USER_JSON, ORDERS_SQL, BILLING]);
});

Deno.test("invariantsDialect reads base modules from the base registry in the base tree, and the file a head freeze names as well as its base file, each list sorted", async () => {
  const parser = await loadPythonParser();
  const base = resolve(baseRepo(), parser);
  const head = structuredClone(base);
  const added = "tests/a_test_added.py";
  head.files[added] = "def test_added():\n    assert True\n";
  head.registry?.properties.splice(1, 1);
  const freeze = head.freezes?.freezes[0];
  assert.ok(freeze !== undefined);
  freeze.path = `${added}::test_added`;
  const baseFiles = render(base);
  const headFiles = render(head);
  const loaded = invariantsDialect.load(blobsOf(baseFiles), blobsOf(headFiles));
  const reads = loaded.reads(treeOf(baseFiles), treeOf(headFiles));
  assert.deepEqual(reads.baseModules, [PARSE, QUEUE]);
  assert.deepEqual(reads.headModules, [added, PARSE, QUEUE, BILLING]);
  assert.deepEqual(
    loaded.reads(treeOf(baseFiles), new Map()).baseModules,
    [PARSE, QUEUE],
  );
});

Deno.test("invariantsDialect is present when any of its three files is", () => {
  const entry = (path: string): [string, TreeEntry] => [
    path,
    { path, kind: "file", oid: path, size: 1 },
  ];
  for (const path of ["invariants.toml", "fixtures.lock", "freeze.yml"]) {
    assert.ok(invariantsDialect.presentIn(new Map([entry(path)])), path);
  }
  assert.ok(
    !invariantsDialect.presentIn(new Map([entry("tests/agent_contract.yaml")])),
  );
});

Deno.test("invariantsDialect refuses to decide on a base contract it cannot read", async (t) => {
  const freezes = (hash: string, extra = "") =>
    `policy:\n  max_frozen: 1\n  fail_on_expired: true\nfreezes:\n  - id: tz\n    path: tests/test_a.py::test_a\n    body_sha256: "${hash}"\n    expires_on: "2026-09-26"\n    owner: "human"\n    reason: "tzdata"\n${extra}`;
  const cases: [string, Record<string, FileContent>, RegExp][] = [
    [
      "a base freeze with an uppercase body_sha256",
      { "freeze.yml": freezes("A".repeat(64)) },
      /^Cannot read contract "freeze\.yml": the base commit's own copy breaks rule "freeze\.body_changed" at line 7: freeze "tz" body_sha256 "A{64}" is not a 64-character lowercase sha256/,
    ],
    [
      "a base freeze with the seed's 32-digit placeholder body hash",
      { "freeze.yml": freezes("6b86b273ff34fce19d6b804eff5a3f57") },
      /breaks rule "freeze\.body_changed" at line 7/,
    ],
    [
      "a base freeze list over its own max_frozen",
      {
        "freeze.yml": freezes(
          "1".repeat(64),
          `  - id: tz2\n    path: tests/test_a.py::test_b\n    body_sha256: "${
            "2".repeat(64)
          }"\n    expires_on: "2026-09-26"\n    owner: "human"\n    reason: "tzdata"\n`,
        ),
      },
      /breaks rule "freeze\.over_cap"/,
    ],
    [
      "a base freeze owned by the agent",
      { "freeze.yml": freezes("1".repeat(64)).replace('"human"', '"Agent "') },
      /breaks rule "freeze\.agent_owner" at line 9/,
    ],
    [
      "a base freeze without a reason",
      {
        "freeze.yml": freezes("1".repeat(64)).replace(
          '    reason: "tzdata"\n',
          "",
        ),
      },
      /breaks rule "freeze\.incomplete"/,
    ],
    [
      "no seed 003 file at base",
      {},
      /^Cannot read contract "invariants\.toml": the base commit has none of "invariants\.toml", "fixtures\.lock", "freeze\.yml"$/,
    ],
    [
      "a base registry with an unknown key",
      {
        "invariants.toml":
          "[policy]\nmin_properties = 1\nallow_agent_additions = false\nnotes = 1\n",
      },
      /"invariants\.toml": unknown key "policy\.notes" at line 4/,
    ],
    [
      "a base lock with the seed's placeholder digests",
      {
        "fixtures.lock":
          '{"policy": {"allow_rotate_on_agent_pr": false}, "files": {"a.json": "e3b0c44298fc1c149afbf4c8996fb924"}}',
      },
      /expected a 64-character lowercase sha256/,
    ],
    ["a symlinked base freeze list", { "freeze.yml": SYMLINK }, /symlink/],
  ];
  for (const [name, files, message] of cases) {
    await t.step(name, () => {
      assert.throws(
        () => invariantsDialect.load(blobsOf(files), blobsOf(files)),
        (error) => {
          assert.ok(error instanceof ContractSyntaxError);
          assert.match(error.message, message);
          return true;
        },
      );
    });
  }
});

Deno.test("invariantsDialect lets an error that says nothing about a head file through", () => {
  const base =
    "policy:\n  max_frozen: 1\n  fail_on_expired: true\nfreezes: []\n";
  const head = base.replace("max_frozen: 1", "max_frozen: 0");
  class FailingOnHead extends ParsedTexts {
    override read<T>(
      read: ContractReader<T>,
      text: string,
      options: { path: string },
    ): T {
      if (text === head) throw new RangeError("out of memory");
      return super.read(read, text, options);
    }
  }
  assert.throws(
    () =>
      invariantsDialect.load(
        blobsOf({ "freeze.yml": base }),
        blobsOf({ "freeze.yml": head }),
        { parsed: new FailingOnHead() },
      ),
    RangeError,
  );
});

Deno.test("invariantsDialect parses each contract file once across the loads of one judgement", async () => {
  const parser = await loadPythonParser();
  const files = render(resolve(baseRepo(), parser));
  /** Records the path of every text a reader really parses. */
  class CountingParses extends ParsedTexts {
    readonly parses: string[] = [];
    #counted = new Map<ContractReader<unknown>, ContractReader<unknown>>();
    override read<T>(
      read: ContractReader<T>,
      text: string,
      options: { path: string },
    ): T {
      let counted = this.#counted.get(read);
      if (counted === undefined) {
        counted = (text, options) => {
          this.parses.push(options.path);
          return read(text, options);
        };
        this.#counted.set(read, counted);
      }
      return super.read(counted as ContractReader<T>, text, options);
    }
  }
  const parsed = new CountingParses();
  // The pull request against its base, then the base against itself.
  invariantsDialect.load(blobsOf(files), blobsOf(files), { parsed });
  invariantsDialect.load(blobsOf(files), blobsOf(files), { parsed });
  assert.deepEqual(parsed.parses, [
    "invariants.toml",
    "fixtures.lock",
    "freeze.yml",
  ]);
});

Deno.test("invariantsDialect records the base contract files it decided on", async () => {
  const parser = await loadPythonParser();
  const files = render(resolve(baseRepo(), parser));
  const loaded = invariantsDialect.load(blobsOf(files), blobsOf(files));
  assert.equal(loaded.id, "003");
  assert.deepEqual(loaded.files.map((f) => [f.path, f.layout]), [
    ["invariants.toml", "003"],
    ["fixtures.lock", "003"],
    ["freeze.yml", "003"],
  ]);
  assert.equal(
    loaded.files[0]?.sha256,
    sha256(files["invariants.toml"] as string),
  );
});

// ---------------------------------------------------------------------------
// A registry written by the seed's own checker.

/** The seed's `property_source_hash`, run by CPython over files on disk. */
const SEED_HASH_SCRIPT = `
import ast, hashlib, json, sys
from pathlib import Path

def property_source_hash(root: Path, module: str, function: str) -> str:
    rel = root / Path(*module.split(".")).with_suffix(".py")
    tree = ast.parse(rel.read_text(encoding="utf-8"), filename=str(rel))
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and node.name == function:
            src = ast.get_source_segment(rel.read_text(encoding="utf-8"), node)
            return hashlib.sha256(src.encode("utf-8")).hexdigest()
    raise SystemExit(f"missing property {module}:{function}")

request = json.loads(sys.stdin.read())
print(json.dumps([property_source_hash(Path(request["root"]), m, f) for m, f in request["properties"]]))
`;

Deno.test("an existing invariants.toml written by the seed's checker verifies unchanged", async () => {
  const files: Record<string, string> = {
    // CRLF, as a Windows checkout commits it.
    [PARSE]: PARSE_SOURCE.replaceAll("\n", "\r\n"),
    [QUEUE]: QUEUE_SOURCE.replace("q = Queue()", "q = Queue()  # ünïcode ✓"),
  };
  const root = await Deno.makeTempDir({ prefix: "pawl_seed003_" });
  let hashes: string[];
  try {
    for (const [path, text] of Object.entries(files)) {
      await Deno.mkdir(`${root}/tests/properties`, { recursive: true });
      await Deno.writeTextFile(`${root}/${path}`, text);
    }
    const child = new Deno.Command("/usr/bin/python3", {
      args: ["-c", SEED_HASH_SCRIPT],
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    const writer = child.stdin.getWriter();
    await writer.write(new TextEncoder().encode(JSON.stringify({
      root,
      properties: [
        ["tests.properties.test_parse", "test_json_roundtrip"],
        ["tests.properties.test_queue", "test_lease_not_double_ack"],
      ],
    })));
    await writer.close();
    const output = await child.output();
    assert.equal(output.code, 0, new TextDecoder().decode(output.stderr));
    hashes = JSON.parse(new TextDecoder().decode(output.stdout));
  } finally {
    await Deno.remove(root, { recursive: true });
  }
  const registry = `[policy]
min_properties = 2
allow_agent_additions = false

[[property]]
id = "parse.roundtrip.json"
module = "tests.properties.test_parse"
function = "test_json_roundtrip"
source_sha256 = "${hashes[0]}"

[[property]]
id = "queue.lease.not_double_ack"
module = "tests.properties.test_queue"
function = "test_lease_not_double_ack"
source_sha256 = "${hashes[1]}"
`;
  const repo = { ...files, "invariants.toml": registry };
  const result = await gate(repo, repo);
  assert.deepEqual(result.loadFindings, []);
  assert.deepEqual(result.findings, []);

  // And the same registry catches an edit the seed's checker would catch.
  const edited = {
    ...repo,
    [QUEUE]: files[QUEUE]!.replace("not q.ack(lease)", "True"),
  };
  const changed = await gate(repo, edited);
  assert.deepEqual(rules(changed.findings, true), ["property.source_changed"]);
});
