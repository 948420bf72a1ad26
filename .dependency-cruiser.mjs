// The import rules that need the resolved dependency graph (ARCHITECTURE.md, Parts). Biome checks each
// import as written (biome.json, overrides: which packages, Node built-ins and other parts a part names);
// what only resolved paths and transitive reach can tell is checked here, by `npm run lint`.
// dependency-cruiser reads TypeScript through @swc/core: TypeScript 7 has no JavaScript API to parse with.
// swc does not mark type-only imports, so here they count like any other import.
import { builtinModules } from 'node:module';

const PARTS = '^src/(core|element|frame|server|sandbox|testing)/';
/** What browsers load: the browser entry, and the parts it and the frame are built from. */
const BROWSER_CODE = '^src/(index\\.ts$|core/|element/|frame/)';
const escapeRegExp = (text) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
/** A Node built-in as dependency-cruiser names it: `node:fs`, `fs`, `fs/promises`. */
const NODE_BUILTIN = `^(node:.*|(${builtinModules.map(escapeRegExp).join('|')}))$`;
/** A wing: the code of one gateway interface, legacy or v1, in the sandbox or in the server toolkit. */
const WING = '^src/(sandbox|server)/(legacy|v1)/';
/** The files that assemble the wings: the entries, the sandbox's start and CLI, and helpers spanning both. */
const COMPOSITION = [
  '^src/server/(index|for-sandbox)\\.ts$',
  '^src/sandbox/(index|sandbox|cli|cli-args|cli-watch|init-command)\\.ts$',
  '^src/sandbox/test-helpers/',
];

/** @type {import('dependency-cruiser').IConfiguration} */
export default {
  forbidden: [
    {
      name: 'browser-code-imports-only-parts',
      comment:
        'core, element, frame and the browser entry import files of the five parts only (ARCHITECTURE.md, Parts): ' +
        'not src/index.ts or src/react.ts, not another folder of src, nothing outside src. Move what they need ' +
        'into core, or import it from its part.',
      severity: 'error',
      from: { path: BROWSER_CODE },
      to: { dependencyTypes: ['local'], pathNot: PARTS },
    },
    {
      name: 'node-code-imports-only-parts-and-json',
      comment:
        'server and sandbox import files of the parts and, outside src, JSON data such as package.json only ' +
        '(ARCHITECTURE.md, Parts). Move what they need into server or core.',
      severity: 'error',
      from: { path: '^src/(server|sandbox)/' },
      to: { dependencyTypes: ['local'], pathNot: [PARTS, '^(?!src/).*\\.json$'] },
    },
    {
      name: 'testing-imports-only-testing-and-core',
      comment:
        'The testing helpers (svc-checkout/testing) import files of testing and core only (ARCHITECTURE.md, ' +
        'Parts): they drive the element and the frame through the page, and bring no Node code into a ' +
        "merchant's test runner.",
      severity: 'error',
      from: { path: '^src/testing/' },
      to: { dependencyTypes: ['local'], pathNot: '^src/(core|testing)/' },
    },
    {
      name: 'sandbox-imports-server-through-its-entries',
      comment:
        'The sandbox uses the server part as a merchant does, through src/server/index.ts, plus what a gateway ' +
        'shares with the toolkit in src/server/for-sandbox.ts. Export what it needs there.',
      severity: 'error',
      from: { path: '^src/sandbox/' },
      to: { path: '^src/server/', pathNot: '^src/server/(index|for-sandbox)\\.ts$' },
    },
    {
      name: 'wings-never-import-each-other',
      comment:
        'The legacy and v1 wings of the sandbox and of the server toolkit never import each other ' +
        '(ARCHITECTURE.md, Wings): what both need is shared, and lives in the root of their part. Move it there.',
      severity: 'error',
      from: { path: WING },
      to: { path: '^src/$1/(legacy|v1)/', pathNot: '^src/$1/$2/' },
    },
    {
      name: 'shared-root-imports-no-wing',
      comment:
        "What the sandbox's or the toolkit's interfaces share (the root of src/sandbox and src/server) imports no " +
        'wing (ARCHITECTURE.md, Wings): only the entries, the sandbox start and CLI and the test helpers assemble ' +
        'them. Move the shared part out of the wing, or the code that needs the wing into it.',
      severity: 'error',
      from: { path: '^src/(sandbox|server)/', pathNot: [WING, ...COMPOSITION] },
      to: { path: WING },
    },
    {
      name: 'browser-code-reaches-no-node-code',
      comment:
        'Browser bundles (the element, the frame, the browser entry src/index.ts, and core which they share) never ' +
        'hold Node built-ins, jsrsasign, server or sandbox code, however far down an import chain ' +
        '(ARCHITECTURE.md, Parts). Cut the chain that leads there.',
      severity: 'error',
      from: { path: BROWSER_CODE },
      to: {
        reachable: true,
        path: ['^src/(server|sandbox)/', '(^|/)node_modules/jsrsasign/', '^jsrsasign(/|$)', NODE_BUILTIN],
      },
    },
    {
      name: 'only-the-first-view-renders-on-a-server',
      comment:
        "Lit's server renderer is for src/frame/first-view.ts alone, the frame's first view that the gateway writes " +
        "into the frame's page; no module imports that file, which the sandbox loads from the build (so no browser " +
        'bundle holds the renderer).',
      severity: 'error',
      from: { pathNot: '^src/frame/first-view\\.ts$' },
      to: {
        path: ['(^|/)node_modules/@lit-labs/ssr/', '^@lit-labs/ssr(/|$)', '^src/frame/first-view\\.ts$'],
      },
    },
  ],
  options: {
    parser: 'swc',
    doNotFollow: { path: 'node_modules' },
    enhancedResolveOptions: { extensions: ['.ts', '.js', '.json'] },
  },
};
