/**
 * The command line of `pawl check` and `pawl diff`: their usage text and
 * options, apart from the command's code so the entry can read them before
 * that code loads.
 *
 * @module
 */
import { type DocumentedOptions, optionsHelp } from "./options_help.ts";
import {
  ISOLATION_OPTION,
  QUIET_OPTION,
  SANDBOX_PATH_OPTION,
} from "./_shared_options.ts";

/** What `check` and `diff` do, as their usage says it. */
const SUMMARY = {
  check:
    "Judges a pull request: the contract diff, the tests in a sandbox, the verdict.",
  diff:
    "Runs every static rule of a check and executes nothing from the repository\n(no tests run).",
} as const;

/** The options of `check` and `diff`. */
export const CHECK_OPTIONS = {
  repo: {
    type: "string",
    doc: {
      value: "PATH|URL",
      text: "the repository: a local path or a git URL",
    },
  },
  base: {
    type: "string",
    doc: {
      value: "REV",
      text: "the base revision (the contract a human committed)",
    },
  },
  head: {
    type: "string",
    doc: { value: "REV", text: "the head revision (the pull request)" },
  },
  now: {
    type: "string",
    doc: {
      value: "RFC3339",
      text:
        'the clock the gate judges at, such as\n"2026-11-30T12:00:00Z" (freezes and seeds expire by it)',
    },
  },
  pr: {
    type: "string",
    doc: {
      value: "REF",
      text:
        "a GitHub pull request: OWNER/REPO#N or its URL; base and\nhead are the commit ids the API reports",
    },
  },
  "now-from": {
    type: "string",
    doc: {
      value: "SOURCE",
      text:
        "flag (default: --now) or event: the event payload's\npull_request.updated_at (recorded in the verdict)",
    },
  },
  publish: {
    type: "boolean",
    default: false,
    doc: {
      text:
        'publish to the pull request (check run "pawl", commit\nstatus, one sticky comment); default: when the pull\nrequest came from GitHub and GITHUB_TOKEN is set',
    },
  },
  "no-publish": { type: "boolean", default: false, doc: { with: "publish" } },
  out: {
    type: "string",
    doc: { value: "FILE", text: "write the verdict as JSON" },
  },
  json: {
    type: "boolean",
    default: false,
    doc: {
      text:
        'print the verdict JSON on stdout (logs stay on stderr),\nalso on exit 2: {"decision": "undecided", "error": ...}',
    },
  },
  "allow-fixture-rotate": {
    type: "boolean",
    default: false,
    doc: { text: "a human allows fixture rotation in this run" },
  },
  ...ISOLATION_OPTION,
  ...SANDBOX_PATH_OPTION,
  "sandbox-uids": {
    type: "string",
    doc: {
      value: "RANGE",
      text:
        "FIRST-LAST: the uids each run leases its own from\n(default env PAWL_SANDBOX_UIDS, else 64123-64186)",
    },
  },
  "setup-cache": {
    type: "string",
    doc: {
      value: "DIR",
      text:
        "where [environment.setup] results are cached on this\nrunner (default env PAWL_SETUP_CACHE, else\n/var/cache/pawl/setup as root)",
    },
  },
  ledger: {
    type: "string",
    doc: {
      value: "FILE",
      text: "append one seed-ledger JSON line per property run",
    },
  },
  key: {
    type: "string",
    doc: {
      value: "FILE",
      text:
        "sign the verdict with this Ed25519 PKCS#8 PEM key\n(or env PAWL_SIGNING_KEY holding the PEM)",
    },
  },
  "out-signed": {
    type: "string",
    doc: {
      value: "FILE",
      text: "write the signed DSSE envelope (in-toto Statement v1)",
    },
  },
  "out-test-result": {
    type: "string",
    doc: {
      value: "FILE",
      text:
        "also write the verdict as a signed in-toto test-result\nstatement (check only: diff runs no tests)",
    },
  },
  sarif: {
    type: "string",
    doc: { value: "FILE", text: "write SARIF 2.1.0 for code-scanning upload" },
  },
  junit: {
    type: "string",
    doc: {
      value: "FILE",
      text: "write JUnit XML (one testcase per rule family)",
    },
  },
  codequality: {
    type: "string",
    doc: {
      value: "FILE",
      text:
        "write a GitLab Code Quality report (one issue per\nfinding, for artifacts:reports:codequality)",
    },
  },
  markdown: {
    type: "string",
    doc: {
      value: "FILE",
      text:
        "write the Markdown report (also appended to\n$GITHUB_STEP_SUMMARY when that is set)",
    },
  },
  "mutation-report": {
    type: "string",
    doc: {
      value: "FILE",
      text:
        "write the mutants of [mutation] as a\nmutation-testing-elements JSON report",
    },
  },
  ...QUIET_OPTION,
  "no-color": {
    type: "boolean",
    default: false,
    doc: { text: "plain terminal report" },
  },
} as const satisfies DocumentedOptions;

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
${optionsHelp(CHECK_OPTIONS)}
Exit codes: 0 accept, 1 reject, 2 could not decide or a usage error.
Environment: GITHUB_TOKEN, GITHUB_API_URL (GitHub Enterprise), and in Actions
GITHUB_EVENT_PATH, GITHUB_EVENT_NAME, GITHUB_REPOSITORY. Publishing failures are
reported on stderr and never change the exit code. With GITHUB_ACTIONS=true and
nothing published (no token, --no-publish, a fork's pull request), each finding
is also printed as a workflow command (::error/::warning annotations).
`;
}
