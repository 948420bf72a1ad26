/** The frame's texts in English: a chunk of their own (`messages-en.js`), loaded when the frame speaks English. */
export { enFrame as default } from '../core/messages/en.js';
