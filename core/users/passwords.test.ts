import { describe, expect, it } from 'vitest';
import { hashPassword, SCRYPT, verifyPassword } from './passwords.js';

describe('dashboard passwords (scrypt)', () => {
  it('stores scrypt with its parameters and a random salt; verifies the password and nothing else', async () => {
    const a = await hashPassword('correct horse battery');
    const b = await hashPassword('correct horse battery');
    expect(a).toMatch(new RegExp(`^scrypt\\$${SCRYPT.N}\\$${SCRYPT.r}\\$${SCRYPT.p}\\$[\\w-]{22}\\$[\\w-]{43}$`));
    expect(a).not.toBe(b);
    expect(a).not.toContain('correct horse battery');
    expect(await verifyPassword('correct horse battery', a)).toBe(true);
    expect(await verifyPassword('correct horse batterY', a)).toBe(false);
    expect(await verifyPassword('correct horse battery', null)).toBe(false);
    expect(await verifyPassword('correct horse battery', 'scrypt$1$2$bad')).toBe(false);
  });
});
