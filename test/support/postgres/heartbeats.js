// Time passing for an instance's heartbeat: heartbeats are written on the database's clock, which a test cannot
// move, so it makes a heartbeat older instead (as if the instance had been silent that long).
import pg from 'pg';

/** Makes `instanceId`'s last heartbeat `byMs` older on the database at `url`; resolves with its new time. */
export async function ageHeartbeat(url, instanceId, byMs) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query(
      'UPDATE instances SET heartbeat_at = heartbeat_at - $2 WHERE id = $1 RETURNING heartbeat_at',
      [instanceId, byMs],
    );
    if (rows.length !== 1) throw new Error(`no heartbeat of instance ${instanceId} to age`);
    return Number(rows[0].heartbeat_at);
  } finally {
    await client.end();
  }
}

/** Makes every instance's last heartbeat `byMs` older (for instances whose ids a test does not know). */
export async function ageAllHeartbeats(url, byMs) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('UPDATE instances SET heartbeat_at = heartbeat_at - $1', [byMs]);
  } finally {
    await client.end();
  }
}
