/** The HTTP listener of `ensign server` and `ensign evaluator` (HTTPS given a certificate), with a graceful, bounded shutdown. */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';

const ANSWERING = Symbol('answering');
type Answering = Socket & { [ANSWERING]?: ServerResponse };

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

const KEEP_ALIVE_MS = 65_000;

/** A listening server that can be stopped gracefully. */
export interface RunningServer {
  /** `http://host:port` (`https://` over TLS) as clients reach it. */
  readonly address: string;
  /**
   * Stops accepting connections and waits for in-flight requests; after `timeoutMs` the remaining
   * connections are closed. Resolves `true` when everything finished in time.
   */
  shutdown(timeoutMs: number): Promise<boolean>;
}

/** The certificate chain and private key (PEM) of an HTTPS listener. */
export interface TlsFiles {
  cert: Buffer;
  key: Buffer;
}

/** Listens on `host:port`, over TLS when `tls` is given; rejects with the listen error (for example `EADDRINUSE`). */
export async function listen(handler: Handler, options: { host: string; port: number; tls?: TlsFiles }): Promise<RunningServer> {
  // The response each connection is answering, kept without a listener per request: shutdown marks
  // the unanswered ones Connection: close. Connections are tracked once each, not per request.
  const connections = new Set<Socket>();
  let closing = false;

  const onRequest = (req: IncomingMessage, res: ServerResponse): void => {
    (req.socket as Answering)[ANSWERING] = res;
    if (closing) res.setHeader('Connection', 'close');
    handler(req, res);
  };
  const server = options.tls === undefined ? createServer(onRequest) : createHttpsServer({ cert: options.tls.cert, key: options.tls.key }, onRequest);
  // An idle connection is kept past the 60 s idle timeout of the usual load balancers, so the
  // balancer (or a client pool) closes it first and never sends a request into a socket being
  // closed here (Node's 5 s default races them). Headers must keep arriving within a longer time.
  server.keepAliveTimeout = KEEP_ALIVE_MS;
  server.headersTimeout = KEEP_ALIVE_MS + 1_000;
  server.on(options.tls === undefined ? 'connection' : 'secureConnection', (socket: Socket) => {
    connections.add(socket);
    socket.once('close', () => connections.delete(socket));
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
    address: `${options.tls === undefined ? 'http' : 'https'}://${host}:${port}`,
    async shutdown(timeoutMs) {
      closing = true;
      for (const socket of connections) {
        const res = (socket as Answering)[ANSWERING];
        if (res !== undefined && !res.headersSent) res.setHeader('Connection', 'close');
      }
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      // A connection whose answer was already under way when shutdown began goes idle later.
      const sweep = setInterval(() => server.closeIdleConnections(), 50);
      let inTime = true;
      const timer = setTimeout(() => {
        inTime = false;
        server.closeAllConnections();
      }, timeoutMs);
      await closed;
      clearInterval(sweep);
      clearTimeout(timer);
      return inTime;
    },
  };
}
