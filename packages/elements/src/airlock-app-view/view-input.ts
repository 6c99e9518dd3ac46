import type { AppBridge } from '@modelcontextprotocol/ext-apps/app-bridge';

type Args = Readonly<Record<string, unknown>>;

/**
 * What a view has been told of its call's input: the whole input once there is one, else the input so far while
 * the model still writes the call (`tool-input-partial`), each value once, so a redraw that hands the element equal
 * arguments in a new object sends the view nothing.
 */
export class ViewInput {
  #sent: string | undefined;

  send(bridge: AppBridge, whole: Args | undefined, partial: Args | undefined): void {
    const args = whole ?? partial;
    if (args === undefined) return;
    const sent = `${whole === undefined ? 'partial' : 'whole'}:${JSON.stringify(args)}`;
    if (sent === this.#sent) return;
    this.#sent = sent;
    if (whole !== undefined) void bridge.sendToolInput({ arguments: { ...whole } });
    else void bridge.sendToolInputPartial({ arguments: { ...args } });
  }

  /** A new bridge (the view started again) has been told nothing yet. */
  reset(): void {
    this.#sent = undefined;
  }
}
