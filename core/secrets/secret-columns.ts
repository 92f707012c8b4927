import type {
  ColumnUpdateNode,
  InsertQueryNode,
  KyselyPlugin,
  OperationNode,
  PluginTransformQueryArgs,
  PluginTransformResultArgs,
  QueryResult,
  RootOperationNode,
  UnknownRow,
  UpdateQueryNode,
  ValueNode,
} from 'kysely';
import { isSealed, type Keyring, SecretsKeyError } from './keyring.js';

/**
 * Every column holding a secret the service must read back, one per table. Keys and passwords are not here: they
 * are stored hashed (never read back). `dropin_settings.value` is sealed whole: its rows are few and one of them
 * is the hosted-page signing secret.
 */
export const secretColumns = {
  merchants: 'webhook_secret',
  merchant_xpubs: 'view_key',
  dashboard_two_factor: 'secret',
  dropin_settings: 'value',
} as const;

export type SecretTable = keyof typeof secretColumns;

/** The associated data of a table's secret: the value opens only in the column it was sealed for. */
export function contextOf(table: SecretTable): string {
  return `${table}.${secretColumns[table]}`;
}

const contextByColumn = new Map<string, string>(
  Object.entries(secretColumns).map(([t, c]) => [c, contextOf(t as SecretTable)]),
);

/**
 * The Kysely plugin every store handle carries (core/store/db.ts), so no reader or writer of a secret column can
 * forget it: inserts and updates of a secret column are sealed with the store's key on their way out, and any
 * result column of those names that holds a sealed value comes back opened. Values in the clear (a store from
 * before encryption at rest, until the first start seals them) read as they are.
 * Queries of other tables pass through untouched; the check is one property read per query and per result row.
 */
export class SecretColumns implements KyselyPlugin {
  #keyring: Keyring | null = null;

  /** Sets the key (start-up, once the store's sealed values are known to open with it). */
  use(keyring: Keyring): void {
    this.#keyring = keyring;
  }

  get keyring(): Keyring {
    if (!this.#keyring)
      throw new SecretsKeyError('the store has no secrets key loaded (core/secrets/unlock.ts unlockStore)');
    return this.#keyring;
  }

  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    const node = args.node;
    if (node.kind === 'InsertQueryNode') return this.#sealInsert(node);
    if (node.kind === 'UpdateQueryNode') return this.#sealUpdate(node);
    return node;
  }

  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    const rows = args.result.rows;
    if (rows.length === 0) return args.result;
    let opened: UnknownRow[] | null = null;
    for (let i = 0; i < rows.length; i++) {
      const row = rows[i] as UnknownRow;
      for (const [column, context] of contextByColumn) {
        const v = row[column];
        if (typeof v !== 'string' || !isSealed(v)) continue;
        opened ??= rows.slice();
        opened[i] = { ...(opened[i] as UnknownRow), [column]: this.keyring.open(v, context) };
      }
    }
    return opened ? { ...args.result, rows: opened } : args.result;
  }

  #sealInsert(node: InsertQueryNode): InsertQueryNode {
    const table = tableOf(node.into);
    if (!table) return node;
    const context = contextOf(table);
    const column = secretColumns[table];
    const at = node.columns?.findIndex((c) => identifierOf(c.column) === column) ?? -1;
    let values = node.values;
    if (at >= 0 && values?.kind === 'ValuesNode') {
      const list = (values as OperationNode & { values: readonly OperationNode[] }).values;
      values = {
        ...values,
        values: list.map((item) => {
          if (item.kind === 'PrimitiveValueListNode') {
            const vs = (item as OperationNode & { values: readonly unknown[] }).values;
            return { ...item, values: vs.map((v, i) => (i === at ? this.#seal(v, context) : v)) };
          }
          if (item.kind === 'ValueListNode') {
            const vs = (item as OperationNode & { values: readonly OperationNode[] }).values;
            return { ...item, values: vs.map((v, i) => (i === at ? this.#sealNode(v, context) : v)) };
          }
          return item;
        }),
      } as OperationNode;
    }
    const onConflict = node.onConflict?.updates
      ? { ...node.onConflict, updates: this.#sealUpdates(node.onConflict.updates, column, context) }
      : node.onConflict;
    return { ...node, ...(values ? { values } : {}), ...(onConflict ? { onConflict } : {}) };
  }

  #sealUpdate(node: UpdateQueryNode): UpdateQueryNode {
    const target =
      node.table?.kind === 'AliasNode' ? (node.table as OperationNode & { node: OperationNode }).node : node.table;
    const table = tableOf(target);
    if (!table || !node.updates) return node;
    return { ...node, updates: this.#sealUpdates(node.updates, secretColumns[table], contextOf(table)) };
  }

  #sealUpdates(updates: readonly ColumnUpdateNode[], column: string, context: string): readonly ColumnUpdateNode[] {
    return updates.map((u) =>
      columnNameOf(u.column) === column ? { ...u, value: this.#sealNode(u.value, context) } : u,
    );
  }

  #sealNode(node: OperationNode, context: string): OperationNode {
    if (node.kind !== 'ValueNode') {
      // Only plain values are sealed: an expression (a column reference, SQL) cannot be, so it is refused outright
      // rather than stored in the clear.
      throw new SecretsKeyError(`${context} can only be set to a value, not an expression`);
    }
    return { ...node, value: this.#seal((node as ValueNode).value, context) } as ValueNode;
  }

  #seal(value: unknown, context: string): unknown {
    return typeof value === 'string' ? this.keyring.seal(value, context) : value;
  }
}

function tableOf(node: OperationNode | undefined): SecretTable | null {
  if (node?.kind !== 'TableNode') return null;
  const name = identifierOf((node as OperationNode & { table: OperationNode }).table);
  return name !== null && Object.hasOwn(secretColumns, name) ? (name as SecretTable) : null;
}

/** The name of an IdentifierNode or SchemableIdentifierNode. */
function identifierOf(node: OperationNode): string | null {
  if (node.kind === 'IdentifierNode') return (node as OperationNode & { name: string }).name;
  if (node.kind === 'SchemableIdentifierNode')
    return identifierOf((node as OperationNode & { identifier: OperationNode }).identifier);
  return null;
}

function columnNameOf(node: OperationNode): string | null {
  if (node.kind === 'ColumnNode') return identifierOf((node as OperationNode & { column: OperationNode }).column);
  return identifierOf(node);
}
