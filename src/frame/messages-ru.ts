/** The frame's texts in Russian: a chunk of their own (`messages-ru.js`), loaded when the frame speaks Russian. */
export { ruFrame as default } from '../core/messages/ru.js';
