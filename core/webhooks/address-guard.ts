import { lookup as dnsLookup } from 'node:dns';
import { BlockList, isIP } from 'node:net';

/**
 * Addresses a live-mode webhook may never reach: loopback, private, link-local (cloud metadata at
 * 169.254.169.254), carrier-grade NAT, documentation, benchmark, multicast and reserved ranges, in IPv4 and IPv6.
 */
const blocked = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  blocked.addSubnet(net, bits, 'ipv4');
}
for (const [net, bits] of [
  ['::', 128],
  ['::1', 128],
  ['100::', 64],
  ['2001:db8::', 32],
  ['2001::', 23],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const) {
  blocked.addSubnet(net, bits, 'ipv6');
}

/** IPv6 forms that carry an IPv4 address (mapped, compatible, NAT64, 6to4): the embedded one is what is reached. */
function embeddedIpv4(address: string): string | null {
  const a = address.toLowerCase();
  const dotted = /^(?:::ffff:|::|64:ff9b::)(\d+\.\d+\.\d+\.\d+)$/.exec(a);
  if (dotted?.[1]) return dotted[1];
  const hex = /^(?:::ffff:|64:ff9b::)([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(a);
  if (hex?.[1] && hex[2]) {
    const hi = Number.parseInt(hex[1], 16);
    const lo = Number.parseInt(hex[2], 16);
    return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
  }
  const sixToFour = /^2002:([0-9a-f]{1,4}):([0-9a-f]{1,4}):/.exec(a);
  if (sixToFour?.[1] && sixToFour[2]) {
    const hi = Number.parseInt(sixToFour[1], 16);
    const lo = Number.parseInt(sixToFour[2], 16);
    return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
  }
  return null;
}

/** True when the address is a public unicast address a live webhook may reach. */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return !blocked.check(address, 'ipv4');
  if (family === 6) {
    const v4 = embeddedIpv4(address);
    if (v4 !== null) return isPublicAddress(v4);
    return !blocked.check(address, 'ipv6');
  }
  return false;
}

export class UnsafeTargetError extends Error {
  override name = 'UnsafeTargetError';
}

export type ResolvedAddress = { address: string; family: number };
/** Resolves a host name to every address (an injectable seam: the system resolver by default). */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

export const systemResolver: Resolver = (hostname) =>
  new Promise((resolve, reject) => {
    dnsLookup(hostname, { all: true, verbatim: true }, (err, addresses) => (err ? reject(err) : resolve(addresses)));
  });

/**
 * Checks the URL itself before connecting: live mode needs https and, for an IP-literal host (which no lookup
 * ever sees), a public address. Host names are checked later, by `guardedLookup`, at connect time.
 */
export function checkTargetUrl(url: URL, mode: 'test' | 'live'): void {
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw new UnsafeTargetError(`webhook URL scheme ${url.protocol} is not http(s)`);
  if (mode === 'test') return;
  if (url.protocol !== 'https:') throw new UnsafeTargetError('live-mode webhook URLs must use https');
  if (url.username || url.password) throw new UnsafeTargetError('webhook URLs must not carry credentials');
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host) && !isPublicAddress(host))
    throw new UnsafeTargetError(`webhook target ${host} is not a public address`);
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | ResolvedAddress[], family?: number) => void;

/**
 * A `lookup` for node:net that resolves at connect time and refuses the connection when any resolved address is
 * not public (live mode), so DNS that changes after the URL was saved (rebinding) cannot reach inside.
 */
export function guardedLookup(mode: 'test' | 'live', resolver: Resolver = systemResolver) {
  return (hostname: string, options: { all?: boolean } | number | LookupCallback, maybeCb?: LookupCallback): void => {
    const cb = (typeof options === 'function' ? options : maybeCb) as LookupCallback;
    const all = typeof options === 'object' && options !== null && options.all === true;
    resolver(hostname).then(
      (addresses) => {
        if (addresses.length === 0)
          return cb(Object.assign(new Error(`no address for ${hostname}`), { code: 'ENOTFOUND' }), '', 0);
        if (mode === 'live') {
          const bad = addresses.find((a) => !isPublicAddress(a.address));
          if (bad)
            return cb(
              new UnsafeTargetError(
                `webhook host ${hostname} resolves to ${bad.address}, which is not a public address`,
              ),
              '',
              0,
            );
        }
        const first = addresses[0] as ResolvedAddress;
        if (all) cb(null, addresses);
        else cb(null, first.address, first.family);
      },
      (e: NodeJS.ErrnoException) => cb(e, '', 0),
    );
  };
}

/**
 * Save-time check of a webhook URL, for the places that store one (admin CLI, future dashboard): returns what is
 * wrong, or null. Live mode resolves the host now too, so an obvious mistake is caught before the first event;
 * the connect-time check in `guardedLookup` still decides every request, since DNS can change after saving.
 * @example await webhookUrlProblem('https://10.0.0.5/hook', 'live') // "webhook target 10.0.0.5 is not a public address"
 */
export async function webhookUrlProblem(
  url: string,
  mode: 'test' | 'live',
  resolver: Resolver = systemResolver,
): Promise<string | null> {
  let parsed: URL;
  try {
    parsed = new URL(url);
    checkTargetUrl(parsed, mode);
  } catch (e) {
    return e instanceof UnsafeTargetError ? e.message : 'not a valid URL';
  }
  const host = parsed.hostname.replace(/^\[|\]$/g, '');
  if (mode === 'test' || isIP(host)) return null;
  try {
    const bad = (await resolver(host)).find((a) => !isPublicAddress(a.address));
    return bad ? `webhook host ${host} resolves to ${bad.address}, which is not a public address` : null;
  } catch {
    return `webhook host ${host} does not resolve`;
  }
}
