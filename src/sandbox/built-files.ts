/**
 * The browser files of dist/browser as a gateway's CDN serves them: found by their role through
 * `served-files.json` (written by vite.config.ts), cached by browsers as their names allow, compressed as the
 * browser accepts, and answered 304 when the browser already has them.
 *
 * | file                                              | Cache-Control                         |
 * |---------------------------------------------------|---------------------------------------|
 * | content-hashed (`frame-<hash>.js`, ...)           | `public, max-age=31536000, immutable` |
 * | the entries merchants name (`svc-checkout.js`, `svc-checkout.classic.js`), source maps | `public, max-age=300` |
 * | any file of a build without served-files.json     | `no-cache` (revalidated every time)   |
 *
 * A script or stylesheet with a source map beside it names the map in a `SourceMap` header (relative to
 * its own address), as the build leaves the `sourceMappingURL` comment out of the file.
 *
 * Every answer carries a strong ETag of the file's content and its encoding, `Vary: Accept-Encoding`, and
 * its `Content-Encoding` when compressed. Compressed forms are made once per file version (brotli at quality
 * 11, gzip at level 9, as a build step would) and kept in memory: no answer compresses on the way out.
 */
import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { basename, extname, join } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import { HttpError, type RequestContext } from './http.js';

/** The file vite.config.ts writes beside the built files: role (name without the hash) -> built path. */
export const SERVED_FILES = 'served-files.json';

export const CACHE_IMMUTABLE = 'public, max-age=31536000, immutable';
export const CACHE_ENTRY = 'public, max-age=300';
export const CACHE_UNHASHED = 'no-cache';

const CONTENT_TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
};
/**
 * What is built with a source map beside it (`<file>.map`). The build leaves the `sourceMappingURL` comment
 * out of what browsers download (vite.config.ts), so the answer names the map in a `SourceMap` header,
 * which browsers' developer tools follow as they would the comment.
 */
const SOURCE_MAPPED = new Set(['.js', '.css']);
/** What is worth compressing: text. */
const COMPRESSIBLE = new Set(['.js', '.css', '.map', '.svg']);

export type Encoding = 'br' | 'gzip' | 'identity';

/** Longer Accept-Encoding or If-None-Match values are not read: no browser sends one of that size. */
const MAX_HEADER = 4096;

/**
 * The encoding to answer with: the highest q-value among brotli, gzip and identity (`*` stands for those not
 * named), brotli before gzip before identity on a tie. An entry that does not parse is left out; identity is
 * the answer when nothing else is acceptable, even where the header refuses it (RFC 9110 allows that
 * rather than a 406).
 */
