// Types of heartbeats.js.

/** Makes `instanceId`'s last heartbeat `byMs` older on the database at `url`; resolves with its new time. */
export function ageHeartbeat(url: string, instanceId: string, byMs: number): Promise<number>;

/** Makes every instance's last heartbeat `byMs` older (for instances whose ids a test does not know). */
export function ageAllHeartbeats(url: string, byMs: number): Promise<void>;
