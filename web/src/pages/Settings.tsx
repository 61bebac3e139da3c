import QRCode from "qrcode";
import { useEffect, useState } from "react";
import { endOfDay } from "../api/bodies.js";
import { api, forget } from "../api/client.js";
import { text, useApiForm } from "../components/forms.js";
import { type ApiKey, PERMISSIONS, type Session } from "../api/types.js";
import { words } from "../words.js";
import { Checks, ErrorNote, Field, Hidden, Loading, Table, Submit, Unavailable, useLoad, when } from "../components/ui.js";

export function SettingsNav({ current }: { current: string }) {
  const tabs = [
    ["api-keys", "API Keys"],
    ["sessions", "Sessions"],
    ["mfa", "Two-factor authentication"],
    ["webhooks", "Webhooks"],
    ["controls", "Controls"],
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
      {keys.loading && !keys.data && <Loading what="API keys" />}
      {keys.data && (
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

/** Enrolment: setup gives a secret and an otpauth URI (shown as a QR code), enable confirms a code. */
export function Mfa() {
  const [setup, setSetup] = useState<{ secret: string; otpauth_uri: string }>();
  const [qr, setQr] = useState<string>();
  const [state, setState] = useState<string>();
  const [error, setError] = useState<string>();

  useEffect(() => {
    if (setup) void QRCode.toDataURL(setup.otpauth_uri, { margin: 1, width: 200 }).then(setQr);
  }, [setup]);

  async function call(path: string, code?: string) {
    setError(undefined);
    try {
      if (path === "setup") setSetup(await api("/api/v1/auth/mfa/setup", { method: "POST" }));
      else {
        const res = await api<{ mfa_enabled: boolean }>(`/api/v1/auth/mfa/${path}`, { method: "POST", body: { code } });
        setState(res.mfa_enabled ? "Two-factor authentication is on." : "Two-factor authentication is off.");
        setSetup(undefined);
      }
    } catch (err) {
      setError((err as Error).message);
    }
  }

  const codeForm = (action: "enable" | "disable", label: string) => (
    <form
      className="inline"
      aria-label={label}
      onSubmit={(e) => {
        e.preventDefault();
        void call(action, String(new FormData(e.currentTarget).get("code") ?? "").trim());
      }}
    >
      <Field label="6-digit code">
        {(id) => <input id={id} name="code" inputMode="numeric" pattern="[0-9]{6}" maxLength={6} required autoComplete="one-time-code" />}
      </Field>
      <button type="submit" className={action === "disable" ? "danger" : "primary"}>
        {label}
      </button>
    </form>
  );

  return (
    <div className="card">
      <h2>Two-factor authentication</h2>
      <p>Protect your sign-in with a time-based code from an authenticator app.</p>
      {state && <p role="status">{state}</p>}
      <ErrorNote error={error} />
      {setup ? (
        <>
          <p>Scan this QR code with your authenticator app, or enter the secret by hand.</p>
          {qr && <img src={qr} width={200} height={200} alt="QR code of the authenticator secret" />}
          <p>
            Secret: <code data-testid="mfa-secret">{setup.secret}</code>
          </p>
          {codeForm("enable", "Turn on")}
        </>
      ) : (
        <button type="button" onClick={() => void call("setup")}>
          Set up an authenticator
        </button>
      )}
      <h3>Turn off</h3>
      {codeForm("disable", "Turn off")}
    </div>
  );
}
