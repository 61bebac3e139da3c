import { Accounts } from "./accounts.js";
import { ApiKeys } from "./api-keys.js";
import { AuthStateReader } from "./auth-state.js";
import { Directory } from "./directory.js";
import { Login } from "./login.js";
import { Mfa } from "./mfa.js";
import type { PasswordHasher } from "./passwords.js";
import type {
  ApiKeyRepository,
  AttemptCounter,
  AuthObserver,
  Clock,
  OrganizationRepository,
  SessionRepository,
  SigningKeyRepository,
  UserRepository,
} from "./ports.js";
import { Sessions } from "./sessions.js";
import type { AuthSettings } from "./settings.js";
import { Keyring } from "./tokens.js";

export interface AuthDeps {
  orgs: OrganizationRepository;
  users: UserRepository;
  sessions: SessionRepository;
  apiKeys: ApiKeyRepository;
  signingKeys: SigningKeyRepository;
  attempts: AttemptCounter;
  hasher: PasswordHasher;
  settings: AuthSettings;
  observer: AuthObserver;
  now: Clock;
  /** How long a signing key signs before the next generation takes over. */
  keyRotationMs: number;
  /** A write done off the response path failed (login failure records). */
  onBackgroundError?: (err: unknown) => void;
}

/** The use cases of identity, wired to their ports. */
export function createAuthDomain(d: AuthDeps) {
  const keyring = new Keyring(d.signingKeys, { rotationMs: d.keyRotationMs, tokenTtlSeconds: d.settings.tokenTtlSeconds, now: d.now });
  const sessions = new Sessions(d);
  return {
    keyring,
    directory: new Directory(d),
    login: new Login({ ...d, keyring }),
    sessions,
    accounts: new Accounts({ users: d.users, sessions, now: d.now }),
    authState: new AuthStateReader(d),
    mfa: new Mfa(d),
    apiKeys: new ApiKeys(d),
  };
}

export type AuthDomain = ReturnType<typeof createAuthDomain>;
