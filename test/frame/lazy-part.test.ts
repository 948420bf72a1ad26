// The frame's parts that load on demand (the 3-D Secure step, the status screens): one import however often
// they are asked for, and another try after an import that failed.
import { expect } from '@open-wc/testing';
import { LazyPart } from '../../src/frame/lazy-part.js';

describe('LazyPart', () => {
  it('imports once, however often and however early it is asked for', async () => {
    let imports = 0;
    const part = new LazyPart(async () => ({ imports: ++imports }));
    expect(part.module).to.equal(undefined);
    const [first, second] = await Promise.all([part.load(), part.load()]);
    expect(first).to.deep.equal({ imports: 1 });
    expect(second).to.equal(first);
    expect(await part.load()).to.equal(first);
    expect(part.module).to.equal(first);
    expect(imports).to.equal(1);
  });

  it('after a failed import says so, and tries again when asked', async () => {
    let attempt = 0;
    const part = new LazyPart(async () => {
      attempt += 1;
      if (attempt === 1) throw new TypeError('Failed to fetch dynamically imported module');
      return { attempt };
    });
    expect(await part.load()).to.equal(undefined);
    expect(part.failed).to.equal(true);
    expect(part.module).to.equal(undefined);
    const again = part.load();
    expect(part.failed, 'no longer failed while it tries again').to.equal(false);
    expect(await again).to.deep.equal({ attempt: 2 });
    expect(part.module).to.deep.equal({ attempt: 2 });
  });
});
