// A real PostgreSQL server for the tests and the bench: a throwaway cluster in a temporary directory, listening only
// on a unix socket there, removed by stop(). Debian's server binaries refuse to run as root, so when the tests run as
// root the cluster runs as an unprivileged user (the `postgres` account Debian's package creates, else `airlock-pg`,
// created here). `scripts/provision-test-deps.sh` (npm test's pretest) installs the binaries on a fresh machine.
// Plain JavaScript (types in postgres-server.d.ts), so that `npm run bench` runs it on Node as well as the tests.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

/** Where Debian puts each installed major version's server binaries. */
const DEBIAN_ROOT = '/usr/lib/postgresql';

/** The user every test connects as; the cluster trusts local connections, so it needs no password. */
const SUPERUSER = 'airlock';

/** The newest installed server's bin directory: AIRLOCK_PG_BIN, else /usr/lib/postgresql/<newest>/bin. */
export function findPostgresBin(env = process.env) {
  const given = env['AIRLOCK_PG_BIN'];
  if (given !== undefined && given !== '') {
    if (!existsSync(join(given, 'initdb'))) throw new Error(`AIRLOCK_PG_BIN=${given} holds no initdb`);
    return { bin: given, version: 0 };
  }
  const versions = existsSync(DEBIAN_ROOT)
    ? readdirSync(DEBIAN_ROOT)
        .filter((v) => /^\d+$/.test(v) && existsSync(join(DEBIAN_ROOT, v, 'bin', 'initdb')))
        .map(Number)
        .sort((a, b) => b - a)
    : [];
  const newest = versions[0];
  if (newest === undefined) {
    throw new Error(
      `the PostgreSQL tests need a PostgreSQL server: no ${DEBIAN_ROOT}/*/bin/initdb on this machine. ` +
        'Run `bash scripts/provision-test-deps.sh` (npm test runs it first), or `apt-get install postgresql`, ' +
        'or set AIRLOCK_PG_BIN to a directory holding initdb and postgres.',
    );
  }
  return { bin: join(DEBIAN_ROOT, String(newest), 'bin'), version: newest };
}

function idOf(user, flag) {
  const found = spawnSync('id', [flag, user], { encoding: 'utf8' });
  return found.status === 0 ? Number(found.stdout.trim()) : undefined;
}

/** Who runs the server: ourselves when not root; else `postgres`, else `airlock-pg` (created when missing). */
function serverAccount() {
  if (process.getuid?.() !== 0) return undefined;
  for (const user of ['postgres', 'airlock-pg']) {
    const uid = idOf(user, '-u');
    const gid = idOf(user, '-g');
    if (uid !== undefined && gid !== undefined) return { uid, gid };
  }
  try {
    execFileSync('useradd', ['--system', '--no-create-home', '--shell', '/usr/sbin/nologin', 'airlock-pg'], {
      stdio: 'pipe',
    });
  } catch (error) {
    throw new Error(
      `PostgreSQL will not run as root and no unprivileged account could be made (useradd airlock-pg failed: ${
        error.message
      }); create a user named postgres or airlock-pg`,
      { cause: error },
    );
  }
  const uid = idOf('airlock-pg', '-u');
  const gid = idOf('airlock-pg', '-g');
  if (uid === undefined || gid === undefined) throw new Error('useradd airlock-pg made no account');
  return { uid, gid };
}

/** Resolves once the server logs that it accepts connections; rejects with its log when it exits first. */
function whenReady(server) {
  return new Promise((resolve, reject) => {
    let log = '';
    const onData = (chunk) => {
      log += chunk.toString('utf8');
      if (log.includes('ready to accept connections')) {
        server.stderr?.off('data', onData);
        server.off('exit', onExit);
        server.stderr?.resume();
        resolve();
      }
    };
    const onExit = (code, signal) =>
      reject(new Error(`postgres exited (${code ?? signal}) before it was ready:\n${log}`));
    server.stderr?.on('data', onData);
    server.once('exit', onExit);
  });
}

