import { deepEqual, equal, throws } from "node:assert/strict";
import { ContractSyntaxError } from "../contract/contract_syntax_error.ts";
import { readSettings } from "./read_settings.ts";

Deno.test("readSettings() has no setup step unless the base names one", () => {
  equal(readSettings("").environment.setup, undefined);
});

Deno.test("readSettings() reads [environment.setup] with its defaults", () => {
  const s = readSettings(
    '[environment.setup]\ncommand = ["sh", "setup.sh"]\ninputs = ["requirements-dev.txt", "wheels/"]\n',
  );
  deepEqual(s.environment.setup, {
    command: ["sh", "setup.sh"],
    inputs: ["requirements-dev.txt", "wheels/"],
    network: false,
    timeout_seconds: 900,
  });
});

Deno.test("readSettings() names the key and line of a bad setup table", async (t) => {
  const cases: [string, string, string, number][] = [
    [
      "no command",
      '[environment.setup]\ninputs = ["uv.lock"]\n',
      'key "environment.setup.command" at line 1 is missing',
      1,
    ],
    [
      "an input outside the repository",
      '[environment.setup]\ncommand = ["true"]\ninputs = ["../secrets"]\n',
      'key "environment.setup.inputs.0"',
      3,
    ],
    [
      "an absolute input",
      '[environment.setup]\ncommand = ["true"]\ninputs = ["/etc/passwd"]\n',
      'key "environment.setup.inputs.0"',
      3,
    ],
    [
      "network as a string",
      '[environment.setup]\ncommand = ["true"]\nnetwork = "yes"\n',
      'key "environment.setup.network" at line 3 must be true or false',
      3,
    ],
    [
      "an unknown key",
      '[environment.setup]\ncommand = ["true"]\ncache = false\n',
      'unknown key "environment.setup.cache"',
      3,
    ],
  ];
  for (const [name, text, fragment, line] of cases) {
    await t.step(name, () => {
      throws(() => readSettings(text), (e: unknown) => {
        if (!(e instanceof ContractSyntaxError)) return false;
        equal(e.line, line, e.message);
        return e.message.includes(fragment) || assertFail(e.message, fragment);
      });
    });
  }
});

function assertFail(message: string, fragment: string): never {
  throw new Error(`expected ${JSON.stringify(fragment)} in: ${message}`);
}
