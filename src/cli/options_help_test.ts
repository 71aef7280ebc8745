import assert from "node:assert/strict";
import { optionsHelp } from "./options_help.ts";

Deno.test("optionsHelp() writes one entry per option of the table, in its order, with -h and --help last", () => {
  const text = optionsHelp({
    repo: {
      type: "string",
      doc: { value: "PATH", text: "the repository\nlocal or remote" },
    },
    publish: { type: "boolean", doc: { text: "publish the verdict" } },
    "no-publish": { type: "boolean", doc: { with: "publish" } },
    help: { type: "boolean", short: "h", doc: {} },
  });
  assert.equal(
    text,
    [
      "  --repo PATH              the repository",
      "                           local or remote",
      "  --publish, --no-publish  publish the verdict",
      "  -h, --help               print this usage",
      "",
    ].join("\n"),
  );
});
