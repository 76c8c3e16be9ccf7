import { createHmac } from 'node:crypto';

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

function base32Decode(input: string): Buffer {
  const clean = input.replace(/=+$/, '').replace(/\s+/g, '').toUpperCase();
  let bits = 0;
  let value = 0;
  const out: number[] = [];
  for (const ch of clean) {
    const idx = BASE32.indexOf(ch);
    if (idx < 0) throw new Error(`not base32: ${ch}`);
    value = (value << 5) | idx;
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  return Buffer.from(out);
}

/** The RFC 6238 time step of `ms` (30 s). */
export function timeStep(ms = Date.now()): number {
  return Math.floor(ms / 1000 / 30);
}

/** RFC 6238 TOTP: HMAC-SHA1, 30 s step, 6 digits. */
export function totp(secret: string, step = timeStep()): string {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(step));
  const hmac = createHmac('sha1', base32Decode(secret)).update(counter).digest();
  const offset = hmac[hmac.length - 1] & 0x0f;
  const code = (hmac.readUInt32BE(offset) & 0x7fffffff) % 1_000_000;
  return code.toString().padStart(6, '0');
}

/** A code from a time step after `usedStep` (the API accepts each code once), waiting if needed. */
export async function freshCode(secret: string, usedStep: number | null): Promise<{ code: string; step: number }> {
  while (usedStep !== null && timeStep() <= usedStep) {
    await new Promise((r) => setTimeout(r, 1000));
  }
  const step = timeStep();
  return { code: totp(secret, step), step };
}
