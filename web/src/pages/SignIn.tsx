import { type FormEvent, useState } from "react";
import { signIn } from "../api/client.js";
import { ApiError } from "../api/errors.js";
import { ErrorNote, Field } from "../components/ui.js";

/** Username and password, then the TOTP code when the API answers MFA_REQUIRED. */
export function SignIn({ reason }: { reason?: string | undefined }) {
  const [username, setUsername] = useState("");
  const [password, setPassword] = useState("");
  const [code, setCode] = useState("");
  const [needCode, setNeedCode] = useState(false);
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  async function submit(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      await signIn(username, password, needCode ? code : undefined);
    } catch (err) {
      if (err instanceof ApiError && err.code === "MFA_REQUIRED") {
        if (needCode) setError("Enter the 6-digit code from your authenticator app.");
        setNeedCode(true);
      } else setError(err instanceof Error ? err.message : String(err));
    } finally {
      setBusy(false);
    }
  }

  return (
    <main className="signin">
      <form className="card" onSubmit={submit} aria-labelledby="signin-title">
        <h1 id="signin-title">
          <span className="logo" aria-hidden="true">
            ◆
          </span>{" "}
          vulnscan console
        </h1>
        {reason && (
          <p className="notice" role="status">
            {reason}
          </p>
        )}
        {!needCode ? (
          <>
            <Field label="Email">
              {(id) => (
                <input id={id} name="username" type="email" autoComplete="username" required value={username} onChange={(e) => setUsername(e.target.value)} />
              )}
            </Field>
            <Field label="Password">
              {(id) => (
                <input
                  id={id}
                  name="password"
                  type="password"
                  autoComplete="current-password"
                  required
                  value={password}
                  onChange={(e) => setPassword(e.target.value)}
                />
              )}
            </Field>
          </>
        ) : (
          <Field label="Authentication code" hint="Two-factor authentication is on for this account: enter the code from your authenticator app.">
            {(id, describedBy) => (
              <input
                id={id}
                name="mfa_code"
                inputMode="numeric"
                autoComplete="one-time-code"
                pattern="[0-9]{6}"
                maxLength={6}
                required
                // biome-ignore lint/a11y/noAutofocus: the code step has one field, focused for the user
                autoFocus
                aria-describedby={describedBy}
                value={code}
                onChange={(e) => setCode(e.target.value.trim())}
              />
            )}
          </Field>
        )}
        <ErrorNote error={error} />
        <button className="primary" type="submit" disabled={busy}>
          {needCode ? "Verify" : "Sign in"}
        </button>
      </form>
    </main>
  );
}
