import { useEffect, useState } from "react";
import { identity, isSignedIn, onSessionChange, signOut } from "./api/client.js";
import { Assets } from "./pages/Assets.js";
import { Dashboard } from "./pages/Dashboard.js";
import { FindingDetail } from "./pages/FindingDetail.js";
import { FindingList } from "./pages/Findings.js";
import { FindingsPolicy } from "./pages/sla.js";
import { NewScan, ScanList, ScanPage } from "./pages/Scans.js";
import { ApiKeys, Mfa, Sessions, SettingsNav } from "./pages/Settings.js";
import { SignIn } from "./pages/SignIn.js";
import { Compliance } from "./pages/Compliance.js";
import { Webhooks } from "./pages/Webhooks.js";
import { useAccount } from "./plan.js";
import { type Route, useRoute } from "./router.js";
import { words } from "./words.js";

export function App() {
  const [signedIn, setSignedIn] = useState(isSignedIn);
  const [reason, setReason] = useState<string>();
  const route = useRoute();
  useEffect(
    () =>
      onSessionChange((on, why) => {
        setSignedIn(on);
        setReason(on ? undefined : why);
      }),
    [],
  );
  if (!signedIn) return <SignIn reason={reason} />;
  const top = route.path[0] ?? "dashboard";
  const link = (to: string, label: string) => (
    <a href={`#/${to}`} aria-current={top === to ? "page" : undefined}>
      {label}
    </a>
  );
  return (
    <>
      {/* A button, not a #main link: the hash is the router's. */}
      <button type="button" className="skip" onClick={() => document.getElementById("main")?.focus()}>
        Skip to content
      </button>
      <header className="topbar">
        <span className="brand">
          <span className="logo" aria-hidden="true">
            ◆
          </span>{" "}
          vulnscan
        </span>
        <nav aria-label="Main">
          {link("dashboard", "Dashboard")}
          {link("scans", "Scans")}
          {link("findings", "Findings")}
          {link("assets", "Assets")}
          {link("compliance", "Compliance")}
          {link("settings", "Settings")}
          <a href="/docs" target="_blank" rel="noopener">
            API docs
          </a>
        </nav>
        <Who />
        <button type="button" className="link" onClick={() => void signOut()}>
          Sign out
        </button>
      </header>
      <main id="main" tabIndex={-1}>
        <View route={route} />
      </main>
    </>
  );
}

/** Who is signed in, to which organization, on which plan: GET /api/v1/auth/me (the token's claims meanwhile). */
function Who() {
  const token = identity();
  const acct = useAccount();
  const email = acct?.email || token?.email;
  if (!email) return null;
  const org = acct?.organization;
  return (
    <section className="who" aria-label="Signed in">
      <span className="who-email">{email}</span>
      <span className="who-org">
        {org?.name ? <span title={org.id}>{org.name}</span> : <span className="mono">{org?.id || token?.orgId}</span>}
        {org?.plan && <> · {words("plan", org.plan)} plan</>}
      </span>
    </section>
  );
}

function View({ route }: { route: Route }) {
  const [top, id] = route.path;
  switch (top) {
    case undefined:
    case "dashboard":
      return <Dashboard />;
    case "scans":
      if (id === "new") return <NewScan />;
      return id ? <ScanPage id={id} /> : <ScanList route={route} />;
    case "findings":
      return id ? <FindingDetail id={id} /> : <FindingList route={route} />;
    case "assets":
      return <Assets />;
    case "compliance":
      return <Compliance route={route} />;
    case "settings":
      // Controls used to live under Settings: old links land on the same list or control.
      if (id === "controls") return <Moved to={`/compliance/${route.path.slice(1).map(encodeURIComponent).join("/")}`} query={route.query} />;
      return <Settings tab={id ?? "api-keys"} />;
    default:
      return (
        <p role="alert">
          No such page. <a href="#/dashboard">Go to the dashboard</a>.
        </p>
      );
  }
}

/** Replaces the URL (no history entry) with where the page lives now. */
function Moved({ to, query }: { to: string; query: URLSearchParams }) {
  useEffect(() => {
    const q = query.toString();
    window.location.replace(`#${to}${q ? `?${q}` : ""}`);
  }, [to, query]);
  return null;
}

function Settings({ tab }: { tab: string }) {
  const pages: Record<string, () => React.ReactNode> = {
    "api-keys": () => <ApiKeys />,
    sessions: () => <Sessions />,
    mfa: () => <Mfa />,
    webhooks: () => <Webhooks />,
    findings: () => <FindingsPolicy />,
  };
  return (
    <section aria-labelledby="settings-title">
      <h1 id="settings-title">Settings</h1>
      <SettingsNav current={tab} />
      {(pages[tab] ?? pages["api-keys"]!)()}
    </section>
  );
}
