import QRCode from "qrcode";
import { useEffect, useState } from "react";
import { endOfDay } from "../api/bodies.js";
import { api, forget } from "../api/client.js";
import { text, useApiForm } from "../components/forms.js";
import { type ApiKey, PERMISSIONS, type Session } from "../api/types.js";
import { count, words } from "../words.js";
import { ApiError, plainWords } from "../api/errors.js";
import { PlanNotice } from "../components/PlanNotice.js";
import { planIncludes, usePlan } from "../plan.js";
import { Checks, ErrorNote, Field, Hidden, Loading, Table, Submit, Unavailable, useLoad, when } from "../components/ui.js";

export function SettingsNav({ current }: { current: string }) {
  const tabs = [
    ["api-keys", "API Keys"],
    ["sessions", "Sessions"],
    ["mfa", "Two-factor authentication"],
    ["webhooks", "Webhooks"],
    ["findings", "Findings policy"],
  ] as const;
  return (
    <nav className="tabs" aria-label="Settings">
      {tabs.map(([k, label]) => (
        <a key={k} href={`#/settings/${k}`} aria-current={current === k ? "page" : undefined}>
          {label}
        </a>
      ))}
    </nav>
  );
}

const KEY_FIELDS = ["name", "permissions", "expires_at"] as const;

export function ApiKeys() {
  const plan = usePlan();
  const keys = useLoad(() => api<{ items: ApiKey[] }>("/api/v1/auth/api-keys"), []);
  const [created, setCreated] = useState<ApiKey>();
  const [copied, setCopied] = useState(false);
  const {
    errors,
    setErrors,
    onSubmit: create,
  } = useApiForm(KEY_FIELDS, async (f, form) => {
    const expires = text(f, "expires_at");
    setCopied(false);
    const key = await api<ApiKey>("/api/v1/auth/api-keys", {
      method: "POST",
      body: {
        name: text(f, "name"),
        permissions: f.getAll("permissions").map(String),
        ...(expires ? { expires_at: endOfDay(expires) } : {}),
      },
    });
    setCreated(key);
    form.reset();
    await keys.reload();
  });

  async function revoke(k: ApiKey) {
    if (!window.confirm(`Revoke the API key "${k.name}"? Programs using it stop working.`)) return;
    try {
      await api(`/api/v1/auth/api-keys/${encodeURIComponent(k.id)}`, { method: "DELETE" });
      await keys.reload();
    } catch (err) {
      setErrors({ "": (err as Error).message });
    }
  }

  if (keys.error && !keys.data) return <Unavailable feature="API keys" error={keys.error} />;
  return (
    <>
      {created?.key && (
        <div className="card reveal" role="status" aria-labelledby="key-title">
          <h2 id="key-title">Your new API key “{created.name}”</h2>
          <p>Copy it now: it is shown only once. {created.expires_at ? `It expires ${when(created.expires_at)}.` : "It does not expire."}</p>
          <div className="copy">
            <code data-testid="new-api-key">{created.key}</code>
            <button
              type="button"
              onClick={() =>
                void navigator.clipboard
                  ?.writeText(created.key ?? "")
                  .then(() => setCopied(true))
                  .catch(() => undefined)
              }
            >
              {copied ? "Copied" : "Copy"}
            </button>
          </div>
          <button type="button" onClick={() => setCreated(undefined)}>
            Done
          </button>
        </div>
      )}
      {planIncludes(plan, "apiKeys") ? (
        <form className="card form" aria-labelledby="newkey-title" onSubmit={create} noValidate>
          <h2 id="newkey-title">Create an API key</h2>
          <Field label="Name" error={errors.name}>
            {(id, d) => <input id={id} name="name" aria-describedby={d} aria-invalid={!!errors.name} />}
          </Field>
          <Checks
            legend="Permissions"
            name="permissions"
            options={PERMISSIONS}
            label={(p) => words("permission", p)}
            checked={(p) => p.startsWith("read:")}
            error={errors.permissions}
          />
          <Field
            label="Expires on"
            error={errors.expires_at}
            hint="Every key expires. Leave empty for the server's default: 90 days from now unless the operator changed it (AUTH_API_KEY_DEFAULT_TTL_DAYS). At most 2 years ahead."
          >
            {(id, d) => <input id={id} name="expires_at" type="date" aria-describedby={d} />}
          </Field>
          <Submit label="Create key" error={errors[""]} />
        </form>
      ) : (
        <PlanNotice
          feature="apiKeys"
          instead={
            <>
              Meanwhile, scripts can use a bearer token: <code>POST /api/v1/auth/token</code> with your email and password, as the{" "}
              <a href="/docs" target="_blank" rel="noopener">
                API docs
              </a>{" "}
              show.
            </>
          }
        />
      )}
      {keys.loading && !keys.data && <Loading what="API keys" />}
      {keys.data && keys.data.items.length === 0 && <p className="muted">No API keys yet.</p>}
      {keys.data && keys.data.items.length > 0 && (
        <Table caption="API keys" columns={["Name", "Key", "Permissions", "Expires", "Last used", <Hidden key="h" text="Actions" />]}>
          {keys.data.items.map((k) => (
            <tr key={k.id} className={k.revoked ? "revoked" : ""}>
              <td>{k.name}</td>
              <td className="mono">{k.prefix}…</td>
              <td>{k.permissions.map((p) => words("permission", p)).join(", ")}</td>
              <td>{k.expires_at ? when(k.expires_at) : "never"}</td>
              <td>{when(k.last_used_at)}</td>
              <td>
                {k.revoked ? (
                  "revoked"
                ) : (
                  <button type="button" className="danger" onClick={() => void revoke(k)} aria-label={`Revoke ${k.name}`}>
                    Revoke
                  </button>
                )}
              </td>
            </tr>
          ))}
        </Table>
      )}
    </>
  );
}

