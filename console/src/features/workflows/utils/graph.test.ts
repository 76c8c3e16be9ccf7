import { describe, expect, it } from 'vitest';

import { CONNECTION_MESSAGES, edgesWithout, hasCycle, reaches, refuseConnection } from '@/features/workflows/utils/graph';

const e = (source: string, target: string) => ({ id: `${source}-${target}`, source, target });
// a → b → c, a → d
const chain = [e('a', 'b'), e('b', 'c'), e('a', 'd')];

describe('the designer graph', () => {
  it('follows edges forward only', () => {
    expect(reaches(chain, 'a', 'c')).toBe(true);
    expect(reaches(chain, 'c', 'a')).toBe(false);
    expect(reaches(chain, 'd', 'c')).toBe(false);
  });

  it.each([
    ['a', 'a', CONNECTION_MESSAGES.self],
    ['c', 'a', CONNECTION_MESSAGES.cycle],
    ['b', 'a', CONNECTION_MESSAGES.cycle],
    ['a', 'b', CONNECTION_MESSAGES.duplicate],
    ['d', 'c', null],
    ['c', 'd', null],
    ['a', 'e', null],
  ])('refuses %s → %s with %s', (source, target, why) => {
    expect(refuseConnection(chain, source, target)).toBe(why);
  });

  it('finds cycles, self-connections included, and passes a diamond', () => {
    const diamond = [e('a', 'b'), e('a', 'c'), e('b', 'd'), e('c', 'd')];
    expect(hasCycle(['a', 'b', 'c', 'd'], diamond)).toBe(false);
    expect(hasCycle(['a', 'b', 'c', 'd'], [...diamond, e('d', 'a')])).toBe(true);
    expect(hasCycle(['a'], [e('a', 'a')])).toBe(true);
    expect(hasCycle(['a', 'b', 'x', 'y'], [e('a', 'b'), e('x', 'y'), e('y', 'x')])).toBe(true);
    expect(hasCycle([], [])).toBe(false);
  });

  it("drops a deleted node's edges and keeps the others", () => {
    expect(edgesWithout(chain, new Set(['b']))).toEqual([e('a', 'd')]);
    expect(edgesWithout(chain, new Set(['a']))).toEqual([e('b', 'c')]);
    expect(edgesWithout(chain, new Set())).toEqual(chain);
  });
});
