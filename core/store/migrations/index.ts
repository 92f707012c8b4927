import type { Migration } from 'kysely';
import * as core from './0001-core.js';

/**
 * Versioned migrations, applied in key order. Add a file per change; never edit one that has shipped.
 */
export const migrations: Record<string, Migration> = {
  '0001-core': core,
};
