import type { ToolProgress } from '@airlock/core';
import { progressLine } from './terminal-card.js';

/** Characters of the bar itself. */
const WIDTH = 24;

/**
 * Progress of a long call. In a terminal one line is redrawn in place (a bar when the server gives a total, the count
 * otherwise); anywhere else (a pipe, a file, CI) each report is a plain line, since a carriage return there would
 * leave a mess. Anything else written to the same stream goes through `line`, which first ends the bar's line.
 */
export class ProgressDisplay {
  #open = false;

  constructor(
    private readonly out: NodeJS.WritableStream,
    private readonly inPlace: boolean,
  ) {}

  /** Shows one progress report. */
  update(progress: ToolProgress): void {
    if (!this.inPlace) {
      this.out.write(`${progressLine(progress)}\n`);
      return;
    }
    // \r back to the start, ESC[2K clears the old line (a shorter message must not leave a tail).
    this.out.write(`\r\u001b[2K${progressBar(progress)}`);
    this.#open = true;
  }

  /** Writes a whole line, after ending the bar's line if one is showing. */
  line(text: string): void {
    this.end();
    this.out.write(`${text}\n`);
  }

  /** Ends the bar's line (the last state stays on screen). */
  end(): void {
    if (!this.#open) return;
    this.out.write('\n');
    this.#open = false;
  }
}

/** One frame of the bar: `  [#########---------------]  3/8  37%  message`, or the count when there is no total. */
export function progressBar(progress: ToolProgress): string {
  const message = progress.message === undefined ? '' : `  ${progress.message}`;
  const { total } = progress;
  if (total === undefined || !(total > 0)) return `  progress ${progress.progress}${message}`;
  const ratio = Math.min(1, Math.max(0, progress.progress / total));
  const filled = Math.round(ratio * WIDTH);
  const bar = `${'#'.repeat(filled)}${'-'.repeat(WIDTH - filled)}`;
  return `  [${bar}]  ${progress.progress}/${total}  ${Math.round(ratio * 100)}%${message}`;
}