export function Sessions() {
  const sessions = useLoad(() => api<{ items: Session[] }>("/api/v1/auth/sessions"), []);
  const [error, setError] = useState<string>();

  async function revoke(s: Session) {
    try {
      await api(`/api/v1/auth/sessions/${encodeURIComponent(s.id)}`, { method: "DELETE" });
      if (s.current) forget();
      else await sessions.reload();
    } catch (err) {
      setError((err as Error).message);
    }
  }

  async function everywhere() {
    if (!window.confirm("Sign out of every session, this one included?")) return;
    try {
      await api("/api/v1/auth/logout-all", { method: "POST" });
      forget("You signed out everywhere.");
    } catch (err) {
      setError((err as Error).message);
    }
  }

  return (
    <>
      <ErrorNote error={sessions.error ?? error} />
      {sessions.data && (
        <Table caption="Active sessions" columns={["Signed in", "Last used", "Address", "Browser", <Hidden key="h" text="Actions" />]}>
          {sessions.data.items.map((s) => (
            <tr key={s.id}>
              <td>
                {when(s.created_at)} {s.current && <span className="badge status-open">this session</span>}
              </td>
              <td>{when(s.last_used_at)}</td>
              <td>{s.ip}</td>
              <td className="small">{s.user_agent}</td>
              <td>
                <button type="button" className="danger" onClick={() => void revoke(s)}>
                  Revoke
                </button>
              </td>
            </tr>
          ))}
        </Table>
      )}
      <button type="button" className="danger" onClick={() => void everywhere()}>
        Sign out everywhere
      </button>
    </>
  );
}

/** GET /api/v1/auth/me: the signed-in user, their MFA state and organization. */
export interface Me {
  id: string;
  email: string;
  mfa_enabled: boolean;
  recovery_codes_remaining: number;
  organization: { id: string; name: string; plan: string };
}

/**
 * Two-factor authentication as the server has it (GET /api/v1/auth/me, so it survives a reload):
 * off → "Set up" (secret and QR code, then a code turns it on and the recovery codes are shown
 * once); on → how many recovery codes are left, new codes, and "Turn off". Never both.
 */
