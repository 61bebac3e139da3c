// Settings > Webhooks on the public API (gateway/src/routes/webhooks): list, add, edit, delete,
// send a test, and each webhook's delivery history with filters, pages and a manual retry.
import { useState } from "react";
import { api } from "../api/client.js";
import { webhookBody } from "../api/bodies.js";
import { ApiError } from "../api/errors.js";
import { DELIVERY_STATUSES, type Delivery, type Page, WEBHOOK_EVENTS, type Webhook, type WebhookTest } from "../api/types.js";
import { formValues, useApiForm } from "../components/forms.js";
import { optionsOf, words } from "../words.js";
import { PlanNotice } from "../components/PlanNotice.js";
import { planIncludes, usePlan } from "../plan.js";
import { Badge, Checks, Choice, ErrorNote, Field, Hidden, Loading, PagedTable, Pager, Submit, Unavailable, useLoad, when } from "../components/ui.js";

const HOOK_FIELDS = ["name", "url", "events", "secret", "active"] as const;
const hookPath = (id: string) => `/api/v1/webhooks/${encodeURIComponent(id)}`;
/*
 * What the dispatcher allows (services/webhook-dispatcher/src/delivery/url-policy.ts): the
 * operator's egress allowlist decides, and the API names a refused address on this field.
 */
const URL_HINT =
  "An https URL; every event is POSTed to it. The server's egress allowlist decides which addresses it may reach: public ones by default; " +
  "the local stack (npm start) allows only loopback and the scan lab's 10.231.0.0/16 (WEBHOOK_ALLOWED_NETWORKS). A refused address is named here when you save.";
const planRefusal = (err: unknown) => err instanceof ApiError && err.status === 403 && err.code === "PLAN_UPGRADE_REQUIRED";

export function Webhooks() {
  const plan = usePlan();
  const [page, setPage] = useState(1);
  const hooks = useLoad(() => api<Page<Webhook>>("/api/v1/webhooks", { query: { page, per_page: 20 } }), [page]);
  // Set only when the API refuses the feature itself for this organization's plan.
  const [planError, setPlanError] = useState<ApiError>();

  const { errors, busy, onSubmit } = useApiForm(HOOK_FIELDS, async (f, form) => {
    try {
      await api<Webhook>("/api/v1/webhooks", { method: "POST", body: webhookBody(f) });
    } catch (err) {
      // "Webhooks require the Professional or Enterprise plan" (no webhook can exist); a full
      // allowance of webhooks is the same code and stays a message on the form.
      if (planRefusal(err) && hooks.data?.total === 0) setPlanError(err as ApiError);
      throw err;
    }
    form.reset();
    await hooks.reload();
  });

  // Said before the form is filled; the API's refusal after submit stays for a plan changed meanwhile.
  if (!planIncludes(plan, "webhooks") && !hooks.data?.total)
    return (
      <PlanNotice
        feature="webhooks"
        instead={
          <>
            Meanwhile, follow your scans and new findings on the <a href="#/scans">Scans</a> and <a href="#/findings">Findings</a> pages.
          </>
        }
      />
    );
  if (planError) return <Unavailable feature="webhooks" error={planError} />;
  if (hooks.error && !hooks.data) return <Unavailable feature="webhooks" error={hooks.error} />;
  return (
    <>
      <form className="card form" aria-labelledby="newhook-title" onSubmit={onSubmit} noValidate>
        <h2 id="newhook-title">Add a webhook</h2>
        <HookFields errors={errors} />
        <Submit label="Add webhook" error={errors[""]} busy={busy} />
      </form>
      <ErrorNote error={hooks.error} />
      {hooks.loading && !hooks.data && <Loading what="webhooks" />}
      {hooks.data && hooks.data.total === 0 && <p className="muted">No webhooks yet.</p>}
      {hooks.data?.items.map((h) => (
        <HookCard key={h.id} hook={h} onChange={hooks.reload} />
      ))}
      {hooks.data && hooks.data.pages > 1 && <Pager page={hooks.data.page} pages={hooks.data.pages} total={hooks.data.total} onPage={setPage} />}
    </>
  );
}

