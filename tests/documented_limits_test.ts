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
import { BACKGROUND_NICE } from "../src/sandbox/_sandbox_argv.ts";
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
