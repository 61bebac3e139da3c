import { useEffect, useState } from "react";
import { isSignedIn, onSessionChange, signOut } from "./api/client.js";
import { Dashboard } from "./pages/Dashboard.js";
import { FindingDetail } from "./pages/FindingDetail.js";
import { FindingList } from "./pages/Findings.js";
import { NewScan, ScanList, ScanPage } from "./pages/Scans.js";
import { ApiKeys, Mfa, Sessions, SettingsNav } from "./pages/Settings.js";
import { SignIn } from "./pages/SignIn.js";
import { Controls } from "./pages/Controls.js";
import { Webhooks } from "./pages/Webhooks.js";
import { type Route, useRoute } from "./router.js";

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
          {link("settings", "Settings")}
          <a href="/docs" target="_blank" rel="noopener">
            API docs
          </a>
        </nav>
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
    case "settings":
      return <Settings tab={id ?? "api-keys"} route={route} />;
    default:
      return (
        <p role="alert">
          No such page. <a href="#/dashboard">Go to the dashboard</a>.
        </p>
      );
  }
}

function Settings({ tab, route }: { tab: string; route: Route }) {
  const pages: Record<string, () => React.ReactNode> = {
    "api-keys": () => <ApiKeys />,
    sessions: () => <Sessions />,
    mfa: () => <Mfa />,
    webhooks: () => <Webhooks />,
    controls: () => <Controls route={route} />,
  };
  return (
    <section aria-labelledby="settings-title">
      <h1 id="settings-title">Settings</h1>
      <SettingsNav current={tab} />
      {(pages[tab] ?? pages["api-keys"]!)()}
    </section>
  );
}
