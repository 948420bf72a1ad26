/**
 * The hostile-request suite's fuzz run, counted: fixed-seed malformed requests on raw sockets against a
 * sandbox in this process, and how many were answered 5xx (the aim: none) or not answered at all (refused by
 * Node's HTTP parser before the sandbox saw them).
 *
 * Run alone: `node --import tsx bench/fuzz.ts`.
 */
import { pathToFileURL } from 'node:url';
import { startSandbox } from '../src/sandbox/sandbox.js';
import { sendFuzzedRequests } from '../test/sandbox/hostile-requests.js';

export async function benchFuzz(count = 10_000): Promise<string> {
  const sandbox = await startSandbox({ port: 0 });
  try {
    const started = performance.now();
    const answers = await sendFuzzedRequests(sandbox.port, count);
    const seconds = (performance.now() - started) / 1000;
    const serverErrors = answers.filter(({ status }) => status !== null && status >= 500).length;
    const unanswered = answers.filter(({ status }) => status === null).length;
    const alive = (await fetch(`${sandbox.url}/sandbox/health`)).ok;
    return (
      `fuzzed requests on raw sockets: ${count} sent in ${seconds.toFixed(1)} s, ${serverErrors} answered 5xx, ` +
      `${unanswered} refused by Node's parser, sandbox ${alive ? 'still answering' : 'DOWN'}`
    );
  } finally {
    await sandbox.close();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.log(await benchFuzz());
}
