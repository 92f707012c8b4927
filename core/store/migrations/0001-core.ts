import type { Kysely } from 'kysely';

// Portable types only (text, integer, bigint) so SQLite and PostgreSQL share this file.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('merchants')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('sub_partner_id', 'text', (c) => c.notNull().unique())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('mode', 'text', (c) => c.notNull())
    .addColumn('webhook_url', 'text')
    .addColumn('webhook_secret', 'text', (c) => c.notNull())
    .addColumn('webhook_enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('allowed_origins', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('underpaid_tolerance_bps', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_address_index', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('active', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('api_keys')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('merchant_id', 'text', (c) => c.notNull().references('merchants.id'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('prefix', 'text', (c) => c.notNull())
    .addColumn('key_hash', 'text', (c) => c.notNull().unique())
    .addColumn('active', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('deactivated_at', 'bigint')
    .execute();
  await db.schema.createIndex('api_keys_merchant').on('api_keys').column('merchant_id').execute();

  await db.schema
    .createTable('payments')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('invoice_id', 'text', (c) => c.notNull())
    .addColumn('purchase_id', 'text', (c) => c.notNull())
    .addColumn('merchant_id', 'text', (c) => c.notNull().references('merchants.id'))
    .addColumn('mode', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('status_detail', 'text', (c) => c.notNull().defaultTo('none'))
    .addColumn('sequence', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('price_amount', 'text', (c) => c.notNull())
    .addColumn('price_currency', 'text', (c) => c.notNull())
    .addColumn('pay_currency', 'text', (c) => c.notNull())
    .addColumn('network', 'text', (c) => c.notNull())
    .addColumn('decimals', 'integer', (c) => c.notNull())
    .addColumn('precision', 'integer', (c) => c.notNull())
    .addColumn('pay_amount_units', 'text', (c) => c.notNull())
    .addColumn('actually_paid_units', 'text', (c) => c.notNull().defaultTo('0'))
    .addColumn('rate', 'text', (c) => c.notNull())
    .addColumn('pay_address', 'text', (c) => c.notNull())
    .addColumn('extra_id', 'text')
    .addColumn('address_index', 'integer')
    .addColumn('smart_contract', 'text')
    .addColumn('customer_name', 'text')
    .addColumn('customer_email', 'text', (c) => c.notNull())
    .addColumn('order_id', 'text')
    .addColumn('order_description', 'text')
    .addColumn('success_url', 'text')
    .addColumn('cancel_url', 'text')
    .addColumn('ipn_callback_url', 'text')
    .addColumn('origin_ip', 'text')
    .addColumn('is_fixed_rate', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('is_fee_paid_by_user', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('time_limit', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('valid_until', 'bigint', (c) => c.notNull())
    .addColumn('confirmed_at', 'bigint')
    .execute();
  await db.schema
    .createIndex('payments_merchant_created')
    .on('payments')
    .columns(['merchant_id', 'created_at', 'id'])
    .execute();
  await db.schema
    .createIndex('payments_address')
    .on('payments')
    .columns(['network', 'pay_address', 'extra_id'])
    .execute();
  await db.schema.createIndex('payments_status_valid').on('payments').columns(['status', 'valid_until']).execute();

  await db.schema
    .createTable('deposits')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('payment_id', 'text', (c) => c.notNull().references('payments.id'))
    .addColumn('network', 'text', (c) => c.notNull())
    .addColumn('txid', 'text', (c) => c.notNull())
    .addColumn('log_index', 'integer', (c) => c.notNull())
    .addColumn('asset', 'text', (c) => c.notNull())
    .addColumn('amount_units', 'text', (c) => c.notNull())
    .addColumn('block_height', 'bigint')
    .addColumn('block_hash', 'text')
    .addColumn('first_seen_at', 'bigint', (c) => c.notNull())
    .addColumn('late', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('removed', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('deposits_tx', ['network', 'txid', 'log_index'])
    .execute();
  await db.schema.createIndex('deposits_payment').on('deposits').column('payment_id').execute();

  await db.schema
    .createTable('chain_checkpoints')
    .addColumn('chain', 'text', (c) => c.primaryKey())
    .addColumn('height', 'bigint', (c) => c.notNull())
    .addColumn('hash', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('chain_blocks')
    .addColumn('chain', 'text', (c) => c.notNull())
    .addColumn('height', 'bigint', (c) => c.notNull())
    .addColumn('hash', 'text', (c) => c.notNull())
    .addColumn('parent_hash', 'text')
    .addPrimaryKeyConstraint('chain_blocks_pk', ['chain', 'height'])
    .execute();

  await db.schema
    .createTable('sandbox_blocks')
    .addColumn('network', 'text', (c) => c.notNull())
    .addColumn('height', 'bigint', (c) => c.notNull())
    .addColumn('hash', 'text', (c) => c.notNull())
    .addColumn('parent_hash', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('sandbox_blocks_pk', ['network', 'height'])
    .execute();

  await db.schema
    .createTable('sandbox_transfers')
    .addColumn('txid', 'text', (c) => c.primaryKey())
    .addColumn('network', 'text', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('address', 'text', (c) => c.notNull())
    .addColumn('extra_id', 'text')
    .addColumn('amount_units', 'text', (c) => c.notNull())
    .addColumn('block_height', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('sandbox_transfers_block')
    .on('sandbox_transfers')
    .columns(['network', 'block_height'])
    .execute();

  await db.schema
    .createTable('idempotency_keys')
    .addColumn('merchant_id', 'text', (c) => c.notNull())
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('route', 'text', (c) => c.notNull())
    .addColumn('request_hash', 'text', (c) => c.notNull())
    .addColumn('status_code', 'integer', (c) => c.notNull())
    .addColumn('response_body', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('idempotency_keys_pk', ['merchant_id', 'key'])
    .execute();
  await db.schema.createIndex('idempotency_keys_created').on('idempotency_keys').column('created_at').execute();

  await db.schema
    .createTable('payment_events')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('payment_id', 'text', (c) => c.notNull().references('payments.id'))
    .addColumn('merchant_id', 'text', (c) => c.notNull())
    .addColumn('sequence', 'integer', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('payment_events_seq', ['payment_id', 'sequence'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const t of [
    'payment_events',
    'idempotency_keys',
    'sandbox_transfers',
    'sandbox_blocks',
    'chain_blocks',
    'chain_checkpoints',
    'deposits',
    'payments',
    'api_keys',
    'merchants',
  ]) {
    await db.schema.dropTable(t).ifExists().execute();
  }
}
