#!/usr/bin/env node
// Enforces the direction of imports that DESIGN.md sets between the parts of src/:
//   core     imports only files inside core (no packages, no Node built-ins)
//   element  imports core, its own files and lit packages; never frame, server, sandbox, Node or jsrsasign
//   frame    the same, with element and frame swapped
//   server   imports core, its own files, packages and Node built-ins; never element, frame or sandbox
//   sandbox  imports core, server, its own files, packages and Node; never element or frame (reading built
//            frame files from disk is not an import)
// and follows the browser entry (src/index.ts) through every file it reaches, refusing Node built-ins,
// jsrsasign and server or sandbox code there. Imports are read with regular expressions over the source
// with comments and template literals blanked out: static `import`/`export ... from`, side-effect imports,
// `import('...')` with a literal specifier, and `/// <reference types|path>`. Type-only imports count for
// the direction (a type from Node in core is still a dependency on Node) but not for what the browser
// entry reaches, since they are erased from the bundle.
//
// Usage: node scripts/check-imports.mjs [--list] [project root]   (exit 1 on any violation; --list prints
// every import found, to check what the patterns read)
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, relative, resolve, sep } from 'node:path';

const args = process.argv.slice(2);
const listImports = args.includes('--list');
const root = resolve(args.find((arg) => !arg.startsWith('--')) ?? '.');
const srcDir = join(root, 'src');
const BROWSER_ENTRY = 'src/index.ts';
const PARTS = ['core', 'element', 'frame', 'server', 'sandbox'];
const BROWSER_PACKAGES = /^(lit|lit\/.+|@lit\/.+)$/;
const NODE_ONLY_PACKAGES = new Set(['jsrsasign']);
const builtins = new Set(builtinModules);

/** Which relative targets and which kinds of bare specifiers each part may import. */
const RULES = {
  core: {
    parts: ['core'],
    allowPackage: () => false,
    rule: 'core imports only files inside core: no packages, no Node built-ins',
  },
  element: {
    parts: ['element', 'core'],
    allowPackage: (name) => BROWSER_PACKAGES.test(name),
    rule: 'element imports core and lit packages only; never frame, server, sandbox, Node or jsrsasign',
  },
  frame: {
    parts: ['frame', 'core'],
    allowPackage: (name) => BROWSER_PACKAGES.test(name),
    rule: 'frame imports core and lit packages only; never element, server, sandbox, Node or jsrsasign',
  },
  server: {
    parts: ['server', 'core'],
    allowPackage: () => true,
    allowNode: true,
    allowJsonOutsideSrc: true,
    rule: 'server imports core, packages and Node; never element, frame or sandbox',
  },
  sandbox: {
    parts: ['sandbox', 'server', 'core'],
    allowPackage: () => true,
    allowNode: true,
    allowJsonOutsideSrc: true,
    rule: 'sandbox imports core, server, packages and Node; never element or frame',
  },
  // The browser entry re-exports the element (and core); it is held to the browser parts' limits.
  entry: {
    parts: ['element', 'core'],
    allowPackage: (name) => BROWSER_PACKAGES.test(name),
    rule: 'the browser entry imports element, core and lit packages only',
  },
};

/** Path relative to the project root with forward slashes, as printed. */
const show = (path) => relative(root, path).split(sep).join('/');

/** The part a file belongs to: `core`, ..., `entry` for src/index.ts, `root` for other top-level files. */
function partOf(path) {
  const rel = relative(srcDir, path).split(sep);
  if (rel[0] === '..' || rel[0] === '') return 'outside';
  if (rel.length === 1) return show(path) === BROWSER_ENTRY ? 'entry' : 'root';
  return PARTS.includes(rel[0]) ? rel[0] : `src/${rel[0]}`;
}

function listTs(dir) {
  if (!existsSync(dir)) return [];
  const files = [];
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) files.push(...listTs(path));
    else if (name.endsWith('.ts')) files.push(path);
  }
  return files;
}

/**
 * The source with comments and template literal text replaced by spaces (line breaks kept, so offsets
 * and line numbers stay right). Quoted strings are kept: they hold the specifiers. A `/` that starts a
 * regular expression literal is told from division by the token before it.
 */
