/**
 * Assembles the sandbox gateway: config, state, the service's keys, the delivery queue and the HTTP routes.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  checkOptions,
  isFunction,
  isStringList,
  isText,
  type OptionRules,
  optional,
  signBodyAsync,
} from '../server/for-sandbox.js';
import { signBody } from '../server/index.js';
import { TestAcquirer } from './acquirer.js';
import { type SandboxClock, SandboxClocks } from './clock.js';
import { mountClockControl } from './clock-control.js';
import {
  checkAllowedOrigins,
  demoConfig,
  ensureDemoMerchantKeys,
  isCheckedConfig,
  loadConfig,
  parseConfig,
  type SandboxConfig,
  type SandboxConfigFile,
  withAllowedOrigins,
} from './config.js';
import { type ConnectionTimeouts, guardConnections, serverTimeoutOptions } from './connection-limits.js';
import { createDeliveryQueue, createHttpSend, type Delivery, type DeliveryQueue } from './delivery-queue.js';
import { Router, refuseConnect, sendJson } from './http.js';
import { mountLegacyApi } from './legacy/api.js';
import { mountObserveRoutes } from './observe-routes.js';
import { sandboxMerchantAuth } from './sandbox-auth.js';
import { Channel, deliveryEntry, requestEntry, SandboxLog, type SandboxLogEntry } from './sandbox-log.js';
import { loadOrCreateServiceKeys } from './service-keys.js';
import { openStore, type Store, type StoreWarning } from './store.js';
import { mountTestHelperRoutes } from './test-helpers/routes.js';
import { createTestHelpers, type TestHelpers } from './test-helpers/test-helpers.js';
import { loadOrCreateTlsCertificate, tlsNamesFor } from './tls-certificate.js';
import { mountV1Api } from './v1/api.js';
import { loadOrCreateCompanyKeys } from './v1/company-keys.js';

export interface SandboxOptions {
  /** Port to listen on; 0 picks a free one. Default 4010. */
  port?: number;
  /** Interface to listen on. Default 127.0.0.1. */
  host?: string;
  /**
   * The config: an object in the file's shape (`{ merchants: [...] }`, checked as the file is; relative
   * `pemFile`s start at the working directory), one from `parseConfig` or `loadConfig`, or the path of a
   * config JSON file. Without it, a demo merchant is created.
   */
  config?: SandboxConfigFile | SandboxConfig | string;
  /**
   * Page origins added to every merchant's `allowedOrigins` (the CLI's `--allow-origin`), such as
   * `http://localhost:3000`.
   */
  allowOrigins?: string[];
  /**
   * Where state and keys live; state survives a restart only with a data dir. Without it, keys go to a new
   * temporary folder that {@link Sandbox.close} removes.
   */
  dataDir?: string;
  /**
   * Serve HTTPS with a self-signed certificate for `localhost`, `127.0.0.1`, `::1` and `host`, made on first
   * use and kept in the data dir (`tls/certificate.pem`, {@link Sandbox.tlsCertificateFile}). Default false.
   */
  https?: boolean;
  /**
   * Real time, for tests that fix it. A merchant's clock, which its time rules read, is this plus how far it
   * was advanced ({@link Sandbox.clockFor}).
   */
  now?: () => Date;
  /**
   * Without `config`: the origin of the shop the demo merchant runs on (its page origin and callback URLs).
   * Default `http://localhost:5173`, the demo shop's.
   */
  demoShopOrigin?: string;
  /** Where built browser files (widget script, frame) are served from. Default: the package's `dist/browser`. */
  browserRoot?: string;
  /** How long slow and idle client connections are kept; see {@link ConnectionTimeouts} for the defaults. */
  connectionTimeouts?: ConnectionTimeouts;
  /** Hears each log entry ({@link Sandbox.log}): requests, delivery attempts, signature mismatches. */
  onLog?: (entry: SandboxLogEntry) => void;
}

/**
 * What starting on the data dir repaired, for the caller to report: a journal record torn by a crash while it
 * was written, cut off (the file, its line and the bytes dropped). Damage that would lose acknowledged
 * changes refuses to start instead, with an error naming the file and line.
 */
