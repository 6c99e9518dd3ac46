import { randomFillSync } from 'node:crypto';

/** Random bytes each id takes: 62 bits of its own, and 10 to start the counter of a new millisecond. */
const ID_BYTES = 10;
/** Drawn 256 ids at a time, so an id costs no call into the system's generator of its own. */
const POOL_BYTES = ID_BYTES * 256;

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

let pool = Buffer.alloc(0);
let next = 0;
/** The millisecond and the counter of the last id given, so ids given by this process only ever go up. */
let lastMs = -1;
let counter = 0;
/** The id's first two groups for `lastMs`, written out once per millisecond. */
let prefix = '';

/** Where the next id's random bytes start in `pool`. */
function draw(): number {
  if (next + ID_BYTES > pool.length) {
    pool = randomFillSync(Buffer.allocUnsafe(POOL_BYTES));
    next = 0;
  }
  const start = next;
  next += ID_BYTES;
  return start;
}

function setMs(ms: number): void {
  lastMs = ms;
  const time = ms.toString(16).padStart(12, '0');
  prefix = `${time.slice(0, 8)}-${time.slice(8, 12)}-`;
}

/**
 * A new invocation id: a UUID version 7 (RFC 9562) of the call's creation time in milliseconds, a 12-bit counter
 * after it and 62 random bits. Ids one process gives go up (a clock that steps back, or a fake clock that stands
 * still, goes on from the last id), and ids of several processes stay apart by their random bits.
 *
 * Why not `randomUUID()`: every index keyed by the call's id (the calls, their transitions and results, the audit
 * events by call) then takes each new row at its end instead of at a random place. Random keys dirtied a page of
 * each such index per call, and writing those pages at each commit cost about 50 µs of CPU per call on SQLite (issue
 * 22). The id tells when the call was created, as its record does; it is no secret, since every read of a call
 * checks its tenant.
 */
export function newInvocationId(createdAt: number): string {
  const r = draw();
  const b = pool;
  const byte = (i: number): number => b[r + i] ?? 0;
  const ms = Number.isFinite(createdAt) ? Math.max(0, Math.floor(createdAt)) : 0;
  if (ms > lastMs) {
    // A random start, leaving most of the counter's room for the ids of the same millisecond.
    counter = ((byte(8) << 8) | byte(9)) & 0x3ff;
    setMs(ms);
  } else if (++counter > 0xfff) {
    counter = 0;
    setMs(lastMs + 1);
  }
  const hex = (i: number): string => HEX[byte(i)] ?? '00';
  return (
    `${prefix}${(0x7000 | counter).toString(16)}-` +
    `${HEX[(byte(0) & 0x3f) | 0x80] ?? '80'}${hex(1)}-${hex(2)}${hex(3)}${hex(4)}${hex(5)}${hex(6)}${hex(7)}`
  );
}