/** The fields of the add and the edit form; `hook` fills them for editing. */
function HookFields({ hook, errors }: { hook?: Webhook; errors: Record<string, string> }) {
  return (
    <>
      <Field label="Name" error={errors.name}>
        {(id, d) => <input id={id} name="name" defaultValue={hook?.name} aria-invalid={!!errors.name} aria-describedby={d} />}
      </Field>
      <Field label="URL" error={errors.url} hint={URL_HINT}>
        {(id, d) => (
          <input
            id={id}
            name="url"
            type="url"
            defaultValue={hook?.url}
            aria-invalid={!!errors.url}
            aria-describedby={d}
            placeholder="https://hooks.example.com/vulnscan"
          />
        )}
      </Field>
      <Checks
        legend="Events"
        name="events"
        options={WEBHOOK_EVENTS}
        checked={(ev) => (hook ? hook.events.includes(ev) : ev === "scan.completed")}
        error={errors.events}
      />
      <Field
        label="Signing secret"
        error={errors.secret}
        hint={hook?.has_secret ? "A secret is set; leave empty to keep it." : "Optional, 8 characters or more; deliveries are then signed."}
      >
        {(id, d) => <input id={id} name="secret" type="password" autoComplete="new-password" aria-invalid={!!errors.secret} aria-describedby={d} />}
      </Field>
      <div className="field checks">
        {hook?.has_secret && (
          <label>
            <input type="checkbox" name="remove_secret" /> Remove the secret
          </label>
        )}
        <label>
          <input type="checkbox" name="active" defaultChecked={hook?.active ?? true} /> Active
        </label>
        {errors.active && (
          <span className="field-error" role="alert">
            {errors.active}
          </span>
        )}
      </div>
    </>
  );
}

function HookCard({ hook: h, onChange }: { hook: Webhook; onChange: () => Promise<void> }) {
  const [editing, setEditing] = useState(false);
  const [showDeliveries, setShowDeliveries] = useState(false);
  const [test, setTest] = useState<WebhookTest>();
  const [note, setNote] = useState<string>();
  // Bumped after a test so an open delivery history shows it.
  const [tick, setTick] = useState(0);

  const edit = useApiForm(HOOK_FIELDS, async (f) => {
    await api<Webhook>(hookPath(h.id), { method: "PATCH", body: webhookBody(f) });
    setEditing(false);
    await onChange();
  });

  async function sendTest() {
    setNote(undefined);
    setTest(undefined);
    try {
      setTest(await api<WebhookTest>(`${hookPath(h.id)}/test`, { method: "POST" }));
      setTick((t) => t + 1);
    } catch (err) {
      setNote((err as Error).message);
    }
  }

  async function remove() {
    if (!window.confirm(`Delete the webhook "${h.name}"? Its pending retries stop.`)) return;
    try {
      await api(hookPath(h.id), { method: "DELETE" });
      await onChange();
    } catch (err) {
      setNote((err as Error).message);
    }
  }

  return (
    <article className="card" aria-labelledby={`${h.id}-title`}>
      <div className="heading">
        <h3 id={`${h.id}-title`}>
          {h.name} <Badge kind="webhookState" value={h.active ? "active" : "disabled"} />
        </h3>
        <div className="actions">
          <button type="button" onClick={() => void sendTest()}>
            Send test
          </button>
          <button type="button" onClick={() => setEditing(!editing)} aria-expanded={editing}>
            Edit
          </button>
          <button type="button" onClick={() => setShowDeliveries(!showDeliveries)} aria-expanded={showDeliveries}>
            Deliveries
          </button>
          <button type="button" className="danger" onClick={() => void remove()}>
            Delete
          </button>
        </div>
      </div>
      <p className="mono small wrap">{h.url}</p>
      <p className="small">
        {h.events.join(", ")} · {h.has_secret ? "signed" : "unsigned"} · created {when(h.created_at)}
      </p>
      {h.disabled_reason && <p className="notice small">Disabled by the dispatcher: {h.disabled_reason}</p>}
      <ErrorNote error={note} />
      {test && (
        <div className="result" role="status" aria-label={`Test result of ${h.name}`}>
          Test delivery <span className="mono">{test.delivery_id}</span>: <Badge kind="deliveryStatus" value={test.status} /> HTTP{" "}
          {test.response_code || "no answer"} in {test.response_time_ms} ms
          {test.error && test.error !== `HTTP ${test.response_code}` && <> — {test.error}</>}
        </div>
      )}
      {editing && (
        <form className="form separated" aria-label={`Edit ${h.name}`} onSubmit={edit.onSubmit} noValidate>
          <HookFields hook={h} errors={edit.errors} />
          <Submit label="Save changes" error={edit.errors[""]} busy={edit.busy}>
            <button type="button" onClick={() => setEditing(false)}>
              Cancel
            </button>
          </Submit>
        </form>
      )}
      {showDeliveries && <Deliveries hook={h} tick={tick} />}
    </article>
  );
}

