/**
 * What keeps the sandbox serving when clients hold connections: slow and idle connections are closed, and a
 * process out of file descriptors (`EMFILE` on accept) keeps serving the connections it has instead of
 * ending. Without these, 1,000 idle sockets stayed open for ever, and at a limit of 1,024 open files every
 * other client was refused until they went.
 */
import type { Server } from 'node:http';
import type { Socket } from 'node:net';

/** How long the sandbox waits on a client's connection, in milliseconds; tests set small values. */
export interface ConnectionTimeouts {
  /** The request's headers must have arrived within this (a slowloris header is cut); default 10 s. */
  headersMs?: number;
  /** The whole request, body included, must have arrived within this; default 30 s. */
  requestMs?: number;
  /** How long a keep-alive connection waits for the next request; default 5 s. */
  keepAliveMs?: number;
  /**
   * How long a connection may stay silent both ways (one that never sends a request); default 30 s. A
   * connection whose request the sandbox is still answering (a long clock step) is not closed for it.
   */
  idleMs?: number;
}

/** The options of `http.createServer` and `https.createServer` that apply {@link ConnectionTimeouts}. */
export function serverTimeoutOptions(timeouts: ConnectionTimeouts = {}) {
  const requestTimeout = timeouts.requestMs ?? 30_000;
  // Node refuses a header timeout beyond the request's.
  const headersTimeout = Math.min(timeouts.headersMs ?? 10_000, requestTimeout);
  return {
    headersTimeout,
    requestTimeout,
    keepAliveTimeout: timeouts.keepAliveMs ?? 5_000,
    // How often Node looks for requests past those timeouts: often enough to keep them roughly.
    connectionsCheckingInterval: Math.max(10, Math.min(1_000, Math.floor(headersTimeout / 4))),
  };
}

/**
 * Closes connections silent for `idleMs` unless a request on them is being answered, and keeps the server
 * up when accepting fails (out of file descriptors): Node reports that as the server's `error`, which would
 * otherwise end the process. Call it once the server listens.
 */
export function guardConnections(server: Server, timeouts: ConnectionTimeouts = {}): void {
  const answering = new Map<Socket, number>();
  server.on('request', (req, res) => {
    const socket = req.socket;
    answering.set(socket, (answering.get(socket) ?? 0) + 1);
    res.once('close', () => {
      const left = (answering.get(socket) ?? 1) - 1;
      if (left === 0) answering.delete(socket);
      else answering.set(socket, left);
    });
  });
  server.setTimeout(timeouts.idleMs ?? 30_000, (socket: Socket) => {
    // A listener replaces Node's own closing: the sandbox's slow answer is not the client's idleness.
    if (!answering.has(socket)) socket.destroy();
  });
  let reported = false;
  server.on('error', (error: NodeJS.ErrnoException) => {
    // Accepting failed (EMFILE, ENFILE): the connection was refused; the others are served on. Said once
    // per spell, not per refused connection.
    if (reported) return;
    console.error(
      `svc-sandbox: a connection could not be accepted (${error.code ?? error.message}); serving the open ones`,
    );
    reported = true;
    setTimeout(() => {
      reported = false;
    }, 10_000).unref();
  });
}
