/**
 * The limits and defaults the documentation states are the ones pawl uses:
 * each row reads a number out of the prose and compares it with the value the
 * code acts on, so a limit that moves without its documentation (or prose
 * that drifts from the code) fails here, naming the file and the phrase.
 */
import assert from "node:assert/strict";
import { LOG_INTERVAL_MS } from "../src/cli/progress.ts";
import { SHOWN } from "../src/coverage/judge_changed_lines.ts";
import { MAX_MARKDOWN_BYTES } from "../src/report/render_markdown.ts";
import {
  CALLS_IN_ALL,
  CALLS_PER_FUNCTION,
  RECORD_BYTES,
} from "../src/run/calls/record_calls.ts";
import { REPLAY_CALLS, REPLAY_SECONDS } from "../src/run/calls/replay_calls.ts";
import {
  MAX_DETAIL_CHARS,
  MAX_DETAIL_LINES,
} from "../src/run/failure_detail.ts";
import { MAX_JSON_DEPTH } from "../src/contract/parse_json_document.ts";
import { MAX_DRIVER_LINE_BYTES } from "../src/mutation/driver_channel.ts";
import { SCHEMATA_MAX_LENGTH } from "../src/mutation/schemata.ts";
import { MAX_XML_DEPTH } from "../src/run/_junit_xml.ts";
import { MAX_TAPPED_LINE_BYTES } from "../src/run/_line_tap.ts";
import { COPY_TIMEOUT_MS } from "../src/run/bytecode_compiler.ts";
import { SHOWN_CHARS } from "../src/run/calls/show_form.ts";
import { TAIL_LINES as REASON_TAIL_LINES } from "../src/run/failure_reason.ts";
import { MAX_STREAM_BYTES } from "../src/run/observer.ts";
import { MAX_MESSAGE_CHARS } from "../src/run/parse_junit.ts";
import { MAX_LEDGER_BYTES } from "../src/run/read_ledger_rows.ts";
import { MAX_REPORT_BYTES } from "../src/run/run_pytest.ts";
import {
  COLLECTION_ERROR_LINES,
  MAX_FAILED_FINDINGS,
  TAIL_CHARS,
  TAIL_LINES,
} from "../src/run/run_suite.ts";
import { DEFAULT_LIMITS, DEFAULT_TMP_BYTES } from "../src/sandbox/_defaults.ts";
import { OUTPUT_KEEP_BYTES } from "../src/sandbox/_output_collector.ts";
import { BACKGROUND_NICE } from "../src/sandbox/_sandbox_argv.ts";
import { MAX_WARM_REPORT_BYTES } from "../src/sandbox/_warm_python.ts";
import {
  DEFAULT_SANDBOX_UIDS,
  DEFAULT_UID_WAIT_MS,
} from "../src/sandbox/lease_uid.ts";

const MIB = 1024 * 1024;

interface Stated {
  /** What the number is. */
  what: string;
  /** The document, from the repository's root. */
  file: string;
  /** The phrase, each stated number captured (`1,500` reads as 1500). */
  phrase: RegExp;
  /** The values the code uses, in the phrase's order. */
  values: readonly number[];
}

