// Deliberately loose: the gateway and the merchant's mail server have the last word; this catches slips.
const EMAIL_ADDRESS = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Whether a text has the form of an e-mail address (`name@host.tld`, no spaces): the frame and the sandbox agree. */
export function isEmailAddress(text: string): boolean {
  return EMAIL_ADDRESS.test(text);
}
