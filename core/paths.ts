import { fileURLToPath } from 'node:url';

/**
 * The repository's public/ folder (icons, demo, built widget). Resolved from this module's own location, which sits
 * one level below the repository root both in the source tree (core/) and in the server bundle (dist/), so it holds
 * whatever the working directory.
 */
export const PUBLIC_DIR = fileURLToPath(new URL('../public', import.meta.url));
