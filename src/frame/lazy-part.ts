/**
 * A part of the frame that no page load needs, imported the first time it is needed: a chunk of its own
 * beside the frame's first chunk (same origin, so the frame's `script-src 'self'` allows it).
 */

/** A module imported on first need; the frame renders a placeholder until it has come. */
export class LazyPart<Module> {
  readonly #import: () => Promise<Module>;
  #module?: Module;
  #loading?: Promise<Module | undefined>;
  #failed = false;

  constructor(importModule: () => Promise<Module>) {
    this.#import = importModule;
  }

  /** The module, once it has loaded. */
  get module(): Module | undefined {
    return this.#module;
  }

  /** The last import failed, and no other has started since: the customer may ask to try again. */
  get failed(): boolean {
    return this.#failed;
  }

  /** Imports the module, once (again after a failure); resolves to it, or to undefined when it did not load. */
  load(): Promise<Module | undefined> {
    if (this.#loading) return this.#loading;
    this.#failed = false;
    this.#loading = this.#import().then(
      (module) => {
        this.#module = module;
        return module;
      },
      () => {
        this.#failed = true;
        this.#loading = undefined;
        return undefined;
      },
    );
    return this.#loading;
  }
}
