import { useState } from "react";
import { api } from "../api/client.js";
import { text, useApiForm } from "../components/forms.js";
import { type Control, type Delivery, type Page, WEBHOOK_EVENTS, type Webhook } from "../api/types.js";
import { Badge, Checks, ErrorNote, Field, Loading, Table, Submit, Unavailable, useLoad, when } from "../components/ui.js";

const HOOK_FIELDS = ["name", "url", "events", "secret"] as const;

export function Webhooks() {
  const hooks = useLoad(() => api<Page<Webhook> | { items: Webhook[] }>("/api/v1/webhooks"), []);
  const [open, setOpen] = useState<string>();
  const [tested, setTested] = useState<Record<string, string>>({});

  const { errors, onSubmit: create } = useApiForm(HOOK_FIELDS, async (f, form) => {
    const secret = text(f, "secret");
    await api("/api/v1/webhooks", {
      method: "POST",
      body: { name: text(f, "name"), url: text(f, "url"), events: f.getAll("events").map(String), ...(secret ? { secret } : {}) },
    });
    form.reset();
    await hooks.reload();
  });

  async function act(h: Webhook, what: "toggle" | "delete" | "test") {
    const path = `/api/v1/webhooks/${encodeURIComponent(h.id)}`;
    try {
      if (what === "toggle") await api(path, { method: "PATCH", body: { active: !h.active } });
      if (what === "delete") {
        if (!window.confirm(`Delete the webhook "${h.name}"?`)) return;
        await api(path, { method: "DELETE" });
      }
      if (what === "test") {
        const r = await api<{ status: string; response_code: number; response_time_ms: number }>(`${path}/test`, { method: "POST" });
        setTested((t) => ({ ...t, [h.id]: `${r.status}: HTTP ${r.response_code} in ${r.response_time_ms} ms` }));
      }
      await hooks.reload();
    } catch (err) {
      setTested((t) => ({ ...t, [h.id]: (err as Error).message }));
    }
  }

  if (hooks.error && !hooks.data) return <Unavailable feature="Webhooks" error={hooks.error} />;
  return (
    <>
      <form className="card form" aria-labelledby="newhook-title" onSubmit={create} noValidate>
        <h2 id="newhook-title">Add a webhook</h2>
        <Field label="Name" error={errors.name}>
          {(id, d) => <input id={id} name="name" aria-describedby={d} />}
        </Field>
        <Field label="URL" error={errors.url} hint="HTTPS endpoint that receives signed POST requests.">
          {(id, d) => <input id={id} name="url" type="url" aria-describedby={d} placeholder="https://hooks.example.com/vulnscan" />}
        </Field>
        <Checks legend="Events" name="events" options={WEBHOOK_EVENTS} checked={(ev) => ev === "scan.completed"} error={errors.events} />
        <Field label="Signing secret" error={errors.secret} hint="Optional; deliveries then carry X-Service-Signature.">
          {(id, d) => <input id={id} name="secret" type="password" autoComplete="new-password" aria-describedby={d} />}
        </Field>
        <Submit label="Add webhook" error={errors[""]} />
      </form>
      {hooks.loading && !hooks.data && <Loading what="webhooks" />}
      {hooks.data?.items.map((h) => (
        <div className="card" key={h.id}>
          <div className="heading">
            <h3>
              {h.name} <Badge kind="status" value={h.active ? "active" : "disabled"} />
            </h3>
            <div className="actions">
              <button type="button" onClick={() => void act(h, "test")}>
                Send test
              </button>
              <button type="button" onClick={() => void act(h, "toggle")}>
                {h.active ? "Disable" : "Enable"}
              </button>
              <button type="button" onClick={() => setOpen(open === h.id ? undefined : h.id)} aria-expanded={open === h.id}>
                Deliveries
              </button>
              <button type="button" className="danger" onClick={() => void act(h, "delete")}>
                Delete
              </button>
            </div>
          </div>
          <p className="mono small">{h.url}</p>
          <p className="small">{h.events.join(", ")}</p>
          {tested[h.id] && <p role="status">{tested[h.id]}</p>}
          {open === h.id && <Deliveries id={h.id} />}
        </div>
      ))}
    </>
  );
}

function Deliveries({ id }: { id: string }) {
  const list = useLoad(() => api<{ items: Delivery[]; total: number }>(`/api/v1/webhooks/${encodeURIComponent(id)}/deliveries`), [id]);
  if (list.error) return <ErrorNote error={list.error} />;
  if (!list.data) return <Loading what="deliveries" />;
  return (
    <Table caption={`Deliveries (${list.data.total})`} columns={["Event", "Status", "HTTP", "Time", "Attempts", "When"]}>
      {list.data.items.map((d) => (
        <tr key={d.id}>
          <td>{d.event}</td>
          <td>
            <Badge kind="status" value={d.status} /> {d.error && <span className="small">{d.error}</span>}
          </td>
          <td>{d.response_code ?? "—"}</td>
          <td>{d.response_time_ms !== undefined ? `${d.response_time_ms} ms` : "—"}</td>
          <td>{d.attempts}</td>
          <td>
            {when(d.created_at)}
            {d.next_retry && <div className="small">next retry {when(d.next_retry)}</div>}
          </td>
        </tr>
      ))}
    </Table>
  );
}

export function Controls() {
  const controls = useLoad(() => api<{ items: Control[] }>("/api/v1/controls"), []);
  if (controls.error && !controls.data) return <Unavailable feature="Controls" error={controls.error} />;
  if (!controls.data) return <Loading what="controls" />;
  return (
    <Table
      caption="Compliance controls"
      columns={["Control", "Status", "Frameworks", "Evidence"]}
      empty={controls.data.items.length === 0 && "No controls yet."}
    >
      {controls.data.items.map((c) => (
        <tr key={c.id}>
          <td>
            {c.name} <span className="muted small">{c.id}</span>
          </td>
          <td>
            <Badge kind="status" value={c.status} />
          </td>
          <td>{c.frameworks.join(", ")}</td>
          <td>{c.evidence_count}</td>
        </tr>
      ))}
    </Table>
  );
}
