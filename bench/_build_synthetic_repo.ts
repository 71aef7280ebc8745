/**
 * The benchmark's synthetic repository: thousands of Hypothesis properties
 * over a few hundred test modules, hundreds of MiB of fixtures, and a
 * seed-000 contract registering all of them with correct digests. Content
 * comes from a seeded PRNG, so the same options always give the same bytes
 * (and the same commit ids).
 *
 * The base commit (`main`) holds everything; the head commit (`agent`)
 * strengthens one property, adds one property to the same module and
 * registers it, so the diff and parse paths do real work and the verdict
 * is a clean accept.
 *
 * @module
 */
import { commitAll, fixedGit } from "../src/demo/fixed_git.ts";
import { createHash } from "node:crypto";

/** Bumped whenever the generated content changes, so `--keep` rebuilds. */
const FORMAT = 1;

const MIB = 1024 * 1024;

/** Properties per test module. */
const PROPERTIES_PER_MODULE = 10;

/** Options for {@linkcode buildSyntheticRepo}. */
export interface SyntheticRepoOptions {
  /** Registered properties at base (the head adds one). */
  properties: number;
  /** Total fixture size in MiB. */
  fixtureMib: number;
  /** Called with a progress line (for stderr). */
  onProgress: (line: string) => void;
}

/** What was built, also stored as `.git/pawl-bench.json` for `--keep`. */
export interface SyntheticRepo {
  /** Generator format. */
  format: number;
  /** Properties at base. */
  properties: number;
  /** Requested fixture MiB. */
  fixtureMib: number;
  /** Test modules under `tests/properties/`. */
  modules: number;
  /** Fixture paths (repository-relative), in contract order. */
  fixturePaths: string[];
  /** Sum of fixture sizes in bytes. */
  fixtureBytes: number;
  /** Base branch. */
  base: string;
  /** Head branch. */
  head: string;
}

const MARKER = ".git/pawl-bench.json";

/**
 * The repository in `dir` when it was built by this generator with the same
 * options, else `undefined`.
 */
export async function readSyntheticRepo(
  dir: string,
  options: Pick<SyntheticRepoOptions, "properties" | "fixtureMib">,
): Promise<SyntheticRepo | undefined> {
  let repo: SyntheticRepo;
  try {
    repo = JSON.parse(await Deno.readTextFile(`${dir}/${MARKER}`));
  } catch {
    return undefined;
  }
  const same = repo.format === FORMAT &&
    repo.properties === options.properties &&
    repo.fixtureMib === options.fixtureMib;
  return same ? repo : undefined;
}

/** Whether `dir` holds a repository this generator built (any options). */
export async function isSyntheticRepo(dir: string): Promise<boolean> {
  try {
    await Deno.stat(`${dir}/${MARKER}`);
    return true;
  } catch {
    return false;
  }
}