let databases = 0;

/**
 * Starts a throwaway cluster: initdb into a fresh temporary directory (owned by the server's account), then the
 * server on a unix socket in that directory, no TCP. `fsync: false` (the tests' default) trades crash safety of the
 * throwaway cluster for speed; the bench keeps it on.
 */
export async function startPostgres(options = {}) {
  const { bin, version } = findPostgresBin();
  const account = serverAccount();
  const dir = mkdtempSync(join(tmpdir(), 'airlock-pg-'));
  const data = join(dir, 'data');
  const port = 5432;
  const as = account === undefined ? {} : { uid: account.uid, gid: account.gid };
  if (account !== undefined) chownSync(dir, account.uid, account.gid);
  const init = spawnSync(
    join(bin, 'initdb'),
    ['-D', data, '-U', SUPERUSER, '--auth=trust', '-E', 'UTF8', '--no-locale', '--no-sync'],
    { ...as, encoding: 'utf8', cwd: dir },
  );
  if (init.status !== 0) {
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`initdb failed (${init.status ?? init.signal}): ${init.stderr || init.error?.message}`);
  }
  const settings = [
    ['listen_addresses', ''],
    ['unix_socket_directories', dir],
    ['port', String(port)],
    ['fsync', options.fsync === false || options.fsync === undefined ? 'off' : 'on'],
    ['max_connections', '200'],
  ];
  const server = spawn(join(bin, 'postgres'), ['-D', data, ...settings.flatMap(([k, v]) => ['-c', `${k}=${v}`])], {
    ...as,
    cwd: dir,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  // A test process that ends without stop() still takes its server down with it.
  const killOnExit = () => server.kill('SIGKILL');
  process.once('exit', killOnExit);
  try {
    await whenReady(server);
  } catch (error) {
    process.off('exit', killOnExit);
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  const url = (database) =>
    `postgresql://${SUPERUSER}@localhost/${encodeURIComponent(database)}?host=${encodeURIComponent(dir)}&port=${port}`;
  let stopped;
  let shared;
  let schemas = 0;
  return {
    socketDir: dir,
    port,
    pid: server.pid,
    version,
    url,
    async createDatabase(name = `test_${process.pid}_${++databases}`) {
      const client = new pg.Client({ connectionString: url('postgres') });
      await client.connect();
      try {
        await client.query(`CREATE DATABASE "${name.replaceAll('"', '""')}"`);
      } finally {
        await client.end();
      }
      return url(name);
    },
    async createSchema() {
      // One database holds the schemas: a schema costs a few catalog rows, where a database copies its template's
      // files (megabytes each, for every case of the contract suite).
      shared ??= this.createDatabase(`schemas_${process.pid}`);
      const base = await shared;
      const name = `s_${++schemas}`;
      const client = new pg.Client({ connectionString: base });
      await client.connect();
      try {
        await client.query(`CREATE SCHEMA ${name}`);
      } finally {
        await client.end();
      }
      return `${base}&options=${encodeURIComponent(`-c search_path=${name}`)}`;
    },
    stop() {
      stopped ??= new Promise((resolve, reject) => {
        process.off('exit', killOnExit);
        let hard;
        const done = () => {
          clearTimeout(hard);
          try {
            // Retried: a server process still exiting may write into the directory a moment longer.
            rmSync(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 50 });
            resolve();
          } catch (error) {
            reject(error);
          }
        };
        if (server.exitCode !== null || server.signalCode !== null) return done();
        server.once('exit', done);
        // Immediate shutdown: the cluster is thrown away, nothing needs a checkpoint. A server that has not gone
        // after 10 s (a machine under heavy load) is killed outright.
        server.kill('SIGQUIT');
        hard = setTimeout(() => server.kill('SIGKILL'), 10_000);
      });
      return stopped;
    },
  };
}
