// The side of a bench's server process (a child of the bench): it answers its parent's 'measure' with
// its memory, CPU time and `extra()`, closes on 'stop', and cleans up if the parent goes away.

/** Starts answering the parent, then tells it the server is ready on its port (with `ready`'s fields). */
export function answerParent(app, cleanup, ready, extra = () => ({})) {
  process.on('message', async (m) => {
    if (m === 'measure') {
      const cpu = process.cpuUsage();
      process.send({ rss: process.memoryUsage().rss, cpuUs: cpu.user + cpu.system, ...extra() });
    } else if (m === 'stop') {
      await app.close();
      cleanup();
      process.exit(0);
    }
  });
  process.on('disconnect', () => {
    cleanup();
    process.exit(0);
  });
  process.send({ ready: true, port: app.server.address().port, ...ready });
}
