/**
 * Announcements for the frame's one live region: parts of the form ask the frame to say something (a card
 * scheme recognised) by this event rather than each keeping a live region of its own, which screen readers
 * would read over one another.
 */

/** Fired by a part of the form, bubbling to `<svc-payment-frame>`, which reads `message` out. */
export class AnnounceEvent extends Event {
  static readonly type = 'svc-announce';

  constructor(readonly message: string) {
    super(AnnounceEvent.type, { bubbles: true });
  }
}

declare global {
  interface HTMLElementEventMap {
    'svc-announce': AnnounceEvent;
  }
}
