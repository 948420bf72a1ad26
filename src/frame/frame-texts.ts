/**
 * The frame's texts in another language than its page's (whose texts the page's bootstrap carries): each
 * language's catalog is a chunk of its own (`messages-<lang>.js`, same origin, so the frame's
 * `script-src 'self'` allows it), imported when the element asks for that language. The texts shown stay
 * until the new ones are there, so no key ever shows in their place.
 */
import type { FrameMessages, Language } from '../core/index.js';

/** A language's catalog as its chunk exports it. */
export type TextsChunk = () => Promise<{ default: FrameMessages }>;

const CHUNKS: Readonly<Record<Language, TextsChunk>> = {
  lv: () => import('./messages-lv.js'),
  en: () => import('./messages-en.js'),
  ru: () => import('./messages-ru.js'),
};

/** The texts the frame shows, and their language (which formats amounts and lists to match). */
export interface LoadedTexts {
  language: Language;
  catalog: FrameMessages;
}

/**
 * The language's texts; English ones when that language's chunk does not load (a customer who reads the
 * form in English can still pay); undefined when English does not load either.
 */
export async function loadTexts(
  language: Language,
  chunks: Readonly<Record<Language, TextsChunk>> = CHUNKS,
): Promise<LoadedTexts | undefined> {
  for (const candidate of new Set([language, 'en'] as const)) {
    try {
      return { language: candidate, catalog: (await chunks[candidate]()).default };
    } catch {}
  }
  return undefined;
}