export function negotiateEncoding(header: string | undefined): Encoding {
  if (header === undefined || header.length > MAX_HEADER) return 'identity';
  const quality = new Map<string, number>();
  for (const entry of header.split(',')) {
    const [token = '', ...parameters] = entry.split(';').map((part) => part.trim().toLowerCase());
    if (!/^(?:[a-z0-9!#$%&'*+.^_`|~-]+)$/.test(token)) continue;
    let q = 1;
    let valid = true;
    for (const parameter of parameters) {
      const match = /^q\s*=\s*(0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/.exec(parameter);
      if (match) q = Number(match[1]);
      else if (parameter.startsWith('q')) valid = false;
    }
    if (valid && !quality.has(token)) quality.set(token, q);
  }
  const wildcard = quality.get('*');
  // Without the header's word on it, identity is acceptable at a q-value below any named coding.
  const candidates: Array<[Encoding, number]> = [
    ['br', quality.get('br') ?? wildcard ?? 0],
    ['gzip', quality.get('gzip') ?? quality.get('x-gzip') ?? wildcard ?? 0],
    ['identity', quality.get('identity') ?? (wildcard === 0 ? 0 : 0.001)],
  ];
  let best: [Encoding, number] = ['identity', 0];
  for (const candidate of candidates) if (candidate[1] > best[1]) best = candidate;
  return best[0];
}

/** Whether an If-None-Match value names `etag` (weak comparison, as RFC 9110 asks of If-None-Match). */
export function matchesEtag(header: string | undefined, etag: string): boolean {
  if (header === undefined || header.length > MAX_HEADER) return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}

interface FileVersion {
  mtimeMs: number;
  size: number;
  /** The content's SHA-256, base64url, 22 characters (132 bits): the ETag's body. */
  hash: string;
  identity: Buffer;
  compressed: Partial<Record<'br' | 'gzip', Promise<Buffer>>>;
}

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** Reads the files of one build folder and keeps each version's bytes, hash and compressed forms. */
export class BuiltFiles {
  readonly #root: string;
  readonly #versions = new Map<string, FileVersion>();
  #served: { mtimeMs: number; roles: ReadonlyMap<string, string> } | undefined;

  constructor(root: string) {
    this.#root = root;
  }

  /**
   * Role -> built path (under the root), from served-files.json; undefined for a build without one (a build
   * of its own, or a test's folder), whose files are served under their own names.
   */
  async roles(): Promise<ReadonlyMap<string, string> | undefined> {
    const path = join(this.#root, SERVED_FILES);
    const info = await stat(path).catch(() => undefined);
    if (!info) return undefined;
    if (this.#served?.mtimeMs !== info.mtimeMs) {
      let parsed: unknown;
      try {
        parsed = JSON.parse(await readFile(path, 'utf8'));
      } catch {
        throw new HttpError(503, 'broken_build', `${path} is not JSON; run \`npm run build\` again`);
      }
      const roles = new Map<string, string>();
      if (typeof parsed === 'object' && parsed !== null) {
        for (const [role, built] of Object.entries(parsed)) {
          if (
            typeof built === 'string' &&
            !built.split('/').some((part) => part === '' || part.startsWith('.'))
          )
            roles.set(role, built);
        }
      }
      this.#served = { mtimeMs: info.mtimeMs, roles };
    }
    return this.#served.roles;
  }

  /** The built path of a role (`frame/assets/frame.js`), or the role itself for a build without served-files.json. */
  async resolve(role: string): Promise<string> {
    return (await this.roles())?.get(role) ?? role;
  }

  /**
   * How a built path is served: undefined when it is no file of the build (served-files.json names it, or is
   * its source map); otherwise its Cache-Control. Without served-files.json, `fallback` says whether the
   * name may be served.
   */
  async cachePolicy(path: string, fallback: (path: string) => boolean): Promise<string | undefined> {
    const roles = await this.roles();
    if (!roles) return fallback(path) ? CACHE_UNHASHED : undefined;
    const isMap = path.endsWith('.map');
    const file = isMap ? path.slice(0, -'.map'.length) : path;
    for (const [role, built] of roles) {
      if (built !== file) continue;
      return isMap || role === built ? CACHE_ENTRY : CACHE_IMMUTABLE;
    }
    return undefined;
  }

  async #version(path: string): Promise<FileVersion | undefined> {
    const absolute = join(this.#root, path);
    const info = await stat(absolute).catch(() => undefined);
    if (!info?.isFile()) return undefined;
    const known = this.#versions.get(path);
    if (known && known.mtimeMs === info.mtimeMs && known.size === info.size) return known;
    const identity = await readFile(absolute).catch(() => undefined);
    if (!identity) return undefined;
    const version: FileVersion = {
      mtimeMs: info.mtimeMs,
      size: info.size,
      hash: createHash('sha256').update(identity).digest('base64url').slice(0, 22),
      identity,
      compressed: {},
    };
    this.#versions.set(path, version);
    return version;
  }

  /** The bytes of `path` in `encoding`, made once per file version. */
  #encoded(version: FileVersion, encoding: 'br' | 'gzip'): Promise<Buffer> {
    version.compressed[encoding] ??=
      encoding === 'br'
        ? brotli(version.identity, {
            params: {
              [constants.BROTLI_PARAM_QUALITY]: 11,
              [constants.BROTLI_PARAM_SIZE_HINT]: version.identity.length,
            },
          })
        : gzipAsync(version.identity, { level: 9 });
    return version.compressed[encoding];
  }

  /**
   * Answers a GET or HEAD for the built file `path` (under the root) with `cacheControl`.
   * @throws HttpError 404 when the file is not built.
   */
  async send(
    context: RequestContext,
    path: string,
    cacheControl: string,
    headers: Record<string, string> = {},
  ): Promise<void> {
    const { req, res } = context;
    const version = await this.#version(path);
    if (!version) {
      throw new HttpError(
        404,
        'not_built',
        `${context.url.pathname} is not built; run \`npm run build\` in the svc-checkout package`,
      );
    }
    const extension = extname(path);
    let encoding: Encoding = COMPRESSIBLE.has(extension)
      ? negotiateEncoding(req.headers['accept-encoding'])
      : 'identity';
    let body = encoding === 'identity' ? version.identity : await this.#encoded(version, encoding);
    if (body.length >= version.identity.length) {
      encoding = 'identity';
      body = version.identity;
    }
    const sourceMap =
      SOURCE_MAPPED.has(extension) && (await this.#version(`${path}.map`))
        ? `${basename(path)}.map`
        : undefined;
    const etag = `"${version.hash}${encoding === 'identity' ? '' : `-${encoding === 'br' ? 'br' : 'gz'}`}"`;
    const common: Record<string, string> = {
      etag,
      'cache-control': cacheControl,
      ...(COMPRESSIBLE.has(extension) && { vary: 'Accept-Encoding' }),
      'x-content-type-options': 'nosniff',
      ...(sourceMap && { sourcemap: sourceMap }),
      ...headers,
    };
    if (matchesEtag(req.headers['if-none-match'], etag)) {
      res.writeHead(304, common);
      res.end();
      return;
    }
    res.writeHead(200, {
      'content-type': CONTENT_TYPES[extension] ?? 'application/octet-stream',
      'content-length': body.length,
      ...(encoding !== 'identity' && { 'content-encoding': encoding }),
      ...common,
    });
    res.end(req.method === 'HEAD' ? undefined : body);
  }
}