const STATED: readonly Stated[] = [
  {
    what: "the call recorder's bounds",
    file: "docs/decisions.md",
    phrase: /\((\d+) calls per function, (\d+) in all, (\d+) MiB\)/,
    values: [CALLS_PER_FUNCTION, CALLS_IN_ALL, RECORD_BYTES / MIB],
  },
  {
    what: "the replay's bounds",
    file: "docs/decisions.md",
    phrase: /up to (\d+) calls or (\d+) s of its own CPU time/,
    values: [REPLAY_CALLS, REPLAY_SECONDS],
  },
  {
    what: "a failure's detail bounds",
    file: "docs/reports.md",
    phrase: /each held to (\d+) lines and ([\d,]+) characters/,
    values: [MAX_DETAIL_LINES, MAX_DETAIL_CHARS],
  },
  {
    what: "the Markdown comment's limit",
    file: "docs/reports.md",
    phrase: /past GitHub's ([\d,]+)-character limit/,
    values: [MAX_MARKDOWN_BYTES],
  },
  {
    what: "the default sandbox uids",
    file: "docs/sandbox.md",
    phrase: /\(default (\d+)-(\d+): (\d+) uids/,
    values: [
      DEFAULT_SANDBOX_UIDS.first,
      DEFAULT_SANDBOX_UIDS.last,
      DEFAULT_SANDBOX_UIDS.last - DEFAULT_SANDBOX_UIDS.first + 1,
    ],
  },
  {
    what: "the default wait for a free uid",
    file: "docs/sandbox.md",
    phrase: /seconds to wait for a free uid \(default (\d+)\)/,
    values: [DEFAULT_UID_WAIT_MS / 1000],
  },
  {
    what: "the background runs' priority",
    file: "docs/performance.md",
    phrase: /background priority \(nice (\d+),/,
    values: [BACKGROUND_NICE],
  },
  {
    what: "how many unexecuted ranges are named",
    file: "docs/changed-code.md",
    phrase: /as `file:line` ranges \(the first (\d+)\)/,
    values: [SHOWN],
  },
  {
    what: "the progress line's interval (CI log)",
    file: "docs/cli.md",
    phrase: /While the tests run, a line comes every (\d+) s\./,
    values: [LOG_INTERVAL_MS / 1000],
  },
  {
    what: "the progress line's interval (quick tour)",
    file: "README.md",
    phrase: /a progress line comes every (\d+) s while the tests run/,
    values: [LOG_INTERVAL_MS / 1000],
  },
];

for (const { what, file, phrase, values } of STATED) {
  Deno.test(`${file} states ${what} as the code has them`, async () => {
    const text = await Deno.readTextFile(
      new URL(`../${file}`, import.meta.url),
    );
    // Prose wraps anywhere: one space for each run of white space.
    const found = text.replace(/\s+/g, " ").match(phrase);
    assert.ok(found, `${file} no longer says ${phrase}`);
    assert.deepEqual(
      found.slice(1).map((n) => Number(n.replaceAll(",", ""))),
      [...values],
      `${file}: "${found[0]}"`,
    );
  });
}

/**
 * docs/limits.md: each table row's value (its numbers, KiB, MiB and GiB
 * read as bytes) is the value of the limit it names.
 */
const LIMITS: Readonly<Record<string, readonly number[]>> = {
  "output kept of a run": [OUTPUT_KEEP_BYTES],
  "size of a file a test writes": [DEFAULT_LIMITS.maxFileBytes],
  "CPU time of a run": [DEFAULT_LIMITS.cpuSeconds],
  "open files of a process": [DEFAULT_LIMITS.maxOpenFiles],
  "private `/tmp` and `/dev/shm` (bubblewrap tier)": [DEFAULT_TMP_BYTES],
  "JUnit report": [MAX_REPORT_BYTES],
  "nesting of a JUnit report": [MAX_XML_DEPTH],
  "what pawl's observer reads of one connection": [MAX_STREAM_BYTES],
  "seed ledger (`seed_ledger.jsonl`)": [MAX_LEDGER_BYTES],
  "a line of the observer's stream counted for progress": [
    MAX_TAPPED_LINE_BYTES,
  ],
  "output quoted by a failed, stopped or reportless run": [
    TAIL_LINES,
    TAIL_CHARS,
  ],
  "traceback quoted by `tests.collection_error`": [COLLECTION_ERROR_LINES],
  "failed tests listed one by one": [MAX_FAILED_FINDINGS],
  "a failed test's JUnit message": [MAX_MESSAGE_CHARS],
  "a failed property's report quoted as its reason": [REASON_TAIL_LINES],
  "a call or result shown by `harness.code_detects_tests`": [SHOWN_CHARS],
  "nesting of `fixtures.lock` (seed contracts)": [MAX_JSON_DEPTH],
  "a file with its mutants compiled in (schemata)": [SCHEMATA_MAX_LENGTH],
  "a line from a warm mutation driver": [MAX_DRIVER_LINE_BYTES],
  "a held interpreter's start-up report": [MAX_WARM_REPORT_BYTES],
  "compiling a test tree's bytecode ahead of its runs": [
    COPY_TIMEOUT_MS / 1000,
  ],
};

const UNITS: Readonly<Record<string, number>> = {
  KiB: 1024,
  MiB: 1024 * 1024,
  GiB: 1024 * 1024 * 1024,
};

Deno.test("docs/limits.md gives each fixed limit the value pawl uses, and names every one the test knows", async () => {
  const text = await Deno.readTextFile(
    new URL("../docs/limits.md", import.meta.url),
  );
  const rows = text.split("\n")
    .filter((line) => /^\| /.test(line) && !/^\| (?:limit |-)/.test(line))
    .map((line) =>
      line.split(" | ").map((cell) => cell.replace(/^\| /, "").trim())
    );
  const named: string[] = [];
  for (const [name, value] of rows) {
    assert.ok(
      name! in LIMITS,
      `docs/limits.md names "${name}", which no row here checks`,
    );
    const numbers = [...value!.matchAll(/(\d[\d,]*)(?: (KiB|MiB|GiB)\b)?/g)]
      .map(([, n, unit]) =>
        Number(n!.replaceAll(",", "")) * (UNITS[unit ?? ""] ?? 1)
      );
    assert.deepEqual(
      numbers,
      LIMITS[name!],
      `docs/limits.md: ${name}: ${value}`,
    );
    named.push(name!);
  }
  assert.deepEqual(named.sort(), Object.keys(LIMITS).sort());
});
