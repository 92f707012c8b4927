import { lookup as dnsLookup } from 'node:dns';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/** IPv6 global unicast (2000::/3): every other IPv6 block is special-purpose, unallocated or embeds an IPv4 address. */
const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3');
/** NAT64's well-known prefix (RFC 6052): what DNS64 answers for an IPv4-only host on an IPv6-only network. */
const NAT64 = ipaddr.parseCIDR('64:ff9b::/96');

/**
 * The IPv4 address an IPv6 address stands for where the connection really goes there: IPv4-mapped (a dual-stack
 * socket connects over IPv4) and NAT64's well-known prefix (a translator connects over IPv4). Other embeddings
 * (IPv4-compatible, 6to4, Teredo, local-use NAT64) are simply not global unicast and refused as they are.
 */
function embeddedIpv4(ip: ipaddr.IPv6): ipaddr.IPv4 | null {
  if (ip.isIPv4MappedAddress()) return ip.toIPv4Address();
  if (!ip.match(NAT64)) return null;
  const [hi = 0, lo = 0] = ip.parts.slice(6);
  return new ipaddr.IPv4([hi >> 8, hi & 255, lo >> 8, lo & 255]);
}

/**
 * True when the address is a public unicast address a live webhook may reach. Everything else is refused: loopback,
 * private, link-local (cloud metadata at 169.254.169.254), carrier-grade NAT, documentation, benchmarking,
 * multicast, reserved; on IPv6 anything outside global unicast and the special-purpose blocks inside it (6to4,
 * Teredo, ORCHID, documentation, ...), whatever the spelling (`::127.0.0.1` is `::7f00:1` once a URL parser has read
 * it), except that a mapped or NAT64 address is judged by the IPv4 address it reaches. The ranges are ipaddr.js's
 * copy of the IANA special-purpose registries, not a list of our own.
 *
 * @example isPublicAddress('::ffff:0:7f00:1') // false
 */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  const ip = ipaddr.parse(address);
  if (ip.kind() === 'ipv4') return ip.range() === 'unicast';
  const v6 = ip as ipaddr.IPv6;
  const v4 = embeddedIpv4(v6);
  if (v4) return v4.range() === 'unicast';
  return v6.match(GLOBAL_UNICAST_V6) && v6.range() === 'unicast';
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
