/** Tables of the dashboard's people: users, memberships, sessions, sign-in and two-factor state. */

/** A person who signs in to the merchant dashboard; one row per e-mail address (lower case). */
export interface DashboardUserTable {
  id: string;
  email: string;
  /** `scrypt$N$r$p$salt$hash` (core/users/passwords.ts); null until the user set one through a link. */
  password_hash: string | null;
  active: number;
  created_at: number;
  updated_at: number;
  last_sign_in_at: number | null;
}

/** A user's role in one merchant: owners change things, viewers read, cashiers sell at the point of sale. */
export interface DashboardMembershipTable {
  user_id: string;
  merchant_id: string;
  role: 'owner' | 'viewer' | 'cashier';
  created_at: number;
}

/** A signed-in browser; `token_hash` is sha256 of the cookie's token, which is never stored. */
export interface DashboardSessionTable {
  id: string;
  token_hash: string;
  user_id: string;
  created_at: number;
  /** Idle expiry counts from here; written at most once a minute per session. */
  last_seen_at: number;
  /** Absolute expiry. */
  expires_at: number;
}

/** A one-time link to set a password (`user create` without --password-stdin, `user reset-password`). */
export interface DashboardPasswordTokenTable {
  token_hash: string;
  user_id: string;
  created_at: number;
  expires_at: number;
  used_at: number | null;
}

/** Failed sign-ins per client address (`addr:...`) and per account (`acct:...`) in a fixed window. */
export interface DashboardSignInFailureTable {
  key: string;
  failures: number;
  window_ends_at: number;
}

/** A user's TOTP secret (core/users/two-factor.ts); `enabled_at` null while enrolment awaits its first code. */
export interface DashboardTwoFactorTable {
  user_id: string;
  secret: string;
  created_at: number;
  enabled_at: number | null;
  /** The last TOTP time step accepted: a code of this step or an earlier one is a replay. */
  last_step: number | null;
}

/** A one-time recovery code, SHA-256 only. */
export interface DashboardRecoveryCodeTable {
  code_hash: string;
  user_id: string;
  created_at: number;
  used_at: number | null;
}

/** A sign-in whose password was right, awaiting its second factor; SHA-256 of its token. */
export interface DashboardPendingSignInTable {
  token_hash: string;
  user_id: string;
  expires_at: number;
}

/** A merchant whose owner requires two-factor sign-in of every member. */
export interface MerchantTwoFactorRequirementTable {
  merchant_id: string;
  created_at: number;
}
