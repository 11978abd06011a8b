/** The HTTP listener of `ensign server`, with a graceful, bounded shutdown. */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/** A listening server that can be stopped gracefully. */
export interface RunningServer {
  /** `http://host:port` as clients reach it. */
  readonly address: string;
  /**
   * Stops accepting connections and waits for in-flight requests; after `timeoutMs` the remaining
   * connections are closed. Resolves `true` when everything finished in time.
   */
  shutdown(timeoutMs: number): Promise<boolean>;
}

/** Listens on `host:port`; rejects with the listen error (for example `EADDRINUSE`). */
export async function listen(handler: Handler, options: { host: string; port: number }): Promise<RunningServer> {
  const inFlight = new Set<ServerResponse>();
  let closing = false;

  const server = createServer((req, res) => {
    inFlight.add(res);
    // A response finished while shutting down leaves a keep-alive socket behind; close it.
    res.once('close', () => {
      inFlight.delete(res);
      if (closing) setImmediate(() => server.closeIdleConnections());
    });
    if (closing) res.setHeader('Connection', 'close');
    handler(req, res);
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });

  const { port } = server.address() as AddressInfo;
  const host = options.host.includes(':') ? `[${options.host}]` : options.host;

  return {
    address: `http://${host}:${port}`,
    async shutdown(timeoutMs) {
      closing = true;
      for (const res of inFlight) if (!res.headersSent) res.setHeader('Connection', 'close');
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      let inTime = true;
      const timer = setTimeout(() => {
        inTime = false;
        server.closeAllConnections();
      }, timeoutMs);
      await closed;
      clearTimeout(timer);
      return inTime;
    },
  };
}