export type SandboxWarning = StoreWarning;

export interface Sandbox {
  /** The base URL, such as `http://127.0.0.1:4010` (`https://` with the `https` option). */
  url: string;
  port: number;
  config: SandboxConfig;
  /** Where keys live (and state, when the sandbox was given a data dir). */
  keyDir: string;
  /** The sandbox's certificate: merchants check `X-Svc-Signature` with it. */
  serviceCertificatePem: string;
  /** With the `https` option: the TLS certificate's file, for clients to trust (`NODE_EXTRA_CA_CERTS`). */
  tlsCertificateFile?: string;
  /** The demo merchant's private key, when the sandbox created the demo merchant. */
  demoMerchant?: { privateKeyPem: string; privateKeyFile: string };
  /**
   * Every merchant's clock at once: `advance(ms)` moves each merchant's time rules forward; `step(ms)` also
   * makes the delivery attempts that fall due on the way and resolves once they are done. `now()` is the
   * first merchant's time (the demo merchant's without a config). To move one merchant's time only, as
   * `POST /sandbox/v1/clock` does, use {@link clockFor}.
   */
  clock: Pick<SandboxClocks, 'now' | 'advance' | 'step'>;
  /**
   * One merchant's clock: its `advance(ms)` and `step(ms)` move that merchant's time only (its Purchases,
   * billing, statements, slow acquirer, deliveries' retries); other merchants' tests are not disturbed.
   * @throws RangeError for a merchant id that is not in the config.
   */
  clockFor(merchantId: string): Pick<SandboxClock, 'now' | 'advance' | 'step'>;
  /**
   * What the sandbox does, as typed entries: `log.subscribe(listener)` or `for await (const entry of
   * log.entries())`. Entries are made only while somebody listens.
   */
  log: SandboxLog;
  /** What starting repaired in the data dir (the CLI prints these); empty as a rule. */
  warnings: readonly SandboxWarning[];
  /**
   * Sandbox only: pay a legacy order or a v1 Purchase headlessly, fire v1 events (README, "Test helpers").
   * The same over HTTP under `/sandbox/test-helpers/`.
   */
  testHelpers: TestHelpers;
  /**
   * Stops listening and waits for deliveries in flight; pending ones resume at the next start on the same data
   * dir. Without a data dir, also removes the temporary folder of keys ({@link Sandbox.keyDir}).
   */
  close(): Promise<void>;
}

const packageRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

const isObject = (value: unknown): boolean => typeof value === 'object' && value !== null;

const SANDBOX_OPTIONS: OptionRules<SandboxOptions> = {
  port: optional(
    'a port number from 0 to 65535',
    (value) => Number.isInteger(value) && (value as number) >= 0 && (value as number) <= 65535,
  ),
  host: optional('an address such as 127.0.0.1', isText),
  config: optional(
    "a config object ({ merchants: [...] }, as in the file) or a config file's path",
    (value) => isText(value) || (isObject(value) && !Array.isArray(value)),
  ),
  allowOrigins: optional('a list of origins such as ["http://localhost:3000"]', isStringList),
  dataDir: optional("a folder's path", isText),
  https: optional('true or false', (value) => typeof value === 'boolean'),
  now: optional('a function returning a Date', isFunction),
  demoShopOrigin: optional('an origin such as http://localhost:5173', isText),
  browserRoot: optional("a folder's path", isText),
  connectionTimeouts: optional('an object of timeouts in milliseconds', isObject),
  onLog: optional('a function (entry) => void', isFunction),
};

/** The config to run: checked as it is when it came from parseConfig, else read as the file's shape. */
function configFrom(given: SandboxConfigFile | SandboxConfig | string): SandboxConfig {
  if (typeof given === 'string') return loadConfig(given);
  return isCheckedConfig(given) ? given : parseConfig(given, { source: 'startSandbox config' });
}

