// Browser tests run in one real Chromium: Debian's, or the one named by CHROME_PATH. A real sandbox gateway
// runs beside them on a second origin (test/support/wtr-gateway-plugin.mjs).
import { esbuildPlugin } from '@web/dev-server-esbuild';
import { playwrightLauncher } from '@web/test-runner-playwright';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './test/support/chromium.mjs';
import { gatewayMiddleware, gatewayPlugin } from './test/support/wtr-gateway-plugin.mjs';

export default {
  files: ['test/element/**/*.test.ts', 'test/frame/**/*.test.ts', 'test/browser/**/*.test.ts'],
  nodeResolve: true,
  port: 8000,
  concurrency: 1,
  testFramework: { config: { timeout: 10000 } },
  middleware: [gatewayMiddleware],
  plugins: [esbuildPlugin({ ts: true, target: 'es2022', tsconfig: 'tsconfig.json' }), gatewayPlugin()],
  browsers: [
    playwrightLauncher({
      product: 'chromium',
      launchOptions: { executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS },
    }),
  ],
};
