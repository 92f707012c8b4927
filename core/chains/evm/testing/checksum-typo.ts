/**
 * The checksummed address with one letter's case flipped: still an address, but its EIP-55 checksum is wrong. The
 * letter is one whose flip leaves both cases in the address: all of one case is an address with no checksum at all.
 */
export function checksumTypo(a: string): string {
  for (let i = 2; i < a.length; i++) {
    const c = a[i] as string;
    if (!/[a-fA-F]/.test(c)) continue;
    const flipped = a.slice(0, i) + (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase()) + a.slice(i + 1);
    if (/[a-f]/.test(flipped.slice(2)) && /[A-F]/.test(flipped.slice(2))) return flipped;
  }
  throw new Error(`no letter of ${a} can carry a wrong checksum`);
}
