/** The frame's texts in Latvian: a chunk of their own (`messages-lv.js`), loaded when the frame speaks Latvian. */
export { lvFrame as default } from '../core/messages/lv.js';