/** Build the repository in `dir`, an empty or missing directory. */
export async function buildSyntheticRepo(
  dir: string,
  options: SyntheticRepoOptions,
): Promise<SyntheticRepo> {
  const { onProgress } = options;
  await Deno.mkdir(dir, { recursive: true });
  await fixedGit(dir, ["init", "-q", "-b", "main"]);

  const moduleCount = Math.max(
    1,
    Math.ceil(options.properties / PROPERTIES_PER_MODULE),
  );
  const modules = planModules(options.properties, moduleCount);
  await writeText(dir, "tests/__init__.py", "");
  await writeText(dir, "tests/properties/__init__.py", "");
  for (const module of modules) {
    await writeText(dir, module.path, renderModule(module));
  }

  const fixtures = planFixtures(options.fixtureMib);
  const total = fixtures.reduce((sum, f) => sum + f.size, 0);
  const buffer = new Uint8Array(Math.max(...fixtures.map((f) => f.size), 1));
  let written = 0;
  let reported = 0;
  await Deno.mkdir(`${dir}/tests/fixtures/large`, { recursive: true });
  await Deno.mkdir(`${dir}/tests/fixtures/medium`, { recursive: true });
  await Deno.mkdir(`${dir}/tests/fixtures/small`, { recursive: true });
  for (const fixture of fixtures) {
    const bytes = buffer.subarray(0, fixture.size);
    fillFixture(bytes, fixture);
    fixture.sha256 = createHash("sha256").update(bytes).digest("hex");
    await Deno.writeFile(`${dir}/${fixture.path}`, bytes);
    written += fixture.size;
    if (written - reported >= total / 10 || written === total) {
      reported = written;
      onProgress(
        `building synthetic repo: ${mib(written)}/${
          mib(total)
        } MiB of fixtures`,
      );
    }
  }

  const baseProperties = modules.flatMap((m) => m.properties);
  await writeText(
    dir,
    "tests/agent_contract.yaml",
    renderContract(baseProperties, fixtures),
  );
  onProgress(
    `building synthetic repo: git add + commit (base, ${mib(total)} MiB)`,
  );
  await commitAll(dir, "Base: synthetic properties and fixtures");

  // Head: strengthen one property and add one, in the same module.
  await fixedGit(dir, ["checkout", "-q", "-b", "agent"]);
  const changed = modules[Math.floor(modules.length / 2)] as ModulePlan;
  const first = changed.properties[0] as PropertyPlan;
  first.maxExamples += 10;
  first.extraAssertion = true;
  const added: PropertyPlan = {
    id: "p_added_by_agent",
    name: `test_added_${changed.index}_roundtrip`,
    module: changed.dotted,
    kind: "roundtrip",
    minExamples: 50,
    maxExamples: 60,
    extraAssertion: false,
  };
  changed.properties.push(added);
  await writeText(dir, changed.path, renderModule(changed));
  await writeText(
    dir,
    "tests/agent_contract.yaml",
    renderContract([...baseProperties, added], fixtures),
  );
  onProgress("building synthetic repo: git commit (head)");
  await commitAll(dir, "Head: strengthen one property and add one");

  const repo: SyntheticRepo = {
    format: FORMAT,
    properties: options.properties,
    fixtureMib: options.fixtureMib,
    modules: modules.length,
    fixturePaths: fixtures.map((f) => f.path),
    fixtureBytes: total,
    base: "main",
    head: "agent",
  };
  await Deno.writeTextFile(`${dir}/${MARKER}`, JSON.stringify(repo));
  return repo;
}

// --- properties -----------------------------------------------------------

type PropertyKind =
  | "commutes"
  | "bounded"
  | "roundtrip"
  | "idempotent"
  | "strictly_sorted";

const KINDS: readonly PropertyKind[] = [
  "commutes",
  "bounded",
  "roundtrip",
  "idempotent",
  "strictly_sorted",
];

interface PropertyPlan {
  id: string;
  name: string;
  module: string;
  kind: PropertyKind;
  minExamples: number;
  maxExamples: number;
  extraAssertion: boolean;
}

interface ModulePlan {
  index: number;
  path: string;
  dotted: string;
  properties: PropertyPlan[];
}

function planModules(properties: number, count: number): ModulePlan[] {
  const random = mulberry32(0x5eed_0000);
  const modules: ModulePlan[] = [];
  for (let index = 0; index < count; index++) {
    const name = `test_mod_${pad(index, 3)}`;
    modules.push({
      index,
      path: `tests/properties/${name}.py`,
      dotted: `tests.properties.${name}`,
      properties: [],
    });
  }
  for (let i = 0; i < properties; i++) {
    const module = modules[i % count] as ModulePlan;
    const kind = KINDS[random() % KINDS.length] as PropertyKind;
    const minExamples = 20 + random() % 181;
    module.properties.push({
      id: `p${pad(i, 5)}`,
      name: `test_p${pad(i, 5)}_${kind}`,
      module: module.dotted,
      kind,
      minExamples,
      maxExamples: minExamples + random() % 51,
      extraAssertion: false,
    });
  }
  return modules;
}

