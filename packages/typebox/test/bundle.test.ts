import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// The module every process loads is dist/index.js, TypeBox bundled by bundle.mjs (the test
// suite's pretest builds it): it must offer what TypeBox's own entry points do, and work the same.
const built = fileURLToPath(new URL('../dist/index.js', import.meta.url));
type Bundled = typeof import('../src/index.js');

describe('TypeBox as one module (packages/typebox)', () => {
  it('is a bundle: it imports no module of TypeBox', () => {
    expect(readFileSync(built, 'utf8')).not.toMatch(/from\s*['"]typebox/);
  });

  it("exports every name of TypeBox's entry point, its default and Compile", async () => {
    const bundled = (await import(built)) as Record<string, unknown>;
    const original = (await import('typebox')) as Record<string, unknown>;
    expect(Object.keys(bundled).sort()).toEqual([...new Set([...Object.keys(original), 'Compile'])].sort());
  });

  it('builds the schemas TypeBox builds, and compiles validators that judge as its own do', async () => {
    const { default: Type, Compile } = (await import(built)) as Bundled;
    const original = await import('typebox');
    const { Compile: originalCompile } = await import('typebox/schema');
    const make = (T: typeof Type) =>
      T.Object({ model: T.String({ minLength: 1 }), max_tokens: T.Optional(T.Integer({ minimum: 1 })), stream: T.Optional(T.Boolean()) });
    const schema = make(Type);
    expect(schema).toEqual(make(original.default));
    const validator = Compile(schema);
    const reference = originalCompile(make(original.default));
    const values = [
      { model: 'm', max_tokens: 5 },
      { model: '', max_tokens: 5 },
      { model: 'm', max_tokens: 0.5 },
      { model: 'm', stream: 'yes' },
      {},
      null,
    ];
    for (const value of values) {
      expect(validator.Check(value), JSON.stringify(value)).toBe(reference.Check(value));
      expect([...validator.Errors(value)].length, JSON.stringify(value)).toBe([...reference.Errors(value)].length);
    }
    expect(validator.Check(values[0])).toBe(true);
    expect(validator.Check(values[1])).toBe(false);
  });
});
