import assert from "node:assert/strict";
import {
  formatPullRequestRef,
  parsePullRequestRef,
  PullRequestRefError,
} from "./parse_pull_request_ref.ts";

Deno.test("parsePullRequestRef() reads the short form and web addresses", async (t) => {
  const cases: [string, string | undefined, string][] = [
    ["octo/widgets#7", undefined, "octo/widgets#7"],
    ["octo/widgets.git#12", undefined, "octo/widgets#12"],
    ["octo-org/my_repo.js#1", undefined, "octo-org/my_repo.js#1"],
    ["https://github.com/octo/widgets/pull/7", undefined, "octo/widgets#7"],
    [
      "https://github.com/octo/widgets/pull/7/files?w=1#diff",
      undefined,
      "octo/widgets#7",
    ],
    [
      "https://www.github.com/octo/widgets/pull/7",
      "https://api.github.com",
      "octo/widgets#7",
    ],
    [
      "https://ghe.example.com/octo/widgets/pull/9",
      "https://ghe.example.com/api/v3",
      "octo/widgets#9",
    ],
    ["http://127.0.0.1:8080/o/r/pull/3", "http://127.0.0.1:8080", "o/r#3"],
  ];
  for (const [text, apiUrl, expected] of cases) {
    await t.step(text, () => {
      const ref = parsePullRequestRef(
        text,
        apiUrl === undefined ? {} : { apiUrl },
      );
      assert.equal(formatPullRequestRef(ref), expected);
    });
  }
});

Deno.test("parsePullRequestRef() refuses what is not a pull request on this GitHub", async (t) => {
  const cases: [string, string | undefined, RegExp][] = [
    ["octo/widgets", undefined, /expected "OWNER\/REPO#NUMBER"/],
    ["octo/widgets#0", undefined, /invalid pull request number "0"/],
    ["octo/widgets#07", undefined, /invalid pull request number/],
    ["octo/widgets#x", undefined, /invalid pull request number/],
    ["-o/widgets#1", undefined, /invalid owner "-o"/],
    ["octo/..#1", undefined, /invalid repository name/],
    [
      "https://github.com/octo/widgets/issues/7",
      undefined,
      /"\/OWNER\/REPO\/pull\/NUMBER"/,
    ],
    [
      "https://gitlab.com/octo/widgets/pull/7",
      undefined,
      /host "gitlab.com" is not the GitHub of the API "https:\/\/api.github.com"/,
    ],
    [
      "https://github.com/octo/widgets/pull/7",
      "https://ghe.example.com/api/v3",
      /set GITHUB_API_URL/,
    ],
    [
      "https://user:pw@github.com/octo/widgets/pull/7",
      undefined,
      /must not carry credentials/,
    ],
    ["ftp://github.com/o/r/pull/1", undefined, /expected "OWNER\/REPO#NUMBER"/],
  ];
  for (const [text, apiUrl, pattern] of cases) {
    await t.step(text, () => {
      assert.throws(
        () => parsePullRequestRef(text, apiUrl === undefined ? {} : { apiUrl }),
        (error) =>
          error instanceof PullRequestRefError && pattern.test(error.message) &&
          error.message.startsWith(
            `Cannot read pull request ${JSON.stringify(text)}: `,
          ),
      );
    });
  }
});
