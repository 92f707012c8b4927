/**
 * Refuses a second delivery of a webhook the provider already applied, and an older event of a payment after a
 * newer one. A signed request is only accepted inside the timestamp tolerance, so remembering delivery ids for that
 * long (twice, for clock skew) is enough: an older copy is refused by its timestamp. Several Medusa processes each
 * keep their own memory; Medusa's payment workflows are idempotent for the one action that matters (`captured`).
 */
export class ReplayGuard {
  private readonly seen = new Map<string, number>();
  private readonly sequences = new Map<string, { sequence: number; at: number }>();

  constructor(private readonly toleranceSeconds: number) {}

  admit(deliveryId: string, paymentId: string, sequence: number, nowMs: number): 'new' | 'replayed' | 'stale' {
    this.prune(nowMs);
    if (this.seen.has(deliveryId)) return 'replayed';
    const last = this.sequences.get(paymentId);
    if (last && sequence <= last.sequence) return 'stale';
    this.seen.set(deliveryId, nowMs);
    this.sequences.set(paymentId, { sequence, at: nowMs });
    return 'new';
  }

  private prune(nowMs: number): void {
    const horizon = nowMs - 2 * this.toleranceSeconds * 1000;
    for (const [id, at] of this.seen) if (at < horizon) this.seen.delete(id);
    // A payment's last sequence is kept a day: its events stop long before.
    for (const [id, s] of this.sequences) if (s.at < nowMs - 86_400_000) this.sequences.delete(id);
  }
}
