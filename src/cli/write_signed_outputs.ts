/**
 * The signed outputs of `pawl check`: the verdict statement (`--out-signed`)
 * and the in-toto test-result statement (`--out-test-result`), each in its
 * own DSSE envelope signed with the same key.
 *
 * @module
 */
import type { Verdict } from "../core/verdict.ts";
import { signTestResult } from "../sign/sign_test_result.ts";
import { signVerdict } from "../sign/sign_verdict.ts";
import type { SigningKey } from "../sign/signing_key.ts";
import { writeOutputFile } from "./write_output_file.ts";

/** Where {@linkcode writeSignedOutputs} writes. */
export interface SignedOutputPaths {
  /** The verdict statement (`https://pawl.dev/verdict/v1`). */
  verdict?: string | undefined;
  /** The test-result statement (`https://in-toto.io/attestation/test-result/v0.1`). */
  testResult?: string | undefined;
}

/** Sign and write each envelope asked for. */
export async function writeSignedOutputs(
  verdict: Verdict,
  key: SigningKey,
  paths: SignedOutputPaths,
): Promise<void> {
  if (paths.verdict !== undefined) {
    const envelope = await signVerdict(verdict, key);
    await writeOutputFile(
      paths.verdict,
      JSON.stringify(envelope, null, 2) + "\n",
    );
  }
  if (paths.testResult !== undefined) {
    const envelope = await signTestResult(verdict, key);
    await writeOutputFile(
      paths.testResult,
      JSON.stringify(envelope, null, 2) + "\n",
    );
  }
}
