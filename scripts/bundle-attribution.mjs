#!/usr/bin/env node
// What each module adds to a browser bundle: builds the entry in memory (minified, as the gateway serves it)
// and lists the modules by their rendered size before minification, largest first. For size work:
//   node scripts/bundle-attribution.mjs src/element/script-tag.ts
//   node scripts/bundle-attribution.mjs src/frame/main.ts
import { gzipSync } from 'node:zlib';
import { build } from 'vite';

const entry = process.argv[2];
if (!entry) {
  console.error('usage: node scripts/bundle-attribution.mjs <entry.ts>');
  process.exit(1);
}
const result = await build({
  configFile: false,
  logLevel: 'silent',
  build: {
    write: false,
    target: 'es2022',
    minify: true,
    rolldownOptions: { input: entry, output: { format: 'es' } },
  },
});
const chunk = (Array.isArray(result) ? result[0] : result).output[0];
console.log(
  `entry chunk: ${chunk.code.length} bytes minified, ${gzipSync(chunk.code, { level: 9 }).length} gzip`,
);
const rows = Object.entries(chunk.modules)
  .map(([id, module]) => [
    id.replace(/.*node_modules\//, '').replace(/.*\/src\//, 'src/'),
    module.renderedLength,
  ])
  .sort((a, b) => b[1] - a[1]);
for (const [id, length] of rows) if (length > 0) console.log(String(length).padStart(7), id);
