import { appendFile, readFile } from 'node:fs/promises';
import { HostError } from '../errors/host-error.js';

/**
 * The chain head at a moment: event `seq` had hash `hash` at time `at`. Kept somewhere the store's writer cannot
 * rewrite (a file outside the data directory), it lets `verify` notice that the newest events were deleted, which the
 * chain alone cannot show: a chain cut short is still a valid chain.
 */
export interface AuditAnchor {
  readonly seq: number;
  readonly hash: string;
  readonly at: number;
}

/** Appends one anchor to an NDJSON file, one line per anchor (the file and its folder must be writable). */
export async function appendAnchor(file: string, anchor: AuditAnchor): Promise<void> {
  await appendFile(file, `${JSON.stringify({ seq: anchor.seq, hash: anchor.hash, at: anchor.at })}\n`, 'utf8');
}

/** Reads an NDJSON anchor file; a line that is not an anchor is refused, naming the file and the line. */
export async function readAnchors(file: string): Promise<AuditAnchor[]> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new HostError('invalid_arguments', `cannot read the anchor file ${file}: ${(error as Error).message}`);
  }
  const anchors: AuditAnchor[] = [];
  text.split('\n').forEach((line, index) => {
    if (line.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      value = undefined;
    }
    const a = value as Partial<AuditAnchor> | undefined;
    if (
      typeof a?.seq !== 'number' ||
      !Number.isInteger(a.seq) ||
      typeof a.hash !== 'string' ||
      typeof a.at !== 'number'
    ) {
      throw new HostError('invalid_arguments', `line ${index + 1} of the anchor file ${file} is not an anchor`);
    }
    anchors.push({ seq: a.seq, hash: a.hash, at: a.at });
  });
  return anchors;
}
