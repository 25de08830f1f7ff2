import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// The module every process loads is dist/index.js, TypeBox bundled by bundle.mjs (the test
// suite's pretest builds it): it must offer what TypeBox's own entry points do, and work the same.
const built = fileURLToPath(new URL('../dist/index.js', import.meta.url));

describe('TypeBox as one module (packages/typebox)', () => {
  it('is a bundle: it imports no module of TypeBox', async () => {
    const { readFile } = await import('node:fs/promises');
    expect(await readFile(built, 'utf8')).not.toMatch(/from\s*['"]typebox/);
  });

  it("exports every name of TypeBox's entry point, its default and Compile", async () => {
    const bundled = (await import(built)) as Record<string, unknown>;
    const original = (await import('typebox')) as Record<string, unknown>;
    const schema = (await import('typebox/schema')) as Record<string, unknown>;
    expect(Object.keys(bundled).sort()).toEqual([...new Set([...Object.keys(original), 'Compile'])].sort());
    expect(typeof bundled.Compile).toBe('function');
    expect(typeof schema.Compile).toBe('function');
  });

  it('builds schemas and compiles validators as TypeBox does', async () => {
    const { default: Type, Compile } = (await import(built)) as typeof import('../src/index.js');
    const schema = Type.Object({ model: Type.String({ minLength: 1 }), max_tokens: Type.Optional(Type.Integer({ minimum: 1 })) });
    expect(schema).toEqual(Type.Object({ model: Type.String({ minLength: 1 }), max_tokens: Type.Optional(Type.Integer({ minimum: 1 })) }));
    const validator = Compile(schema);
    expect(validator.Check({ model: 'm', max_tokens: 5 })).toBe(true);
    expect(validator.Check({ model: '', max_tokens: 5 })).toBe(false);
    expect(validator.Check({ model: 'm', max_tokens: 0.5 })).toBe(false);
    expect([...validator.Errors({ model: 'm', max_tokens: 0 })].length).toBeGreaterThan(0);
  });
});
