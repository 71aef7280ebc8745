/**
 * GitHub in and out: read a pull request (`--pr` or the Actions event),
 * authenticate git's fetch of its base repository with the token, and
 * publish the verdict as a check run, a commit status and one sticky
 * comment. The REST calls sit behind the small {@linkcode GitHub}
 * interface; {@linkcode createGitHubClient} is its octokit adapter.
 *
 * @module
 */
export * from "./parse_pull_request_ref.ts";
export * from "./pull_request.ts";
export * from "./github_client.ts";
export * from "./fetch_pull_request.ts";
export * from "./read_actions_event.ts";
export * from "./resolve_pull_request.ts";
export * from "./git_auth_env.ts";
export * from "./publish_verdict.ts";
export * from "./client_from_env.ts";
export * from "./pull_request_checkout.ts";
export * from "./open_pull_request.ts";
export * from "./with_token_hint.ts";
export * from "./publish_in_progress.ts";