const DELIVERY_FILTERS = ["status", "event"] as const;

/** The delivery history of one webhook, newest first. */
function Deliveries({ hook, tick }: { hook: Webhook; tick: number }) {
  const [filters, setFilters] = useState<Record<string, string>>({});
  const [page, setPage] = useState(1);
  const [note, setNote] = useState<string>();
  const list = useLoad(
    () => api<Page<Delivery>>(`${hookPath(hook.id)}/deliveries`, { query: { ...filters, page, per_page: 10 } }),
    [hook.id, filters.status, filters.event, page, tick],
  );

  async function retry(d: Delivery) {
    setNote(undefined);
    try {
      const r = await api<Delivery>(`${hookPath(hook.id)}/deliveries/${encodeURIComponent(d.id)}/retry`, { method: "POST" });
      setNote(
        `Retried ${r.id}: ${words("deliveryStatus", r.status).toLowerCase()}${r.response_code ? `, HTTP ${r.response_code}` : ""}${r.error ? ` — ${r.error}` : ""}`,
      );
      await list.reload();
    } catch (err) {
      setNote((err as Error).message);
    }
  }

  return (
    <section className="separated" aria-label={`Deliveries of ${hook.name}`}>
      <form
        className="filters"
        aria-label="Filter deliveries"
        onSubmit={(e) => {
          setFilters(formValues(e, DELIVERY_FILTERS));
          setPage(1);
        }}
      >
        <Choice label="Delivery status" name="status" options={optionsOf("deliveryStatus", DELIVERY_STATUSES)} defaultValue={filters.status} any="Any" />
        <Choice label="Event" name="event" options={[...WEBHOOK_EVENTS, "webhook.test"]} defaultValue={filters.event} any="Any" />
        <button type="submit">Apply</button>
      </form>
      {note && <p role="status">{note}</p>}
      <PagedTable
        what="deliveries"
        page={list.data}
        loading={list.loading}
        error={list.error}
        columns={["Event", "Status", "HTTP", "Time", "Attempts", "When", <Hidden key="a" text="Actions" />]}
        onPage={setPage}
        row={(d) => (
          <tr key={d.id}>
            <td>
              {d.event}
              <div className="muted small mono">{d.id}</div>
            </td>
            <td>
              <Badge kind="deliveryStatus" value={d.status} /> {d.error && <div className="small">{d.error}</div>}
            </td>
            <td>{d.response_code || "—"}</td>
            <td>{d.attempts > 0 ? `${d.response_time_ms} ms` : "—"}</td>
            <td>{d.attempts}</td>
            <td>
              {when(d.created_at)}
              {d.next_retry && <div className="small">next retry {when(d.next_retry)}</div>}
              {d.deferred_until && <div className="small">deferred until {when(d.deferred_until)}</div>}
            </td>
            <td>
              <button type="button" onClick={() => void retry(d)} aria-label={`Retry ${d.id}`}>
                Retry
              </button>
            </td>
          </tr>
        )}
      />
    </section>
  );
}
