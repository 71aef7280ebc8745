/**
 * The command line of `pawl check` and `pawl diff`: their usage text and
 * options, apart from the command's code so the entry can read them before
 * that code loads.
 *
 * @module
 */
import type { CommandOptions } from "./parse_command_args.ts";

/** What `check` and `diff` do, as their usage says it. */
const SUMMARY = {
  check:
    "Judges a pull request: the contract diff, the tests in a sandbox, the verdict.",
  diff:
    "Runs every static rule of a check and executes nothing from the repository\n(no tests run).",
} as const;

/**
 * The usage text of `check` or `diff`: the same options (one table parses
 * both), each command's own forms and summary.
 */
export function checkUsage(command: "check" | "diff"): string {
  return `Usage:
  pawl ${command} --repo <path|url> --base <rev> --head <rev> --now <RFC3339> [options]
  pawl ${command} --pr <OWNER/REPO#N|PR URL> --now <RFC3339> [options]
  pawl ${command} --now <RFC3339> | --now-from event     (GitHub Actions pull_request event)

${SUMMARY[command]}

Options:
  --repo PATH|URL          the repository: a local path or a git URL
  --base REV               the base revision (the contract a human committed)
  --head REV               the head revision (the pull request)
  --now RFC3339            the clock the gate judges at, such as
                           "2026-11-30T12:00:00Z" (freezes and seeds expire by it)
  --pr REF                 a GitHub pull request: OWNER/REPO#N or its URL; base and
                           head are the commit ids the API reports
  --now-from SOURCE        flag (default: --now) or event: the event payload's
                           pull_request.updated_at (recorded in the verdict)
  --publish, --no-publish  publish to the pull request (check run "pawl", commit
                           status, one sticky comment); default: when the pull
                           request came from GitHub and GITHUB_TOKEN is set
  --out FILE               write the verdict as JSON
  --json                   print the verdict JSON on stdout (logs stay on stderr),
                           also on exit 2: {"decision": "undecided", "error": ...}
  --allow-fixture-rotate   a human allows fixture rotation in this run
  --isolation MODE         auto (default), bwrap, unshare, uid, or none
  --sandbox-path PATH      PATH inside the sandbox (default /usr/local/bin:/usr/bin:/bin)
  --sandbox-uids RANGE     FIRST-LAST: the uids each run leases its own from
                           (default env PAWL_SANDBOX_UIDS, else 64123-64186)
  --setup-cache DIR        where [environment.setup] results are cached on this
                           runner (default env PAWL_SETUP_CACHE, else
                           /var/cache/pawl/setup as root)
  --ledger FILE            append one seed-ledger JSON line per property run
  --key FILE               sign the verdict with this Ed25519 PKCS#8 PEM key
                           (or env PAWL_SIGNING_KEY holding the PEM)
  --out-signed FILE        write the signed DSSE envelope (in-toto Statement v1)
  --out-test-result FILE   also write the verdict as a signed in-toto test-result
                           statement (check only: diff runs no tests)
  --sarif FILE             write SARIF 2.1.0 for code-scanning upload
  --junit FILE             write JUnit XML (one testcase per rule family)
  --markdown FILE          write the Markdown report (also appended to
                           $GITHUB_STEP_SUMMARY when that is set)
  --mutation-report FILE   write the mutants of [mutation] as a
                           mutation-testing-elements JSON report
  --quiet                  no progress on stderr
  --no-color               plain terminal report

Exit codes: 0 accept, 1 reject, 2 could not decide or a usage error.
Environment: GITHUB_TOKEN, GITHUB_API_URL (GitHub Enterprise), and in Actions
GITHUB_EVENT_PATH, GITHUB_EVENT_NAME, GITHUB_REPOSITORY. Publishing failures are
reported on stderr and never change the exit code.
`;
}

/** The options of `check` and `diff`. */
export const CHECK_OPTIONS = {
  repo: { type: "string" },
  base: { type: "string" },
  head: { type: "string" },
  now: { type: "string" },
  out: { type: "string" },
  json: { type: "boolean", default: false },
  "allow-fixture-rotate": { type: "boolean", default: false },
  isolation: { type: "string", default: "auto" },
  "sandbox-path": { type: "string" },
  "sandbox-uids": { type: "string" },
  "setup-cache": { type: "string" },
  quiet: { type: "boolean", default: false },
  "no-color": { type: "boolean", default: false },
  ledger: { type: "string" },
  key: { type: "string" },
  "out-signed": { type: "string" },
  "out-test-result": { type: "string" },
  sarif: { type: "string" },
  junit: { type: "string" },
  markdown: { type: "string" },
  "mutation-report": { type: "string" },
  pr: { type: "string" },
  "now-from": { type: "string" },
  publish: { type: "boolean", default: false },
  "no-publish": { type: "boolean", default: false },
} as const satisfies CommandOptions;
