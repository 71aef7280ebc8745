/**
 * Reading a warm driver's messages while its sandboxed run may end at
 * any time: a message still comes once the run ended if the driver wrote
 * it before, and nothing is waited for after that.
 *
 * @module
 */
import type { SandboxResult } from "../sandbox/sandbox.ts";
import type { DriverChannel } from "./driver_channel.ts";
import { readMessage } from "./warm_driver_messages.ts";

/** A driver's channel and its run. */
export class DriverIo {
  /** The channel the driver talks on. */
  readonly channel: DriverChannel;
  #ended: Promise<"ended">;
  #run: Promise<SandboxResult>;
  #pending: Promise<unknown> | undefined;

  /** Read `channel` while `run` (the driver's sandboxed run) goes. */
  constructor(channel: DriverChannel, run: Promise<SandboxResult>) {
    this.channel = channel;
    this.#run = run;
    this.#ended = run.then(() => "ended" as const, () => "ended" as const);
  }

  /** The next message if it reads as `schema` says; undefined otherwise or once the driver is gone. */
  async receive<T>(
    schema: Parameters<typeof readMessage<T>>[0],
  ): Promise<T | undefined> {
    const next = this.#pending ?? this.channel.next();
    this.#pending = next;
    let value = await Promise.race([next, this.#ended]);
    // Stryker disable next-line ConditionalExpression: a value the channel gave is settled, and the race below gives it back at once
    if (value === "ended") {
      // What it wrote before it ended is still read; nothing more comes.
      let timer: ReturnType<typeof setTimeout> | undefined;
      const gone = new Promise((resolve) => {
        timer = setTimeout(() => resolve(null), 500);
      });
      // Stryker disable next-line ArrowFunction: a timer left to run only settles a race already settled, half a second later
      value = await Promise.race([next, gone]).finally(() =>
        clearTimeout(timer)
      );
      if (value === null) return undefined;
    }
    this.#pending = undefined;
    return readMessage(schema, value);
  }

  /** Wait for the run to end; its failure to run is thrown. */
  async settle(): Promise<SandboxResult> {
    return await this.#run;
  }
}
