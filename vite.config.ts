/**
 * Vite builds what browsers load from the gateway: today the browser entry as one ES module
 * (`dist/browser/svc-checkout.js`), which the sandbox serves; the script-tag files, the frame app and the
 * demo shop join it as they land. The npm package itself is built by `tsc`, unbundled.
 */
import { defineConfig } from 'vite';

export default defineConfig({
  build: {
    outDir: 'dist/browser',
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: true,
    lib: {
      entry: 'src/index.ts',
      formats: ['es'],
      fileName: () => 'svc-checkout.js',
    },
  },
});
