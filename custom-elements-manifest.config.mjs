/**
 * The custom elements manifest (custom-elements.json, `npm run analyze`; `npm run analyze:check` checks the
 * committed file), read by editors, Storybook and documentation sites. It describes the package as it is
 * installed:
 * - module paths name the shipped files (`dist/element/svc-checkout.js`), not the sources, which are not
 *   published;
 * - only what the browser entry `svc-checkout` exports is listed (the element, its events, its error); the
 *   element's helpers (`FrameHost`, the picker, the lookup, the style sheets) are internals, and so are its
 *   `#private` members;
 * - `dist/index.js` carries the tag's definition, since importing the package is what defines it;
 * - the package's name, version, description and license are included.
 * The analyzer reads the TypeScript sources; the paths are mapped to dist as tsc emits it (rootDir src).
 */
import { readFileSync } from 'node:fs';
import { posix } from 'node:path';

const packageJson = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8'));

/** The module the entry `svc-checkout` resolves to, and where tsc writes each source. */
const ENTRY = 'src/index.ts';
const toDist = (path) => path.replace(/^\/?src\//, 'dist/').replace(/\.ts$/, '.js');

/** A re-export's module as the analyzer writes it (`./element/x.js`, relative to the re-exporting module). */
function sourceOf(module, fromModule) {
  if (!module.startsWith('.')) return module.replace(/^\//, '').replace(/\.js$/, '.ts');
  return posix.join(posix.dirname(fromModule), module).replace(/\.js$/, '.ts');
}

/** Keeps the entry's public names and what declares them; maps every path to dist. */
function publicSurfaceOnly() {
  return {
    name: 'svc-checkout-public-surface',
    packageLinkPhase({ customElementsManifest }) {
      const modules = customElementsManifest.modules;
      const byPath = new Map(modules.map((module) => [module.path, module]));
      const entry = byPath.get(ENTRY);
      if (!entry) throw new Error(`custom-elements-manifest.config.mjs: ${ENTRY} was not analyzed`);

      // The entry's exports that name a declaration the analyzer found: classes, functions and constants.
      // Type-only exports have none (the manifest schema has no place for type aliases or interfaces).
      const declared = (source, name) =>
        byPath.get(source)?.declarations?.some((declaration) => declaration.name === name) ?? false;
      const publicNames = new Map(); // source path -> names declared there and exported by the entry
      entry.exports = (entry.exports ?? []).filter((exported) => {
        const source = sourceOf(exported.declaration.module, ENTRY);
        if (!declared(source, exported.declaration.name)) return false;
        exported.declaration.module = toDist(source);
        publicNames.set(source, new Set([...(publicNames.get(source) ?? []), exported.declaration.name]));
        return true;
      });

      // The tag's definition, wherever the analyzer saw `customElements.define`, belongs to the entry: it
      // is importing the package that defines `<svc-checkout>`.
      for (const module of modules) {
        for (const exported of module.exports ?? []) {
          if (exported.kind !== 'custom-element-definition') continue;
          const source = sourceOf(exported.declaration.module, module.path);
          if (!publicNames.get(source)?.has(exported.declaration.name)) {
            throw new Error(
              `custom-elements-manifest.config.mjs: <${exported.name}> is defined with a class the entry does not export`,
            );
          }
          entry.exports.push({
            ...exported,
            declaration: { ...exported.declaration, module: toDist(source) },
          });
        }
      }

      // A superclass of another module of ours is named by its dist path; one the analyzer took for a
      // declaration of the same module, which has none by that name, is a browser global (`CustomEvent`).
      const reference = (ref, fromModule) => {
        if (ref.package || !ref.module) return ref;
        const source = sourceOf(ref.module, fromModule);
        if (source === fromModule && !declared(source, ref.name))
          return { name: ref.name, package: 'global:' };
        return { ...ref, module: toDist(source) };
      };

      customElementsManifest.modules = modules
        .filter((module) => module === entry || publicNames.has(module.path))
        .map((module) => {
          if (module === entry) return { ...module, path: toDist(module.path) };
          const names = publicNames.get(module.path);
          const declarations = module.declarations.filter((declaration) => names.has(declaration.name));
          for (const declaration of declarations) {
            hidePrivateMembers(declaration);
            if (declaration.superclass)
              declaration.superclass = reference(declaration.superclass, module.path);
          }
          return {
            ...module,
            path: toDist(module.path),
            declarations,
            exports: (module.exports ?? [])
              .filter((exported) => exported.kind === 'js' && names.has(exported.declaration.name))
              .map((exported) => ({
                ...exported,
                declaration: { ...exported.declaration, module: toDist(module.path) },
              })),
          };
        });
    },
  };
}

/** Drops `#private`, private and protected members, and links attributes documented by JSDoc to their field. */
function hidePrivateMembers(declaration) {
  if (!declaration.members) return;
  declaration.members = declaration.members.filter(
    (member) =>
      !member.name.startsWith('#') && member.privacy !== 'private' && member.privacy !== 'protected',
  );
  for (const attribute of declaration.attributes ?? []) {
    if (attribute.fieldName) continue;
    const field = declaration.members.find(
      (member) => member.kind === 'field' && member.name === attribute.name,
    );
    if (field) attribute.fieldName = field.name;
  }
}

function packageInfo() {
  const { name, version, description, license } = packageJson;
  return {
    name: 'svc-checkout-package-info',
    packageLinkPhase({ customElementsManifest }) {
      customElementsManifest.package = { name, version, description, license };
    },
  };
}

export default {
  globs: [ENTRY, 'src/element/**/*.ts'],
  exclude: ['src/**/*.test.ts'],
  litelement: true,
  // Off: the analyzer cannot resolve the sources' `./x.js` imports of `.ts` files (it would find no
  // third-party manifests anyway; lit ships none).
  dependencies: false,
  plugins: [publicSurfaceOnly(), packageInfo()],
};