function renderModule(module: ModulePlan): string {
  const n = module.index;
  const header =
    `"""Synthetic property module ${n} (generated by pawl's benchmark).

Each test states an invariant of the small helpers below over a family of
inputs, the way a real property suite does.
"""
from hypothesis import given, settings, strategies as st

MODULUS_${n} = 1_000_003


def combine_${n}(a: int, b: int) -> int:
    """A symmetric mix of two integers."""
    return (a * 31 + b * 31 + a * b) % MODULUS_${n}


def encode_${n}(text: str) -> bytes:
    return text.encode("utf-8")[::-1]


def decode_${n}(blob: bytes) -> str:
    return blob[::-1].decode("utf-8")


def normalize_${n}(xs: list[int]) -> list[int]:
    """Sorted distinct values."""
    return sorted(set(xs))
`;
  return [header, ...module.properties.map((p) => renderProperty(p, n))]
    .join("\n");
}

function renderProperty(property: PropertyPlan, n: number): string {
  const decorator =
    `\n@settings(max_examples=${property.maxExamples}, deadline=None)\n`;
  const extra = property.extraAssertion;
  const def = (args: string) => `def ${property.name}(${args}) -> None:\n`;
  switch (property.kind) {
    case "commutes":
      return `${decorator}@given(st.integers(), st.integers())\n${
        def("a: int, b: int")
      }    assert combine_${n}(a, b) == combine_${n}(b, a)\n${
        extra ? `    assert 0 <= combine_${n}(a, b) < MODULUS_${n}\n` : ""
      }`;
    case "bounded":
      return `${decorator}@given(st.integers(), st.integers())\n${
        def("a: int, b: int")
      }    value = combine_${n}(a, b)\n    assert 0 <= value < MODULUS_${n}\n${
        extra ? `    assert value == combine_${n}(b, a)\n` : ""
      }`;
    case "roundtrip":
      return `${decorator}@given(st.text())\n${
        def("text: str")
      }    assert decode_${n}(encode_${n}(text)) == text\n${
        extra ? `    assert len(encode_${n}(text)) >= len(text)\n` : ""
      }`;
    case "idempotent":
      return `${decorator}@given(st.lists(st.integers()))\n${
        def("xs: list[int]")
      }    once = normalize_${n}(xs)\n    assert normalize_${n}(once) == once\n${
        extra ? `    assert set(once) == set(xs)\n` : ""
      }`;
    case "strictly_sorted":
      return `${decorator}@given(st.lists(st.integers()))\n${
        def("xs: list[int]")
      }    out = normalize_${n}(xs)\n    assert all(a < b for a, b in zip(out, out[1:]))\n${
        extra ? `    assert len(out) <= len(xs)\n` : ""
      }`;
  }
}

// --- fixtures -------------------------------------------------------------

interface FixturePlan {
  id: string;
  path: string;
  size: number;
  format: "binary" | "jsonl" | "csv";
  seed: number;
  sha256: string;
}

/**
 * About 30% of the bytes in 10 MiB files, 50% in 1 MiB files and the rest
 * in small files of 1–96 KiB; half binary (incompressible, like images),
 * half text (JSON lines, CSV).
 */
function planFixtures(fixtureMib: number): FixturePlan[] {
  const random = mulberry32(0xf1c5_0000);
  const fixtures: FixturePlan[] = [];
  const add = (
    id: string,
    dir: string,
    size: number,
    format: FixturePlan["format"],
  ) => {
    const ext = format === "binary" ? "bin" : format;
    fixtures.push({
      id,
      path: `tests/fixtures/${dir}/${id}.${ext}`,
      size,
      format,
      seed: random(),
      sha256: "",
    });
  };
  const total = Math.round(fixtureMib * MIB);
  const large = Math.floor(fixtureMib * 0.3 / 10);
  for (let i = 0; i < large; i++) {
    add(`large_${pad(i, 3)}`, "large", 10 * MIB, i % 2 ? "jsonl" : "binary");
  }
  const medium = Math.floor(fixtureMib * 0.5);
  for (let i = 0; i < medium; i++) {
    add(`medium_${pad(i, 4)}`, "medium", MIB, i % 2 ? "jsonl" : "binary");
  }
  let left = total - (large * 10 + medium) * MIB;
  for (let i = 0; left > 0; i++) {
    const size = Math.min(left, 1024 + random() % (95 * 1024));
    const format = i % 4 === 0 ? "binary" : i % 4 === 1 ? "csv" : "jsonl";
    add(`small_${pad(i, 5)}`, "small", size, format);
    left -= size;
  }
  return fixtures;
}

