// The package entry resolved by name, exactly as a merchant imports it (package.json "exports" self-reference).
export * as index from 'crypto-payments-service';
