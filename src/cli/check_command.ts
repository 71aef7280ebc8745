/**
 * `pawl check` and `pawl diff`: judge one pull request.
 *
 * @module
 */
import { parseArgs } from "node:util";
import { parseNow } from "../core/parse_now.ts";
import {
  type IsolationRequest,
  runCheckWithLedger,
} from "../check/run_check.ts";
import { formatLedger } from "../seeds/ledger_row.ts";
import { UsageError } from "../check/undecided_error.ts";
import { renderText } from "../render/render_text.ts";
import type { CliIo } from "./cli_io.ts";
import { exitCodeFor } from "./exit_code.ts";
import { createProgress, SILENT_PROGRESS } from "./progress.ts";
import { writeOutputFile } from "./write_output_file.ts";

const ISOLATIONS: readonly IsolationRequest[] = [
  "auto",
  "bwrap",
  "unshare",
  "uid",
  "none",
];

/** Usage text for `check` and `diff`. */
export const CHECK_USAGE = `Usage:
  pawl check --repo <path|url> --base <rev> --head <rev> --now <RFC3339> [options]
  pawl diff  --repo <path|url> --base <rev> --head <rev> --now <RFC3339> [options]

Options:
  --out FILE               write the verdict as JSON
  --json                   print the verdict JSON on stdout (logs stay on stderr)
  --allow-fixture-rotate   a human allows fixture rotation in this run
  --isolation MODE         auto (default), bwrap, unshare, uid, or none
  --sandbox-path PATH      PATH inside the sandbox (default /usr/local/bin:/usr/bin:/bin)
  --ledger FILE            append one seed-ledger JSON line per property run
  --quiet                  no progress on stderr
  --no-color               plain terminal report

Exit codes: 0 accept, 1 reject, 2 could not decide.
"diff" runs every static rule and executes nothing from the repository.
`;

/** Run `pawl check` (runTests) or `pawl diff` (static only). */
export async function checkCommand(
  args: readonly string[],
  io: CliIo,
  options: { runTests: boolean },
): Promise<number> {
  try {
    return await judgeCommandLine(args, io, options);
  } catch (error) {
    // A stale accept must never survive a run that could not decide, not
    // even one stopped by its own command line (a bad --now, an unknown
    // option): on exit 2, --out says "undecided".
    const out = outPath(args);
    if (out !== undefined) {
      const message = error instanceof Error ? error.message : String(error);
      await writeOutputFile(
        out,
        JSON.stringify({ decision: "undecided", error: message }, null, 2) +
          "\n",
      ).catch(() => {});
    }
    throw error;
  }
}

/** The `--out` path, found leniently so a command line that does not parse still has one. */
function outPath(args: readonly string[]): string | undefined {
  try {
    const { values } = parseArgs({
      args: [...args],
      strict: false,
      allowPositionals: true,
      options: { out: { type: "string" } },
    });
    const out = values.out;
    return typeof out === "string" && out !== "" && !out.startsWith("-")
      ? out
      : undefined;
  } catch {
    return undefined;
  }
}

async function judgeCommandLine(
  args: readonly string[],
  io: CliIo,
  options: { runTests: boolean },
): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...args],
      strict: true,
      allowPositionals: false,
      options: {
        repo: { type: "string" },
        base: { type: "string" },
        head: { type: "string" },
        now: { type: "string" },
        out: { type: "string" },
        json: { type: "boolean", default: false },
        "allow-fixture-rotate": { type: "boolean", default: false },
        isolation: { type: "string", default: "auto" },
        "sandbox-path": { type: "string" },
        quiet: { type: "boolean", default: false },
        "no-color": { type: "boolean", default: false },
        ledger: { type: "string" },
      },
    });
  } catch (error) {
    throw new UsageError(
      `${
        error instanceof Error ? error.message : String(error)
      }\n\n${CHECK_USAGE}`,
    );
  }
  const v = parsed.values;
  for (const key of ["repo", "base", "head"] as const) {
    if (v[key] === undefined || v[key] === "") {
      throw new UsageError(
        `Missing required option "--${key}"\n\n${CHECK_USAGE}`,
      );
    }
  }
  const now = parseNow(v.now);
  const isolation = v.isolation as IsolationRequest;
  if (!ISOLATIONS.includes(isolation)) {
    throw new UsageError(
      `Unknown isolation "${v.isolation}": expected one of ${
        ISOLATIONS.join(", ")
      }`,
    );
  }
  const progress = v.quiet
    ? SILENT_PROGRESS
    : createProgress({ terminal: io.terminal, write: io.err });
  try {
    const { verdict, ledger } = await runCheckWithLedger({
      repo: v.repo as string,
      base: v.base as string,
      head: v.head as string,
      now,
      allowFixtureRotate: v["allow-fixture-rotate"],
      isolation,
      runTests: options.runTests,
      progress,
      ...(v["sandbox-path"] === undefined
        ? {}
        : { sandboxPath: v["sandbox-path"] }),
      ...(io.env["TMPDIR"] ? { tempRoot: io.env["TMPDIR"] } : {}),
    });
    progress.end();
    if (v.ledger !== undefined && ledger.length > 0) {
      await Deno.writeTextFile(v.ledger, formatLedger(ledger), {
        append: true,
      });
    }
    const json = JSON.stringify(verdict, null, 2) + "\n";
    if (v.out !== undefined) await writeOutputFile(v.out, json);
    if (v.json) {
      io.out(json);
    } else {
      io.out(renderText(verdict, { color: io.terminal && !v["no-color"] }));
    }
    return exitCodeFor(verdict.decision);
  } catch (error) {
    progress.end();
    throw error;
  }
}