export function Mfa() {
  const me = useLoad(() => api<Me>("/api/v1/auth/me"), []);
  const [setup, setSetup] = useState<{ secret: string; otpauth_uri: string }>();
  const [qr, setQr] = useState<string>();
  const [codes, setCodes] = useState<string[]>();
  const [note, setNote] = useState<string>();
  const [error, setError] = useState<string>();

  useEffect(() => {
    if (setup) void QRCode.toDataURL(setup.otpauth_uri, { margin: 1, width: 200 }).then(setQr);
  }, [setup]);

  async function act(what: () => Promise<void>) {
    setError(undefined);
    setNote(undefined);
    try {
      await what();
      await me.reload();
    } catch (err) {
      setError(err instanceof ApiError ? plainWords(err.body) : (err as Error).message);
    }
  }
  const startSetup = () => act(async () => setSetup(await api("/api/v1/auth/mfa/setup", { method: "POST" })));
  const turnOn = (code: string) =>
    act(async () => {
      const res = await api<{ mfa_enabled: boolean; recovery_codes?: string[] }>("/api/v1/auth/mfa/enable", { method: "POST", body: { code } });
      setSetup(undefined);
      setCodes(res.recovery_codes);
      setNote("Two-factor authentication is on.");
    });
  const turnOff = (code: string) =>
    act(async () => {
      await api("/api/v1/auth/mfa/disable", { method: "POST", body: { code } });
      setCodes(undefined);
      setNote("Two-factor authentication is off.");
    });
  const newCodes = (code: string) =>
    act(async () => setCodes((await api<{ recovery_codes: string[] }>("/api/v1/auth/mfa/recovery-codes", { method: "POST", body: { code } })).recovery_codes));

  const codeForm = (label: string, field: string, onCode: (code: string) => Promise<void>, danger = false) => (
    <form
      className="inline"
      aria-label={label}
      onSubmit={(e) => {
        e.preventDefault();
        void onCode(String(new FormData(e.currentTarget).get("code") ?? "").trim());
      }}
    >
      <Field label={field}>{(id) => <input id={id} name="code" required autoComplete="one-time-code" />}</Field>
      <button type="submit" className={danger ? "danger" : "primary"}>
        {label}
      </button>
    </form>
  );

  const setupSteps = setup && (
    <>
      <p>Scan this QR code with your authenticator app, or enter the secret by hand.</p>
      {qr && <img src={qr} width={200} height={200} alt="QR code of the authenticator secret" />}
      <p>
        Secret: <code data-testid="mfa-secret">{setup.secret}</code>
      </p>
      {codeForm("Turn on", "6-digit code", turnOn)}
    </>
  );
  // A gateway without GET /api/v1/auth/me cannot say whether MFA is on: both actions are offered there.
  const unknown = me.error instanceof ApiError && me.error.status === 404;
  const m = unknown ? undefined : me.data;
  return (
    <div className="card">
      <h2>Two-factor authentication</h2>
      <p>Protect your sign-in with a time-based code from an authenticator app.</p>
      {note && <p role="status">{note}</p>}
      <ErrorNote error={error} />
      {codes && <RecoveryCodes codes={codes} onDone={() => setCodes(undefined)} />}
      {unknown ? (
        <>
          {setupSteps || <SetupButton onClick={startSetup} />}
          <h3>Turn off</h3>
          {codeForm("Turn off", "Code from your app or a recovery code", turnOff, true)}
        </>
      ) : !m ? (
        me.error ? (
          <ErrorNote error={me.error} />
        ) : (
          <Loading what="your sign-in settings" />
        )
      ) : m.mfa_enabled ? (
        <>
          <p className="ok" data-testid="mfa-state">
            On. {count(m.recovery_codes_remaining, "unused recovery code")} left.
          </p>
          <h3>New recovery codes</h3>
          <p className="small">Replaces every earlier code: the old ones stop working.</p>
          {codeForm("Get new recovery codes", "Code from your app", newCodes)}
          <h3>Turn off</h3>
          {codeForm("Turn off", "Code from your app or a recovery code", turnOff, true)}
        </>
      ) : (
        <>
          <p data-testid="mfa-state">Off.</p>
          {setupSteps || <SetupButton onClick={startSetup} />}
        </>
      )}
    </div>
  );
}

function SetupButton({ onClick }: { onClick: () => Promise<void> }) {
  return (
    <button type="button" onClick={() => void onClick()}>
      Set up an authenticator
    </button>
  );
}

/** Recovery codes, shown once: each signs in once without the app. Copy or download, then Done. */
function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const [copied, setCopied] = useState(false);
  const text = `${codes.join("\n")}\n`;
  return (
    <section className="card reveal" aria-labelledby="codes-title">
      <h3 id="codes-title">Save your recovery codes</h3>
      <p>
        Shown only now. Each code signs you in once if you lose your authenticator (type it where the 6-digit code goes); keep them somewhere safe, such as a
        password manager.
      </p>
      <ul className="codes mono" aria-label="Recovery codes">
        {codes.map((c) => (
          <li key={c}>{c}</li>
        ))}
      </ul>
      <div className="actions">
        <button
          type="button"
          onClick={() =>
            void navigator.clipboard
              ?.writeText(text)
              .then(() => setCopied(true))
              .catch(() => undefined)
          }
        >
          {copied ? "Copied" : "Copy"}
        </button>
        <a className="button" href={`data:text/plain;charset=utf-8,${encodeURIComponent(text)}`} download="vulnscan-recovery-codes.txt">
          Download
        </a>
        <button type="button" className="primary" onClick={onDone}>
          I have saved them
        </button>
      </div>
    </section>
  );
}
