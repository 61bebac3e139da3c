import { type FormEvent, useState } from "react";
import { api } from "../api/client.js";
import { text, useApiForm } from "../components/forms.js";
import { type AiAnalysis, FINDING_STATUSES, type FindingDetail as Detail, PRIORITIES } from "../api/types.js";
import { Markdown } from "../components/Markdown.js";
import { Badge, Choice, ErrorNote, Field, Loading, Submit, useLoad, when } from "../components/ui.js";
import { frameworkName, historyLine, optionsOf, words } from "../words.js";
import { RetestCard } from "./retest.js";
import { AcceptanceCard, AcceptanceFields, acceptanceBody, SlaLine } from "./sla.js";

// The API names acceptance errors `acceptance.expires_at` / `acceptance.justification`: placed on their fields by the last part.
const TRIAGE_FIELDS = ["status", "assignee", "priority", "due_date", "notes", "expires_at", "justification"] as const;

export function FindingDetail({ id }: { id: string }) {
  const path = `/api/v1/findings/${encodeURIComponent(id)}`;
  const finding = useLoad(() => api<Detail>(path), [id]);
  const [saved, setSaved] = useState(false);
  const [ai, setAi] = useState<AiAnalysis>();
  const [aiError, setAiError] = useState<string>();
  // The acceptance fields show while "Accepted" is chosen (a move to accepted needs an expiry and a reason).
  const [chosen, setChosen] = useState<string>();
  const f = finding.data;

  const {
    errors,
    setErrors,
    onSubmit: triage,
  } = useApiForm(TRIAGE_FIELDS, async (form) => {
    if (!f) return;
    const due = text(form, "due_date");
    const body: Record<string, unknown> = {};
    const status = text(form, "status");
    const assignee = text(form, "assignee");
    const priority = text(form, "priority");
    const notes = String(form.get("notes") ?? "");
    // Only what changed, so the history records what the user did.
    if (status !== f.status) body.status = status;
    if (status === "accepted" && (status !== f.status || text(form, "acceptance_justification"))) {
      body.status = status;
      body.acceptance = acceptanceBody(form);
    }
    if (assignee !== (f.assignee ?? "")) body.assignee = assignee || null;
    if (priority !== (f.priority ?? "")) body.priority = priority || null;
    if (due !== (f.due_date ? f.due_date.slice(0, 10) : "")) body.due_date = due ? new Date(`${due}T00:00:00Z`).toISOString() : null;
    if (notes !== (f.notes ?? "")) body.notes = notes;
    setSaved(false);
    if (Object.keys(body).length) await api(path, { method: "PATCH", body });
    setSaved(true);
    setChosen(undefined);
    await finding.reload();
  });

  async function comment(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const formEl = e.currentTarget;
    const text = String(new FormData(formEl).get("text") ?? "").trim();
    if (!text) return;
    try {
      await api(`${path}/comments`, { method: "POST", body: { text } });
      formEl.reset();
      await finding.reload();
    } catch (err) {
      setErrors({ comment: (err as Error).message });
    }
  }

  async function analyse() {
    setAiError(undefined);
    try {
      setAi(await api<AiAnalysis>(`${path}/ai-analysis`));
    } catch (err) {
      setAiError((err as Error).message);
    }
  }

  if (!f) return finding.error ? <ErrorNote error={finding.error} /> : <Loading what="finding" />;
  return (
    <section aria-labelledby="finding-title">
      <p>
        <a href="#/findings">← Findings</a>
      </p>
      <h1 id="finding-title">{f.title}</h1>
      <p className="meta">
        <Badge kind="severity" value={f.severity} /> <Badge kind="findingStatus" value={f.status} /> CVSS {f.cvss_score.toFixed(1)}
        {f.epss_score !== null && <> · EPSS {(f.epss_score * 100).toFixed(1)}%</>}
        {f.kev && <span className="badge sev-critical">known exploited</span>}
      </p>
      <p className="meta sla-line">
        <SlaLine f={f} />
      </p>
      <div className="grid2 detail">
        <div>
          <section className="card ai" aria-labelledby="ai-title">
            <div className="heading">
              <h2 id="ai-title">AI analysis</h2>
              <button type="button" onClick={() => void analyse()}>
                {ai ? "Analyse again" : "Analyse with AI"}
              </button>
            </div>
            <ErrorNote error={aiError} />
            {!ai && !aiError && (
              <p className="muted">What this finding means here and what to do about it: priority, attack scenarios, the exact fix and how to verify it.</p>
            )}
            {ai && <AnalysisView result={ai} />}
          </section>
          {/* A verdict adds to the history (and fixed resolves the finding): the finding is read again. */}
          <RetestCard findingId={f.id} onVerdict={() => void finding.reload()} />
          <div className="card">
            <h2>Description</h2>
            <p>{f.description || "—"}</p>
            {f.impact && (
              <>
                <h3>Impact</h3>
                <p>{f.impact}</p>
              </>
            )}
            <dl className="facts">
              <dt>Target</dt>
              <dd>{f.target}</dd>
              <dt>Component</dt>
              <dd>{f.affected_component}</dd>
              <dt>Tool</dt>
              <dd>
                {f.tool} ({f.template_id})
              </dd>
              <dt>CVE</dt>
              <dd>{f.cve_ids.join(", ") || "—"}</dd>
              <dt>Confidence</dt>
              <dd>{words("confidence", f.confidence)}</dd>
              <dt>CWE</dt>
              <dd>{f.cwe_ids.join(", ") || "—"}</dd>
              <dt>CVSS vector</dt>
              <dd className="mono">{f.cvss_vector || "—"}</dd>
              <dt>Scan</dt>
              <dd>
                <a href={`#/scans/${encodeURIComponent(f.scan_id)}`}>{f.scan_id}</a>
              </dd>
              <dt>Detected</dt>
              <dd>{when(f.detected_at)}</dd>
            </dl>
          </div>
          <div className="card">
            <h2>Remediation</h2>
            <p>{f.remediation.summary}</p>
            {f.remediation.steps.length > 0 && (
              <ol>
                {f.remediation.steps.map((s) => (
                  <li key={s}>{s}</li>
                ))}
              </ol>
            )}
            {f.remediation.code_example && <pre>{f.remediation.code_example}</pre>}
            {f.remediation.references.length > 0 && (
              <ul>
                {f.remediation.references.map((r) => (
                  <li key={r}>
                    <a href={r} rel="noreferrer noopener" target="_blank">
                      {r}
                    </a>
                  </li>
                ))}
              </ul>
            )}
          </div>
          <div className="card evidence">
            <h2>Evidence</h2>
            <h3>Request</h3>
            <pre>{f.evidence.request || "—"}</pre>
            <h3>Response</h3>
            <pre>{f.evidence.response || "—"}</pre>
          </div>
          <div className="card">
            <h2>Frameworks</h2>
            {f.frameworks.length ? (
              <ul>
                {f.frameworks.map((fw) => (
                  <li key={fw.name}>
                    <strong>{frameworkName(fw.name)}</strong>: {fw.controls.join(", ")}
                  </li>
                ))}
              </ul>
            ) : (
              <p className="muted">No framework mappings.</p>
            )}
          </div>
        </div>
        <div>
          <form
            className="card form"
            aria-labelledby="triage-title"
            onSubmit={triage}
            key={`${f.status}${f.assignee}${f.priority}${f.due_date}${f.notes}${f.acceptance?.state}${f.acceptance?.requested_at}`}
          >
            <h2 id="triage-title">Triage</h2>
            <div onChange={(e) => (e.target as HTMLElement).getAttribute("name") === "status" && setChosen((e.target as unknown as HTMLSelectElement).value)}>
              <Choice label="Status" name="status" options={optionsOf("findingStatus", FINDING_STATUSES)} defaultValue={f.status} error={errors.status} />
            </div>
            {(chosen ?? f.status) === "accepted" && (chosen === "accepted" || f.acceptance?.state !== "pending") && (
              <AcceptanceFields errors={errors} current={f.acceptance} />
            )}
            <Field label="Assignee" error={errors.assignee}>
              {(fid, d) => <input id={fid} name="assignee" type="email" defaultValue={f.assignee ?? ""} aria-describedby={d} />}
            </Field>
            <Choice
              label="Priority"
              name="priority"
              options={optionsOf("priority", PRIORITIES)}
              defaultValue={f.priority ?? ""}
              any="None"
              error={errors.priority}
            />
            <Field label="Due date" error={errors.due_date}>
              {(fid) => <input id={fid} name="due_date" type="date" defaultValue={f.due_date ? f.due_date.slice(0, 10) : ""} />}
            </Field>
            <Field label="Notes" error={errors.notes}>
              {(fid) => <textarea id={fid} name="notes" rows={3} defaultValue={f.notes ?? ""} />}
            </Field>
            <Submit label="Save" error={errors[""]}>
              {saved && (
                <span role="status" className="ok">
                  Saved
                </span>
              )}
            </Submit>
          </form>
          <AcceptanceCard f={f} path={path} reload={finding.reload} />
          <div className="card">
            <h2>Comments</h2>
            <ul className="comments">
              {f.comments.map((c) => (
                <li key={c.id}>
                  <div className="muted small">
                    {c.user} · {when(c.created_at)}
                  </div>
                  <p>{c.text}</p>
                </li>
              ))}
            </ul>
            <form onSubmit={comment} aria-label="Add a comment">
              <Field label="Comment" error={errors.comment}>
                {(fid) => <textarea id={fid} name="text" rows={2} required />}
              </Field>
              <button type="submit">Add comment</button>
            </form>
          </div>
          <div className="card">
            <h2>History</h2>
            <ol className="history" aria-label="History">
              {f.history.map((h) => (
                <li key={`${h.timestamp}${h.action}${h.to}`}>
                  <span className="muted small">{when(h.timestamp)}</span> <strong>{h.user}</strong> {historyLine(h)}
                </li>
              ))}
            </ol>
          </div>
        </div>
      </div>
    </section>
  );
}

