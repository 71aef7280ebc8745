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
import { readSigningKey, type SigningKey } from "../sign/signing_key.ts";
import { signVerdict } from "../sign/sign_verdict.ts";
import { renderSarif } from "../report/render_sarif.ts";
import { renderJunit } from "../report/render_junit.ts";
import { renderMarkdown } from "../report/render_markdown.ts";

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
  --key FILE               sign the verdict with this Ed25519 PKCS#8 PEM key
                           (or env PAWL_SIGNING_KEY holding the PEM)
  --out-signed FILE        write the signed DSSE envelope (in-toto Statement v1)
  --sarif FILE             write SARIF 2.1.0 for code-scanning upload
  --junit FILE             write JUnit XML (one testcase per rule family)
  --markdown FILE          write the Markdown report (also appended to
                           $GITHUB_STEP_SUMMARY when that is set)
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
        key: { type: "string" },
        "out-signed": { type: "string" },
        sarif: { type: "string" },
        junit: { type: "string" },
        markdown: { type: "string" },
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
  // The key is read before anything from the repository runs, and its
  // directory is hidden from the sandbox.
  const signing = await loadSigningKey(v.key, io);
  if (v["out-signed"] !== undefined && signing === undefined) {
    throw new UsageError(
      `"--out-signed" needs a signing key: pass "--key FILE" or set PAWL_SIGNING_KEY`,
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
      ...(signing?.path === undefined ? {} : { hiddenPaths: [signing.path] }),
    });
    progress.end();
    if (v.ledger !== undefined && ledger.length > 0) {
      await Deno.writeTextFile(v.ledger, formatLedger(ledger), {
        append: true,
      });
    }
    const json = JSON.stringify(verdict, null, 2) + "\n";
    if (v.out !== undefined) await writeOutputFile(v.out, json);
    if (signing !== undefined) {
      const envelope = await signVerdict(verdict, signing.key);
      if (v["out-signed"] !== undefined) {
        await writeOutputFile(
          v["out-signed"],
          JSON.stringify(envelope, null, 2) + "\n",
        );
      }
    }
    if (v.sarif !== undefined) {
      await writeOutputFile(v.sarif, renderSarif(verdict));
    }
    if (v.junit !== undefined) {
      await writeOutputFile(v.junit, renderJunit(verdict));
    }
    const summary = io.env["GITHUB_STEP_SUMMARY"];
    if (v.markdown !== undefined || (summary !== undefined && summary !== "")) {
      const markdown = renderMarkdown(
        verdict,
        signing === undefined ? {} : { keyid: signing.key.keyid },
      );
      if (v.markdown !== undefined) await writeOutputFile(v.markdown, markdown);
      if (summary !== undefined && summary !== "") {
        await Deno.writeTextFile(summary, markdown, { append: true });
      }
    }
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

/** A signing key and the file it came from (undefined for the environment). */
interface LoadedKey {
  key: SigningKey;
  path: string | undefined;
}

async function loadSigningKey(
  path: string | undefined,
  io: CliIo,
): Promise<LoadedKey | undefined> {
  if (path !== undefined) {
    let pem: string;
    try {
      pem = await Deno.readTextFile(path);
    } catch (error) {
      throw new UsageError(
        `Cannot read signing key "${path}": ${
          error instanceof Error ? error.message : String(error)
        }`,
      );
    }
    // The sandbox hides the key file itself, by its resolved path.
    return {
      key: await readSigningKey(pem, path),
      path: await Deno.realPath(path),
    };
  }
  const pem = io.env["PAWL_SIGNING_KEY"];
  if (pem === undefined || pem === "") return undefined;
  return {
    key: await readSigningKey(pem, "PAWL_SIGNING_KEY"),
    path: undefined,
  };
}
