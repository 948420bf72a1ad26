/**
 * The back office's login: one password for the shop's staff, a session cookie after it. The back office
 * captures, refunds and charges cards and lists the customers' e-mails, so a shop copying this demo must not
 * leave it open to whoever reaches the shop.
 *
 * - The password comes from the caller (`DEMO_BACK_OFFICE_PASSWORD`, or one generated at start and printed);
 *   it is compared in constant time, over SHA-256 digests so that its length does not show either.
 * - The session is a random 256-bit id in a cookie that scripts cannot read (`HttpOnly`) and that the
 *   browser sends only from the shop's own pages (`SameSite=Strict`), so another site cannot post as the
 *   staff (CSRF); the back office's posts are JSON besides, which a plain HTML form cannot send.
 * - Sessions live in memory for 8 hours; a restart of the back end logs everyone out.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FetchHandler } from 'svc-checkout/server';
import { json, methodNotAllowed } from './json-answers.js';
import { Refusal, readBody } from './json-requests.js';

/** The login's routes. */
export const BACK_OFFICE_LOGIN_PATHS = {
  login: '/api/back-office/login',
  logout: '/api/back-office/logout',
  session: '/api/back-office/session',
} as const;

/** Every route under this prefix needs a logged-in session. */
export const BACK_OFFICE_PREFIX = '/api/v1/back-office/';

const COOKIE = 'svc_demo_back_office';
const SESSION_MS = 8 * 60 * 60 * 1000;

export interface BackOfficeLogin {
  /** The password the staff log in with. */
  readonly password: string;
  /** The login, logout and session routes. */
  readonly routes: ReadonlyArray<[string, FetchHandler]>;
  /** Whether the request carries a live session. */
  allows(req: IncomingMessage): boolean;
}

/** A password for a back office whose shop named none: 24 random characters. */
export function generatedPassword(): string {
  return randomBytes(18).toString('base64url');
}

export function createBackOfficeLogin(password: string, now: () => number = Date.now): BackOfficeLogin {
  if (password.length < 8) {
    throw new TypeError('The back office password must be at least 8 characters long');
  }
  const expected = digest(password);
  const sessions = new Map<string, number>();

  const sessionOf = (cookieHeader: string | null | undefined): string | undefined => {
    const id = cookieValue(cookieHeader ?? '', COOKIE);
    if (id === undefined) return undefined;
    const expires = sessions.get(id);
    if (expires === undefined) return undefined;
    if (expires <= now()) {
      sessions.delete(id);
      return undefined;
    }
    return id;
  };

  const login: FetchHandler = async (request) => {
    if (request.method !== 'POST') return methodNotAllowed('POST');
    let given: unknown;
    try {
      given = (await readBody(request, ['password']))['password'];
    } catch (error) {
      if (error instanceof Refusal) return json(error.status, error.body);
      throw error;
    }
    if (typeof given !== 'string' || !timingSafeEqual(digest(given), expected)) {
      return json(401, { error: 'wrong_password', message: 'That is not the back office password.' });
    }
    for (const [id, expires] of sessions) if (expires <= now()) sessions.delete(id);
    const id = randomBytes(32).toString('base64url');
    sessions.set(id, now() + SESSION_MS);
    const secure = new URL(request.url).protocol === 'https:' ? '; Secure' : '';
    return json(
      200,
      { message: 'Logged in.' },
      {
        'set-cookie': `${COOKIE}=${id}; Path=/api/; HttpOnly; SameSite=Strict; Max-Age=${SESSION_MS / 1000}${secure}`,
      },
    );
  };

  const logout: FetchHandler = async (request) => {
    if (request.method !== 'POST') return methodNotAllowed('POST');
    const id = sessionOf(request.headers.get('cookie'));
    if (id !== undefined) sessions.delete(id);
    return json(
      200,
      { message: 'Logged out.' },
      { 'set-cookie': `${COOKIE}=; Path=/api/; HttpOnly; SameSite=Strict; Max-Age=0` },
    );
  };

  const session: FetchHandler = async (request) => {
    if (request.method !== 'GET') return methodNotAllowed('GET');
    return json(200, { loggedIn: sessionOf(request.headers.get('cookie')) !== undefined });
  };

  return {
    password,
    routes: [
      [BACK_OFFICE_LOGIN_PATHS.login, login],
      [BACK_OFFICE_LOGIN_PATHS.logout, logout],
      [BACK_OFFICE_LOGIN_PATHS.session, session],
    ],
    allows: (req) => sessionOf(req.headers.cookie) !== undefined,
  };
}

/** The answer of a back office route asked without a session. */
export const LOGIN_REQUIRED = {
  error: 'login_required',
  message: `Log in to the back office first (POST ${BACK_OFFICE_LOGIN_PATHS.login} {"password": ...}).`,
} as const;

function digest(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}

function cookieValue(header: string, name: string): string | undefined {
  for (const part of header.split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key === name) return value.join('=');
  }
  return undefined;
}
