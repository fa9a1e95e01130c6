import { PLAYER_PATHS, PRODUCT_NAME } from '@tlprt/contract';
import { type App, buildApp } from './app.js';
import { type Config, ConfigError, loadConfig } from './config.js';
import { DEMO_ACCOUNTS, DEMO_PLAYER_KEY, demoPlayerKeyHash, seedDemo } from './demo/seed.js';
import { startDemoTraffic } from './demo/traffic.js';

function banner(config: Config, app: App, url: string, demoKey: string | undefined): string {
  const lines = [
    '',
    `  ${PRODUCT_NAME} is running`,
    `  Open:       ${url}`,
    `  API docs:   ${url}/api/docs`,
    `  Database:   ${config.database.kind === 'sqlite' ? `SQLite ${config.database.path}` : 'PostgreSQL'}`,
    `  E-mails:    ${app.ctx.mailer.description}`,
  ];
  if (config.demoSeed) {
    lines.push(
      `  Demo:       ${DEMO_ACCOUNTS.demo.email} / ${DEMO_ACCOUNTS.demo.password}`,
      `  Supervisor: ${DEMO_ACCOUNTS.supervisor.email} / ${DEMO_ACCOUNTS.supervisor.password}`,
    );
    if (demoKey && config.demoPages) {
      lines.push(`  Player:     ${url}${PLAYER_PATHS.demo}?key=${demoKey}  (open it in two tabs: real P2P)`);
    }
  }
  return `${lines.join('\n')}\n`;
}

async function main(): Promise<void> {
  let config: Config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(1);
    }
    throw err;
  }

  const app = await buildApp(config);
  if (config.demoSeed) {
    await seedDemo(app.ctx);
    await startDemoTraffic(app, DEMO_ACCOUNTS.demo.email, 'Demo Video Co', DEMO_PLAYER_KEY);
  }

  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    // A stuck close must not keep the process alive forever (app.ts cuts every socket at a quarter of
    // the deadline, so the final flush normally has the rest of it).
    setTimeout(() => process.exit(1), config.shutdownTimeoutMs).unref();
    app.close().then(
      () => process.exit(0),
      (err: unknown) => {
        app.log.error({ err }, 'error while shutting down');
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));

  await app.listen({ port: config.port, host: config.host });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const host = config.host === '0.0.0.0' || config.host === '127.0.0.1' ? 'localhost' : config.host;
  const demoKey = config.demoSeed ? await demoPlayerKeyHash(app.ctx) : undefined;
  process.stdout.write(banner(config, app, `http://${host}:${port}`, demoKey));
}

main().catch((err: unknown) => {
  process.stderr.write(`The server could not start: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
