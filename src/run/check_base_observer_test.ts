import assert from "node:assert/strict";
import { ObserverNotLoadedError } from "./check_base_observer.ts";

Deno.test("ObserverNotLoadedError names the base, the cause and the pythonpath to set", () => {
  const error = new ObserverNotLoadedError(
    "abc123",
    ["env", "PYTHONPATH=src", "python3", "-m", "pytest"],
    "ImportError: Error importing plugin",
  );
  assert.ok(error.message.startsWith("Cannot judge the pull request: "));
  for (
    const part of [
      "at the base commit abc123 either",
      '"PYTHONPATH=src" replaces the PYTHONPATH',
      '[environment] pythonpath = ["src"]',
      ":\nImportError: Error importing plugin",
    ]
  ) assert.ok(error.message.includes(part), `${part}\n${error.message}`);
  const unknown = new ObserverNotLoadedError("abc123", ["./run-tests"], "");
  assert.ok(unknown.message.includes("do not say why"), unknown.message);
  assert.ok(unknown.message.endsWith("other variables as [environment] env"));
});
