// A ClickHouse server of the tests' own (docs/DESIGN.md §9), never a system service: Debian's
// clickhouse-server run as whoever runs the tests, with a config of its own in a temporary folder, on free
// loopback ports, stopped and removed at the end. Used by scripts/test.mjs for the server-clickhouse suite.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { get } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const SERVER = '/usr/sbin/clickhouse-server';
/** How long the server may take to answer its ping (18.16 answers within a second here; a loaded CI is slower). */
const START_TIMEOUT_MS = 60_000;
/** How long SIGTERM may take before SIGKILL. */
const STOP_TIMEOUT_MS = 5_000;

/** Distinct free ports on 127.0.0.1, each held until all are chosen so none is picked twice. */
async function freePorts(n) {
  const servers = [];
  const ports = [];
  for (let i = 0; i < n; i++) {
    const s = createServer();
    await new Promise((resolve, reject) => {
      s.once('error', reject);
      s.listen(0, '127.0.0.1', resolve);
    });
    servers.push(s);
    ports.push(s.address().port);
  }
  await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
  return ports;
}

/** The server's config: loopback only, everything inside `dir`, small caches (the tests' tables are
 *  tiny), UTC so that month partitions and minute buckets do not depend on the machine's zone. No
 *  interserver port (no replicas), which 18.16 opens only when the config names one. */
const configXml = (dir, http, tcp) => `<?xml version="1.0"?>
<yandex>
  <logger>
    <level>warning</level>
    <log>${dir}/server.log</log>
    <errorlog>${dir}/err.log</errorlog>
    <size>10M</size>
    <count>1</count>
    <console>0</console>
  </logger>
  <listen_host>127.0.0.1</listen_host>
  <http_port>${http}</http_port>
  <tcp_port>${tcp}</tcp_port>
  <path>${dir}/data/</path>
  <tmp_path>${dir}/tmp/</tmp_path>
  <user_files_path>${dir}/user_files/</user_files_path>
  <format_schema_path>${dir}/format_schemas/</format_schema_path>
  <users_config>users.xml</users_config>
  <default_profile>default</default_profile>
  <default_database>default</default_database>
  <timezone>UTC</timezone>
  <mark_cache_size>5368709</mark_cache_size>
  <uncompressed_cache_size>8589934</uncompressed_cache_size>
  <max_concurrent_queries>100</max_concurrent_queries>
</yandex>
`;

/** One user, `default`, without a password, from loopback only; a query may take 1 GB at most. */
const usersXml = `<?xml version="1.0"?>
<yandex>
  <profiles><default><max_memory_usage>1000000000</max_memory_usage></default></profiles>
  <users>
    <default>
      <password></password>
      <networks><ip>127.0.0.1</ip><ip>::1</ip></networks>
      <profile>default</profile>
      <quota>default</quota>
    </default>
  </users>
  <quotas><default></default></quotas>
</yandex>
`;

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** The ping's answer ('' on any error), over a connection of its own that is closed at once: a kept-alive
 *  one (fetch's) held the server's stop for 8 s, as it waits for open connections. */
const ping = (url) =>
  new Promise((resolve) => {
    const req = get(url, { agent: false, timeout: 2_000 }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d) => {
        body += d;
      });
      res.on('end', () => resolve(body.trim()));
      res.on('error', () => resolve(''));
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(''));
  });

/**
 * Starts a ClickHouse server and answers `{ url, stop() }` once it answers its ping: `url` is its HTTP
 * interface without a database (http://127.0.0.1:<port>). TEST_CLICKHOUSE_URL, when set, names a running
 * server to use instead (nothing is started or stopped). Answers undefined when clickhouse-server is not
 * installed; throws, with the end of its error log, when it does not start.
 */
export async function startClickHouse() {
  if (process.env.TEST_CLICKHOUSE_URL) return { url: process.env.TEST_CLICKHOUSE_URL, stop() {} };
  if (!existsSync(SERVER)) return undefined;
  // A server that exits at once most likely lost one of its ports to another process since freePorts
  // closed it: new ports, new try.
  for (let attempt = 1; ; attempt++) {
    const { server, exited, log } = await launch();
    if (server) return server;
    if (!exited || attempt === 3)
      throw new Error(
        `clickhouse-server ${exited ? 'exited' : `did not answer within ${START_TIMEOUT_MS / 1000} s`}\n${log}`,
      );
  }
}

/** One start in a new folder: `{ server }` once it answers, else `{ exited, log }` (stopped, removed). */
async function launch() {
  const dir = mkdtempSync(join(tmpdir(), 'clickhouse-'));
  for (const sub of ['data', 'tmp', 'user_files', 'format_schemas']) mkdirSync(join(dir, sub));
  const [http, tcp] = await freePorts(2);
  writeFileSync(join(dir, 'config.xml'), configXml(dir, http, tcp));
  writeFileSync(join(dir, 'users.xml'), usersXml);
  // In the tests' process group (a Ctrl-C stops it too), its output in its log files; unref'd so that a
  // forgotten stop() never keeps Node alive, and killed on exit in any case.
  const child = spawn(SERVER, [`--config-file=${join(dir, 'config.xml')}`], {
    cwd: dir,
    stdio: 'ignore',
  });
  child.unref();
  let exited = false;
  const done = new Promise((resolve) => {
    child.once('exit', resolve);
    child.once('error', resolve); // not started (not executable)
  }).then(() => {
    exited = true;
  });
  const onExit = () => {
    if (!exited) child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  };
  process.once('exit', onExit);

  const server = {
    url: `http://127.0.0.1:${http}`,
    async stop() {
      process.removeListener('exit', onExit);
      if (!exited) {
        child.ref(); // Node waits for its exit, awaited or not
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
        await done;
        clearTimeout(timer);
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };

  const deadline = Date.now() + START_TIMEOUT_MS;
  while (!exited && Date.now() < deadline) {
    if ((await ping(`${server.url}/ping`)) === 'Ok.') return { server };
    await sleep(100);
  }
  const errors = join(dir, 'err.log');
  const log = existsSync(errors) ? readFileSync(errors, 'utf8').split('\n').slice(-20).join('\n') : '';
  const failed = { exited, log };
  await server.stop();
  return failed;
}