const SOURCES: Record<AiAnalysis["ai_analysis"]["source"], string> = {
  builtin: "Written by the built-in analyst",
  model: "Written by the configured model, checked against the finding's facts",
  builtin_fallback: "Written by the built-in analyst: the model's answer was refused",
};

/** The analysis, summary first; its prose is markdown from the API, rendered without HTML. */
function AnalysisView({ result }: { result: AiAnalysis }) {
  const a = result.ai_analysis;
  return (
    <div aria-live="polite">
      <p className="meta">
        Priority <strong>{words("priority", a.remediation_priority)}</strong>
        {a.category && (
          <>
            {" "}
            · category <code>{a.category}</code>
          </>
        )}{" "}
        · {result.ai_credits_used} credit used
        {result.ai_credits_remaining !== undefined && <>, {result.ai_credits_remaining} left</>}
      </p>
      <Markdown text={a.risk_assessment} />
      <h3>Recommended actions</h3>
      <ol className="md-list">
        {a.recommended_actions.map((s) => (
          <li key={s}>
            <Markdown text={s} />
          </li>
        ))}
      </ol>
      {a.automation_available && (
        <p>
          Automated fix: Ansible playbook <code>{a.ansible_playbook_id}</code>
        </p>
      )}
      <h3>Attack scenarios</h3>
      <ul className="md-list">
        {a.attack_scenarios.map((s) => (
          <li key={s}>
            <Markdown text={s} />
          </li>
        ))}
      </ul>
      <p className="muted small" title={a.source_detail}>
        {SOURCES[a.source] ?? a.source}
        {a.source_detail && <> ({a.source_detail})</>}
      </p>
    </div>
  );
}