const WORDS = makeWords();

function makeWords(): string[] {
  const random = mulberry32(0x3030_0000);
  const words: string[] = [];
  for (let i = 0; i < 512; i++) {
    let word = "";
    const length = 3 + random() % 7;
    for (let j = 0; j < length; j++) {
      word += String.fromCharCode(97 + random() % 26);
    }
    words.push(word);
  }
  return words;
}

function fillFixture(bytes: Uint8Array, fixture: FixturePlan): void {
  const random = mulberry32(fixture.seed);
  if (fixture.format === "binary") {
    const whole = bytes.length - bytes.length % 4;
    const words = new Uint32Array(bytes.buffer, bytes.byteOffset, whole / 4);
    for (let i = 0; i < words.length; i++) words[i] = random();
    for (let i = whole; i < bytes.length; i++) bytes[i] = random() & 0xff;
    return;
  }
  const encoder = new TextEncoder();
  const word = () => WORDS[random() % WORDS.length] as string;
  let offset = 0;
  let row = 0;
  while (offset < bytes.length) {
    // Encode in chunks of rows: fast, and bounded memory.
    const lines: string[] = [];
    for (let i = 0; i < 2000; i++, row++) {
      const qty = random() % 1000;
      const cents = random() % 100_000;
      lines.push(
        fixture.format === "csv"
          ? `${row},${word()}-${word()},${qty},${cents},${word()} ${word()}\n`
          : `{"id": ${row}, "sku": "${word()}-${word()}", "qty": ${qty}, "cents": ${cents}, "note": "${word()} ${word()} ${word()}"}\n`,
      );
    }
    const { written } = encoder.encodeInto(
      lines.join(""),
      bytes.subarray(offset),
    );
    offset += written;
  }
}

// --- contract -------------------------------------------------------------

function renderContract(
  properties: readonly PropertyPlan[],
  fixtures: readonly FixturePlan[],
): string {
  const lines = [
    "# tests/agent_contract.yaml (generated by pawl's benchmark)",
    "version: 1",
    "properties:",
  ];
  for (const p of properties) {
    lines.push(
      `  - id: ${p.id}`,
      `    module: ${p.module}`,
      `    name: ${p.name}`,
      `    min_examples: ${p.minExamples}`,
    );
  }
  lines.push("fixtures:");
  for (const f of fixtures) {
    lines.push(
      `  - id: ${f.id}`,
      `    path: ${f.path}`,
      `    sha256: ${f.sha256}`,
      `    unlock: null`,
    );
  }
  const frozen = properties[1] ?? properties[0];
  if (frozen === undefined) {
    lines.push("freezes: []", "max_active_freezes: 0");
  } else {
    lines.push(
      "freezes:",
      `  - id: ${frozen.name}`,
      `    owner: "bench-oncall"`,
      `    reason: "synthetic freeze; tracked as BENCH-1"`,
      `    expires: "2099-01-01T00:00:00Z"`,
      `    remaining_reruns: 2`,
      "max_active_freezes: 3",
    );
  }
  return lines.join("\n") + "\n";
}

// --- helpers --------------------------------------------------------------

/** A small, fast, seeded PRNG returning unsigned 32-bit integers. */
function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  };
}

function pad(n: number, width: number): string {
  return String(n).padStart(width, "0");
}

function mib(bytes: number): string {
  return (bytes / MIB).toFixed(0);
}

async function writeText(dir: string, path: string, text: string) {
  const full = `${dir}/${path}`;
  await Deno.mkdir(full.slice(0, full.lastIndexOf("/")), { recursive: true });
  await Deno.writeTextFile(full, text);
}