function blankNonCode(source) {
  const out = source.split('');
  const blank = (from, to) => {
    for (let i = from; i < to; i++) if (out[i] !== '\n') out[i] = ' ';
  };
  const templateDepth = []; // brace depth at which each open `${` returns to its template
  let braces = 0;
  let lastToken = '';
  let i = 0;
  const n = source.length;
  const readTemplate = () => {
    // At the start of template text (after ` or }); stops after the closing ` or an opening ${.
    const start = i;
    while (i < n) {
      const c = source[i];
      if (c === '\\') i += 2;
      else if (c === '`') {
        blank(start, i);
        i++;
        lastToken = 'x';
        return;
      } else if (c === '$' && source[i + 1] === '{') {
        blank(start, i);
        i += 2;
        templateDepth.push(braces);
        braces++;
        lastToken = '{';
        return;
      } else i++;
    }
    blank(start, n);
  };
  while (i < n) {
    const c = source[i];
    const next = source[i + 1];
    if (c === '/' && next === '/') {
      const end = source.indexOf('\n', i);
      const stop = end < 0 ? n : end;
      // A triple-slash reference is a dependency too: keep it readable for the reference pattern.
      if (!/^\/\/\/\s*<reference\s/.test(source.slice(i, stop))) blank(i, stop);
      i = stop;
    } else if (c === '/' && next === '*') {
      const end = source.indexOf('*/', i + 2);
      const stop = end < 0 ? n : end + 2;
      blank(i, stop);
      i = stop;
    } else if (c === "'" || c === '"') {
      i++;
      while (i < n && source[i] !== c && source[i] !== '\n') i += source[i] === '\\' ? 2 : 1;
      i++;
      lastToken = 'x';
    } else if (c === '`') {
      i++;
      readTemplate();
    } else if (c === '/') {
      // A regular expression where an operand is expected, otherwise division.
      const expectsOperand =
        lastToken === '' ||
        /[(,=:[!&|?{};+\-*%<>~^]$/.test(lastToken) ||
        /^(return|typeof|case|do|else|in|of|new|delete|void|throw|yield|await)$/.test(lastToken);
      if (expectsOperand) {
        const start = i;
        i++;
        let inClass = false;
        while (i < n && source[i] !== '\n') {
          const r = source[i];
          if (r === '\\') i += 2;
          else {
            if (r === '[') inClass = true;
            else if (r === ']') inClass = false;
            else if (r === '/' && !inClass) break;
            i++;
          }
        }
        i++;
        blank(start, i);
        lastToken = 'x';
      } else {
        i++;
        lastToken = '/';
      }
    } else if (c === '{') {
      braces++;
      lastToken = '{';
      i++;
    } else if (c === '}') {
      braces--;
      i++;
      if (templateDepth.length > 0 && templateDepth[templateDepth.length - 1] === braces) {
        templateDepth.pop();
        readTemplate();
      } else lastToken = '}';
    } else if (/[A-Za-z_$0-9]/.test(c)) {
      const start = i;
      while (i < n && /[\w$]/.test(source[i])) i++;
      lastToken = source.slice(start, i);
    } else if (/\s/.test(c)) {
      i++;
    } else {
      lastToken = c;
      i++;
    }
  }
  return out.join('');
}

const IMPORT_PATTERNS = [
  // import x from '...', import { a, b } from '...', import * as ns from '...', import type ... from '...',
  // export { a } from '...', export * from '...', export * as ns from '...', export type { T } from '...'
  /(?<![\w$.])(import|export)(\s+type)?\s*([\w$\s{},*]*?)\s*\bfrom\s*(['"])([^'"\n]+)\4/g,
  // import '...'
  /(?<![\w$.])(import)()()\s*(['"])([^'"\n]+)\4/g,
  // import('...')
  /(?<![\w$.])(import)()()\s*\(\s*(['"])([^'"\n]+)\4\s*[,)]/g,
  // /// <reference types="..." /> or path="..."
  /^()()()\/\/\/\s*<reference\s+(?:types|path)=(['"])([^'"\n]+)\4/gm,
];

/** Every import of one file: specifier, line, and whether it is type-only (erased from the output). */
function importsOf(source) {
  const code = blankNonCode(source);
  const found = new Map();
  for (const pattern of IMPORT_PATTERNS) {
    for (const match of code.matchAll(pattern)) {
      const clause = match[3] ?? '';
      // `import type X from` reads as keyword `type` then clause; `import type from 'x'` imports a default named type.
      const typeOnly = Boolean(match[2]) && clause !== '';
      const line = code.slice(0, match.index).split('\n').length;
      const key = `${match.index}`;
      if (!found.has(key))
        found.set(key, { spec: match[5], line, typeOnly, reference: match[0].startsWith('///') });
    }
  }
  return [...found.values()].sort((a, b) => a.line - b.line);
}

const packageName = (spec) =>
  spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0];
const isNodeBuiltin = (spec) =>
  spec.startsWith('node:') || builtins.has(spec) || builtins.has(spec.split('/')[0]);

/** The source file a relative specifier names: `./x.js` is `./x.ts` in this TypeScript project. */
function resolveRelative(fromFile, spec) {
  const target = resolve(dirname(fromFile), spec);
  for (const candidate of [
    target.replace(/\.js$/, '.ts'),
    target.replace(/\.mjs$/, '.mts'),
    target,
    `${target}.ts`,
  ]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return target.replace(/\.js$/, '.ts');
}

/** Why one import breaks the rule of the importing file's part, or undefined when it keeps it. */
function violationOf(file, part, entry) {
  const rule = RULES[part];
  if (!rule) return undefined;
  const { spec } = entry;
  if (spec.startsWith('.') || spec.startsWith('/')) {
    if (entry.reference) {
      // `/// <reference path>` names a declaration file; only other parts' files are refused.
      if (!spec.startsWith('.')) return undefined;
    }
    const target = resolveRelative(file, spec);
    const targetPart = partOf(target);
    if (rule.parts.includes(targetPart)) return undefined;
    if (targetPart === 'outside' && rule.allowJsonOutsideSrc && target.endsWith('.json')) return undefined;
    return `${who(part)} may not import ${spec} (${show(target)} is ${describePart(targetPart)}; ${rule.rule})`;
  }
  if (isNodeBuiltin(spec) || (entry.reference && spec === 'node')) {
    if (rule.allowNode) return undefined;
    return `${who(part)} may not import ${spec} (a Node built-in; ${rule.rule})`;
  }
  const name = packageName(spec);
  if (rule.allowPackage(name)) return undefined;
  return `${who(part)} may not import ${spec} (the package ${name}; ${rule.rule})`;
}

const who = (part) => (part === 'entry' ? 'the browser entry' : part);

function describePart(part) {
  if (part === 'outside') return 'outside src';
  if (part === 'entry') return 'the browser entry';
  if (part === 'root') return 'a top-level file of src';
  if (PARTS.includes(part)) return `in ${part}`;
  return `in ${part}, which is no part of the design`;
}

const files = listTs(srcDir);
const cache = new Map();
const importsOfFile = (file) => {
  if (!cache.has(file)) cache.set(file, existsSync(file) ? importsOf(readFileSync(file, 'utf8')) : []);
  return cache.get(file);
};

const violations = [];
for (const file of files) {
  const part = partOf(file);
  for (const entry of importsOfFile(file)) {
    if (listImports)
      console.log(`${show(file)}:${entry.line}: ${entry.typeOnly ? 'type ' : ''}${entry.spec}`);
    const problem = violationOf(file, part, entry);
    if (problem) violations.push(`${show(file)}:${entry.line}: ${problem}`);
  }
}

// What the browser entry reaches, through our own files, by imports that survive into the bundle.
const entryFile = join(root, BROWSER_ENTRY);
let reached = 0;
if (existsSync(entryFile)) {
  const via = new Map([[entryFile, [entryFile]]]);
  const queue = [entryFile];
  const reported = new Set();
  while (queue.length > 0) {
    const file = queue.shift();
    reached++;
    const chain = via.get(file);
    for (const entry of importsOfFile(file)) {
      if (entry.typeOnly || entry.reference) continue;
      const { spec } = entry;
      let refused;
      if (spec.startsWith('.')) {
        const target = resolveRelative(file, spec);
        const targetPart = partOf(target);
        if (targetPart === 'server' || targetPart === 'sandbox')
          refused = `${targetPart} code (${show(target)})`;
        else if (!via.has(target) && existsSync(target) && /\.[mc]?ts$/.test(target)) {
          via.set(target, [...chain, target]);
          queue.push(target);
        }
      } else if (isNodeBuiltin(spec)) refused = 'a Node built-in';
      else if (NODE_ONLY_PACKAGES.has(packageName(spec))) refused = 'a Node-only package';
      const key = `${file}|${spec}`;
      // The entry's own imports are already judged by its direction rule above.
      if (refused && file !== entryFile && !reported.has(key)) {
        reported.add(key);
        const path = chain.map(show).join(' > ');
        violations.push(
          `${show(file)}:${entry.line}: the browser entry may not import ${spec} (${refused}, reached by ${path}; browser bundles never hold Node built-ins, jsrsasign, server or sandbox code)`,
        );
      }
    }
  }
}

if (violations.length > 0) {
  for (const line of violations) console.error(line);
  console.error(
    `imports: ${violations.length} violation${violations.length === 1 ? '' : 's'} in ${files.length} files`,
  );
  process.exit(1);
}
const entryNote = existsSync(entryFile)
  ? `, ${BROWSER_ENTRY} reaches ${reached} file${reached === 1 ? '' : 's'} and no Node code`
  : `, no ${BROWSER_ENTRY} yet`;
console.log(`imports: ${files.length} files checked, direction ok${entryNote}`);
