import assert from "node:assert/strict";
import { actionCommandLine, ActionInputError } from "./action_command_line.ts";

Deno.test("actionCommandLine() asks check for the mutation report only when the input says so", async (t) => {
  await t.step("off by default", () => {
    const line = actionCommandLine({ INPUT_NOW: "" });
    assert.equal(line.args.includes("--mutation-report"), false);
    assert.equal(line.files.mutationReport, undefined);
  });
  await t.step("on: a file in out_dir, and an output", () => {
    const line = actionCommandLine({
      INPUT_MUTATION_REPORT: "true",
      INPUT_OUT_DIR: "out/",
    });
    const at = line.args.indexOf("--mutation-report");
    assert.equal(line.args[at + 1], "out/mutation-report.json");
    assert.equal(line.files.mutationReport, "out/mutation-report.json");
  });
  await t.step("diff runs no mutants: refused, naming the inputs", () => {
    assert.throws(
      () =>
        actionCommandLine({
          INPUT_COMMAND: "diff",
          INPUT_MUTATION_REPORT: "true",
        }),
      (error: unknown) =>
        error instanceof ActionInputError &&
        /^Cannot use input "mutation_report" = "true" with "command" = "diff"/
          .test(error.message),
    );
  });
  await t.step("a value that is not a boolean is refused", () => {
    assert.throws(
      () => actionCommandLine({ INPUT_MUTATION_REPORT: "yes" }),
      ActionInputError,
    );
  });
});
