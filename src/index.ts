/**
 * `svc-checkout`: the browser entry. It carries no Node built-ins and no server code, and importing it in
 * Node (server-side rendering) does not throw. The `<svc-checkout>` element joins it in the next release;
 * today it offers the order model, money, tax and card checks the element and frame are built on.
 */
export * from './core/index.js';
