import { z } from 'zod';
import { isoOrNull } from '../../core/clock.js';
import { AppError } from '../../core/errors.js';
import { getMerchant } from '../../core/merchants/merchants.js';
import { addUser, deactivateUser, resetPassword } from '../../core/users/accounts.js';
import { membershipsOf, roles } from '../../core/users/memberships.js';
import { listUsers } from '../../core/users/users.js';
import { type CliContext, type Command, UsageError } from './command.js';
import { check, print } from './output.js';

const emailSchema = z.email({ error: 'must be an e-mail address' }).max(254);

/** The password piped in (`--password-stdin`): one line, its line break dropped; never echoed or logged. */
async function passwordFromStdin(ctx: CliContext): Promise<string> {
  const text = (await ctx.readStdin()).replace(/\r?\n$/, '');
  if (text === '') throw new UsageError('--password-stdin: standard input was empty');
  return text;
}

/** Where a one-time link lands: the dashboard's set-password page, the token in the fragment (never sent anywhere). */
function setPasswordLink(ctx: CliContext, token: string): string {
  return `${ctx.publicUrl}/dashboard/set-password#token=${token}`;
}

/** Failures of the account functions as the CLI reports them: one line, exit code 2. */
async function asUsage<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (e) {
    if (e instanceof AppError) throw new UsageError(e.errors ? Object.values(e.errors).flat().join('; ') : e.message);
    throw e;
  }
}

export const userCommands: Command[] = [
  {
    name: 'user create',
    summary:
      'Gives an e-mail address a role in a merchant (a new dashboard user, or a membership for an existing one). Without --password-stdin a new user gets a one-time link to set a password.',
    options: {
      merchant: { type: 'string', description: 'merchant_id', required: true },
      email: { type: 'string', description: 'The user’s e-mail address (sign-in name)', required: true },
      role: { type: 'string', description: 'owner (changes things) or viewer (reads)', required: true },
      'password-stdin': { type: 'boolean', description: 'Read the password from standard input' },
      json: { type: 'boolean', description: 'Print one JSON object' },
    },
    async run(ctx, v) {
      const email = check(emailSchema, v.email, 'email');
      const role = check(z.enum(roles), v.role, 'role');
      const password = v['password-stdin'] ? await passwordFromStdin(ctx) : undefined;
      const r = await asUsage(addUser(ctx, { merchantId: String(v.merchant), email, role, password }));
      const link = r.passwordToken ? setPasswordLink(ctx, r.passwordToken) : null;
      const out = {
        user_id: r.user.id,
        email: r.user.email,
        merchant_id: v.merchant,
        role,
        created: r.created,
        set_password_url: link,
      };
      const next = link
        ? `One-time link to set the password (valid 24 hours, once):\n  ${link}`
        : r.created
          ? null
          : 'Their password is unchanged; they switch merchants in the dashboard.';
      const done = `${r.created ? 'Created' : 'Added'} ${r.user.email} as ${role} of ${v.merchant}.`;
      print(v.json === true, ctx.out, out, next ? `${done}\n${next}` : done);
    },
  },
  {
    name: 'user list',
    summary: 'Lists dashboard users with their merchants and roles (never passwords).',
    options: {
      merchant: { type: 'string', description: 'Only users of this merchant_id' },
      json: { type: 'boolean', description: 'Print JSON' },
    },
    async run(ctx, v) {
      const merchantId = v.merchant as string | undefined;
      if (merchantId !== undefined && !(await getMerchant(ctx.db, merchantId)))
        throw new UsageError(`--merchant: no merchant ${merchantId}`);
      const rows = [];
      for (const u of await listUsers(ctx.db, merchantId)) {
        rows.push({
          user_id: u.id,
          email: u.email,
          active: u.active === 1,
          password_set: u.password_hash !== null,
          last_sign_in_at: isoOrNull(u.last_sign_in_at),
          merchants: (await membershipsOf(ctx.db, u.id)).map((m) => ({ merchant_id: m.merchant_id, role: m.role })),
        });
      }
      const lines = rows.map(
        (r) =>
          `${r.email}  ${r.active ? 'active' : 'deactivated'}${r.password_set ? '' : ' (no password yet)'}  ${r.merchants.map((m) => `${m.merchant_id}:${m.role}`).join(' ')}`,
      );
      print(v.json === true, ctx.out, rows, lines.length === 0 ? '(no users)' : lines.join('\n'));
    },
  },
  {
    name: 'user deactivate',
    summary:
      'Takes a user’s dashboard access away and signs them out at once: from one merchant with --merchant, else everywhere.',
    options: {
      email: { type: 'string', description: 'The user’s e-mail address', required: true },
      merchant: { type: 'string', description: 'Only remove the role in this merchant_id' },
      json: { type: 'boolean', description: 'Print JSON' },
    },
    async run(ctx, v) {
      const email = check(emailSchema, v.email, 'email');
      const u = await asUsage(deactivateUser(ctx, email, v.merchant as string | undefined));
      const what = v.merchant ? `removed from ${v.merchant}` : 'deactivated';
      print(
        v.json === true,
        ctx.out,
        {
          user_id: u.id,
          email: u.email,
          [v.merchant ? 'removed_from' : 'deactivated']: v.merchant ?? true,
        },
        `${u.email} ${what}; their sessions ended.`,
      );
    },
  },
  {
    name: 'user reset-password',
    summary:
      'Signs a user out everywhere and prints a one-time link to set a new password (or reads it from standard input with --password-stdin).',
    options: {
      email: { type: 'string', description: 'The user’s e-mail address', required: true },
      'password-stdin': { type: 'boolean', description: 'Read the new password from standard input' },
      json: { type: 'boolean', description: 'Print JSON' },
    },
    async run(ctx, v) {
      const email = check(emailSchema, v.email, 'email');
      const password = v['password-stdin'] ? await passwordFromStdin(ctx) : undefined;
      const r = await asUsage(resetPassword(ctx, email, password));
      const link = r.passwordToken ? setPasswordLink(ctx, r.passwordToken) : null;
      print(
        v.json === true,
        ctx.out,
        { user_id: r.user.id, email: r.user.email, set_password_url: link },
        link
          ? `One-time link for ${r.user.email} (valid 24 hours, once):\n  ${link}`
          : `Password of ${r.user.email} set.`,
      );
    },
  },
];
