/**
 * Turning contract blobs into text: on the base side a problem means pawl
 * cannot decide (throws); on the head side it is a finding and the head is
 * judged against the base copy.
 *
 * @module
 */
import { plural } from "../core/plural.ts";
import { createHash } from "node:crypto";
import { ContractSyntaxError } from "../contract/contract_syntax_error.ts";
import { type Finding, finding } from "../core/finding.ts";
import type { ContractFileRef } from "../core/verdict.ts";
import type { ContractBlob, ContractBlobs, DialectId } from "./dialect.ts";

/**
 * The base copy of a contract file as text, or `undefined` when the base
 * has no such file. Symlinks, directories, oversize files and invalid UTF-8
 * throw `ContractSyntaxError`.
 */
export function baseContractText(
  blobs: ContractBlobs,
  path: string,
): string | undefined {
  const blob = blobs.get(path);
  if (blob === undefined) return undefined;
  const problem = blobProblem(blob);
  if (problem !== undefined) throw new ContractSyntaxError(path, problem);
  return (blob as { text: string }).text;
}

/**
 * The head copy of a contract file as text. `null` when the head removed,
 * symlinked or broke the file (a finding is pushed); `undefined` when
 * neither side has it.
 */
export function headContractText(
  base: ContractBlobs,
  head: ContractBlobs,
  path: string,
  findings: Finding[],
): string | null | undefined {
  const blob = head.get(path);
  if (blob === undefined) {
    if (!base.has(path)) return undefined;
    findings.push(finding(
      "config.contract_removed",
      `The pull request removes the contract file "${path}"; the head is judged against the base copy`,
      { path },
    ));
    return null;
  }
  if (blob.kind === "symlink") {
    findings.push(finding(
      "config.contract_symlink",
      `The pull request turns the contract file "${path}" into a symlink; pawl never follows it and judges against the base copy`,
      { path },
    ));
    return null;
  }
  const problem = blobProblem(blob);
  if (problem !== undefined) {
    findings.push(finding(
      "config.contract_invalid",
      new ContractSyntaxError(path, problem).message,
      { path },
    ));
    return null;
  }
  return (blob as { text: string }).text;
}

/** Record a head-side `ContractSyntaxError` as a `config.contract_invalid` finding. */
export function invalidHeadContract(
  error: ContractSyntaxError,
  findings: Finding[],
): void {
  findings.push(finding("config.contract_invalid", error.message, {
    path: error.path,
    line: error.line,
  }));
}

/** Digest references for the base contract files that exist. */
export function contractFileRefs(
  layout: DialectId,
  base: ContractBlobs,
  paths: readonly string[],
): ContractFileRef[] {
  const out: ContractFileRef[] = [];
  for (const path of paths) {
    const blob = base.get(path);
    if (blob?.kind !== "file") continue;
    out.push({
      path,
      layout,
      sha256: createHash("sha256").update(blob.bytes).digest("hex"),
    });
  }
  return out;
}

function blobProblem(blob: ContractBlob): string | undefined {
  switch (blob.kind) {
    case "symlink":
      return "it is a symlink, which pawl never follows";
    case "other":
      return "it is not a regular file";
    case "oversize":
      return `it is ${
        plural(blob.size, "byte")
      }, over the ${blob.limit}-byte (${
        blob.limit / 1024 / 1024
      } MiB) cap on contract files; refused before parsing`;
    case "file":
      return blob.text === null ? "it is not valid UTF-8" : undefined;
  }
}
