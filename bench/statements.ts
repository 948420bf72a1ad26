/**
 * A company statement of 100,000 Purchases: the time from asking for it until it is ready (the background
 * pass that counts its rows), and the time and size of its streamed download as CSV and as JSON, with the
 * process's memory growth while it streams (the sandbox and the client share the process, so it counts
 * both). The Purchases are written straight into the data dir's store before the sandbox starts on it.
 *
 * Run alone: `node --import tsx bench/statements.ts`.
 */
import { rm } from 'node:fs/promises';
import { pathToFileURL } from 'node:url';
import { parseConfig } from '../src/sandbox/config.js';
import { startSandbox } from '../src/sandbox/sandbox.js';
import { STATEMENT_QUEUE_MS } from '../src/sandbox/v1/statements.js';
import { createV1Client } from '../src/server/index.js';
import { tempDir } from '../test/sandbox/support.js';
import { seedPaidPurchases } from '../test/sandbox/v1/seed.js';
import { V1, v1ConfigFile } from '../test/sandbox/v1/support.js';

/** One format's download. */
export interface StatementDownloadFigures {
  format: 'csv' | 'json';
  /** From the create call until the statement was ready. */
  readyMs: number;
  downloadMs: number;
  bytes: number;
  chunks: number;
  /** Largest growth of the heap over its level before the download, sampled at each chunk. */
  heapGrowthBytes: number;
}

export interface StatementsResult {
  purchases: number;
  seedMs: number;
  startMs: number;
  downloads: StatementDownloadFigures[];
}

export async function benchStatements(purchases = 100_000): Promise<StatementsResult> {
  const dataDir = await tempDir();
  try {
    let started = performance.now();
    await seedPaidPurchases({
      dataDir,
      count: purchases,
      merchantId: 'm1',
      brandId: V1.brandId,
      fromSeconds: Math.floor(Date.now() / 1000) - purchases - 60,
    });
    const seedMs = performance.now() - started;
    started = performance.now();
    const sandbox = await startSandbox({
      port: 0,
      config: parseConfig(v1ConfigFile('http://127.0.0.1:9')),
      dataDir,
    });
    const startMs = performance.now() - started;
    const downloads: StatementDownloadFigures[] = [];
    try {
      const client = createV1Client({ baseUrl: sandbox.url, secretKey: V1.secretKey });
      for (const format of ['csv', 'json'] as const) {
        started = performance.now();
        const statement = await client.statements.create({ format, timezone: 'Europe/Riga' });
        sandbox.clock.advance(STATEMENT_QUEUE_MS);
        await client.statements.waitUntilReady(statement.id, { intervalMs: 5, waitMs: 600_000 });
        const readyMs = performance.now() - started;
        const heapBefore = process.memoryUsage().heapUsed;
        let heapGrowthBytes = 0;
        let bytes = 0;
        let chunks = 0;
        started = performance.now();
        for await (const chunk of await client.statements.download(statement.id)) {
          bytes += chunk.byteLength;
          chunks += 1;
          heapGrowthBytes = Math.max(heapGrowthBytes, process.memoryUsage().heapUsed - heapBefore);
        }
        downloads.push({
          format,
          readyMs,
          downloadMs: performance.now() - started,
          bytes,
          chunks,
          heapGrowthBytes,
        });
      }
    } finally {
      await sandbox.close();
    }
    return { purchases, seedMs, startMs, downloads };
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}

export function describeStatements(result: StatementsResult): string {
  const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
  const lines = [
    `company statement of ${result.purchases.toLocaleString('en')} purchases (written into the store in ${(
      result.seedMs / 1000
    ).toFixed(1)} s; sandbox start ${(result.startMs / 1000).toFixed(1)} s):`,
  ];
  for (const download of result.downloads) {
    lines.push(
      `  ${download.format}: ready ${download.readyMs.toFixed(0)} ms after it was asked for; downloaded ` +
        `${mb(download.bytes)} in ${download.downloadMs.toFixed(0)} ms (${download.chunks} chunks, ` +
        `${(download.bytes / 1024 / 1024 / (download.downloadMs / 1000)).toFixed(1)} MB/s); heap grew at most ` +
        `${mb(download.heapGrowthBytes)} while it streamed`,
    );
  }
  return lines.join('\n');
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.log(describeStatements(await benchStatements()));
}
