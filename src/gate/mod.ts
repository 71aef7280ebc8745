/**
 * The gate: judging one pull request as a short pipeline of stages over
 * ports. {@linkcode judgePullRequest} takes the options (what to judge and
 * how) and the ports (repository access, a sandbox factory, a workspace
 * for temp dirs, progress) and returns the verdict with its seed-ledger
 * rows. {@linkcode realGatePorts} gives the ports of this machine; tests
 * pass `FakeGit`, `FakeSandbox` and {@linkcode FakeWorkspace} instead.
 * `outputs/` writes a judgement wherever it goes (files, the signed
 * envelope, GitHub). A command or a service calls these; nothing here reads
 * a command line.
 *
 * @module
 */
export * from "./judge_pull_request.ts";
export * from "./judge_options.ts";
export * from "./gate_ports.ts";
export * from "./real_gate_ports.ts";
export * from "./temp_workspace.ts";
export * from "./fake_workspace.ts";
export * from "./no_contract_error.ts";
export * from "./outputs/mod.ts";