/** Starts a sandbox gateway and resolves once it listens. */
export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  checkOptions('startSandbox', options, SANDBOX_OPTIONS);
  const now = options.now ?? (() => new Date());
  // Checked before a temporary folder is made, so that a wrong config leaves nothing behind.
  let config: SandboxConfig | undefined =
    options.config === undefined ? undefined : configFrom(options.config);
  if (options.allowOrigins !== undefined) checkAllowedOrigins(options.allowOrigins);
  const temporaryKeyDir =
    options.dataDir === undefined ? await mkdtemp(join(tmpdir(), 'svc-sandbox-')) : undefined;
  const keyDir = options.dataDir ?? temporaryKeyDir!;
  const removeTemporaryKeyDir = async () => {
    if (temporaryKeyDir !== undefined) await rm(temporaryKeyDir, { recursive: true, force: true });
  };
  let demoMerchant: Sandbox['demoMerchant'];
  if (config === undefined) {
    const keys = ensureDemoMerchantKeys(keyDir);
    config = demoConfig({
      publicKeyPem: keys.publicKeyPem,
      ...(options.demoShopOrigin !== undefined && { shopOrigin: options.demoShopOrigin }),
    });
    demoMerchant = { privateKeyPem: keys.privateKeyPem, privateKeyFile: keys.privateKeyFile };
  }
  if (options.allowOrigins !== undefined) config = withAllowedOrigins(config, options.allowOrigins);
  // Made side by side: each new RSA key takes a few hundred milliseconds, which a merchant's test pays at start.
  const [serviceKeys, companyKeys] = await Promise.all([
    loadOrCreateServiceKeys(keyDir, config.service?.privateKeyFile),
    loadOrCreateCompanyKeys(
      keyDir,
      config.merchants.filter((merchant) => merchant.v1 !== undefined).map((merchant) => merchant.id),
    ),
  ]);
  const host = options.host ?? '127.0.0.1';
  const tls = options.https ? await loadOrCreateTlsCertificate(keyDir, tlsNamesFor(host)) : undefined;
  const store: Store = openStore({
    ...(options.dataDir && { dataDir: options.dataDir }),
    // Once per change of state, not per refused request: a full disk would otherwise flood the console.
    onHealthChange: (health) => {
      if (health.ok) console.error('svc-sandbox: the data dir takes writes again');
      else if (health.failed !== 'journal') console.error(`svc-sandbox: ${health.error.message}`);
      else {
        const status = health.error.code === 'no_space' ? 507 : 503;
        console.error(
          `svc-sandbox: ${health.error.message} Until then, requests that change something are answered ${status}.`,
        );
      }
    },
  });
  const clocks = new SandboxClocks(
    store,
    config.merchants.map((merchant) => merchant.id),
    () => now().getTime(),
  );
  const log = new SandboxLog();
  if (options.onLog) log.subscribe(options.onLog);
  const queued = new Channel<Delivery>();
  const acquirer = new TestAcquirer({ store });
  const send = createHttpSend({ timeoutMs: config.notifications.timeoutMs });
  // A delivery's owner is its merchant: it is dated and retried on that merchant's clock.
  const ownerNow = (owner: string | undefined) =>
    owner === undefined ? now().getTime() : clocks.for(owner).nowMs();
  const queue: DeliveryQueue = createDeliveryQueue({
    store,
    send,
    now: ownerNow,
    retryBaseMs: config.notifications.retryBaseMs,
    maxFurtherAttempts: config.notifications.maxFurtherAttempts,
    maxAgeMs: config.notifications.maxAgeMs,
    // Purchase notifications are signed with the service key as they go out (DeliveryRequest.signatureHeader).
    signer: {
      now: (body) => signBody(body, serviceKeys.privateKeyPem),
      later: (body) => signBodyAsync(body, serviceKeys.privateKeyPem),
    },
    onAdmitted: (delivery) => {
      if (queued.active) queued.emit({ ...delivery, headers: queue.headersOf(delivery) });
    },
    onAttempted: (stored, attempt, attemptNumber) => {
      if (log.active) log.emit(deliveryEntry(stored, attempt, attemptNumber, ownerNow(stored.owner)));
    },
  });
  clocks.onAdvance(() => queue.wake());
  clocks.addWork((merchantId) => queue.workOf(merchantId));

  const router = new Router();
  router.on('GET', '/sandbox/health', ({ res }) => sendJson(res, 200, { ok: true }));
  router.on('GET', '/sandbox/service-certificate.pem', ({ res }) => {
    res.writeHead(200, {
      'content-type': 'application/x-pem-file',
      'content-disposition': 'attachment; filename="svc-sandbox.pem"',
    });
    res.end(serviceKeys.certificatePem);
  });
  const browserRoot = options.browserRoot ?? join(packageRoot, 'dist', 'browser');
  const auth = sandboxMerchantAuth(config.merchants);
  const legacy = mountLegacyApi(router, {
    config,
    store,
    queue,
    servicePrivateKeyPem: serviceKeys.privateKeyPem,
    acquirer,
    clocks,
    now,
    auth,
    browserRoot,
    onSignatureMismatch: (mismatch) => {
      if (log.active) log.emit({ kind: 'signature_mismatch', at: now().toISOString(), ...mismatch });
    },
  });
  mountClockControl(router, clocks, config.merchants);
  // Known once the server listens; until then, v1's fallback.
  let ownUrl: string | undefined;
  const v1 = mountV1Api(router, {
    config,
    store,
    queue,
    acquirer,
    clocks,
    companyKeys,
    listenHost: host,
    ownUrl: () => ownUrl ?? 'http://127.0.0.1',
    browserRoot,
  });
  mountObserveRoutes(router, { log, deliveries: queued, auth });
  const testHelperParts = { legacy, queue, clocks, config, v1 };
  mountTestHelperRoutes(router, testHelperParts, host);

  const listener = (req: IncomingMessage, res: ServerResponse) => {
    if (log.active) {
      const started = performance.now();
      res.once('finish', () => log.emit(requestEntry(req, res.statusCode, performance.now() - started)));
    }
    // `handle` answers every error itself; this only guards the process should the answer fail too.
    router.handle(req, res).catch(() => res.destroy());
  };
  const timeouts = serverTimeoutOptions(options.connectionTimeouts);
  const server: Server = tls
    ? createHttpsServer({ key: tls.privateKeyPem, cert: tls.certificatePem, ...timeouts }, listener)
    : createServer(timeouts, listener);
  server.on('connect', refuseConnect);
  try {
    await new Promise<void>((resolveListen, reject) => {
      server.once('error', reject);
      server.listen(options.port ?? 4010, host, () => resolveListen());
    });
  } catch (error) {
    // A port in use: give the data dir back, so that a second try in this process can have it.
    clocks.close();
    await queue.close();
    send.close();
    await store.close();
    await removeTemporaryKeyDir();
    throw error;
  }
  guardConnections(server, options.connectionTimeouts);
  const port = (server.address() as AddressInfo).port;
  const url = `${tls ? 'https' : 'http'}://${host.includes(':') ? `[${host}]` : host}:${port}`;
  ownUrl = url;
  return {
    url,
    port,
    config,
    keyDir,
    serviceCertificatePem: serviceKeys.certificatePem,
    ...(tls && { tlsCertificateFile: tls.certificateFile }),
    ...(demoMerchant && { demoMerchant }),
    clock: clocks,
    clockFor(merchantId) {
      if (!config.merchants.some((merchant) => merchant.id === merchantId)) {
        const known = config.merchants.map((merchant) => merchant.id).join(', ');
        throw new RangeError(`No merchant ${merchantId} in this sandbox; its merchants are ${known}`);
      }
      return clocks.for(merchantId);
    },
    log,
    warnings: store.warnings,
    testHelpers: createTestHelpers(testHelperParts, url),
    async close() {
      await new Promise<void>((resolveClose) => {
        server.close(() => resolveClose());
        server.closeAllConnections();
      });
      clocks.close();
      await queue.close();
      send.close();
      await store.close();
      await removeTemporaryKeyDir();
    },
  };
}
