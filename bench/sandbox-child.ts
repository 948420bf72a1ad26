/**
 * Runs a sandbox in its own process for the benchmark, so the load generator and the merchant receiver do
 * not share its event loop. Reports its URL to the parent over IPC and stops when told.
 */
import { parseConfig, type SandboxConfigFile } from '../src/sandbox/config.js';
import { startSandbox } from '../src/sandbox/sandbox.js';

const [configJson, dataDir] = process.argv.slice(2);
const sandbox = await startSandbox({
  port: 0,
  config: parseConfig(JSON.parse(configJson!) as SandboxConfigFile),
  ...(dataDir && { dataDir }),
});
process.send?.({ url: sandbox.url, certificatePem: sandbox.serviceCertificatePem });
process.on('message', async () => {
  await sandbox.close();
  process.exit(0);
});
