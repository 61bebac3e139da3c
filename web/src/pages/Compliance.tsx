// Compliance in the top navigation: the frameworks' scores (#/compliance), a page per framework
// (#/compliance/soc2: its score, its controls grouped by status with what each asks for, and the
// findings that make its controls fail) and the filterable list of every control with each
// control's page (#/compliance/controls, Controls.tsx).
import { bySeverity, severeOpenFindings } from "../api/failing.js";
import { api } from "../api/client.js";
import { type CONTROL_STATUSES, type Control, FRAMEWORKS, type FrameworkScore, type Page } from "../api/types.js";
import { ErrorNote, Loading, Unavailable, useLoad } from "../components/ui.js";
import { href, type Route } from "../router.js";
import { controlStatusWords, count, frameworkName } from "../words.js";
import { BASE as CONTROLS, Controls, FindingLinks, Requirement, ScoreBar, Scores } from "./Controls.js";

/** Failing first: what needs work, then what is under way, then the rest. */
const STATUS_ORDER = ["failing", "in_progress", "not_started", "implemented", "not_applicable"] as const satisfies readonly (typeof CONTROL_STATUSES)[number][];
/** Sections longer than this start folded, so the failing ones stay in view. */
const OPEN_UP_TO = 20;
const PER_PAGE = 100;

export function Compliance({ route }: { route: Route }) {
  const [, sub] = route.path;
  if (sub === "controls") return <Controls route={route} />;
  if (sub && (FRAMEWORKS as readonly string[]).includes(sub)) return <FrameworkPage id={sub} />;
  if (sub)
    return (
      <p role="alert">
        No such framework. <a href={href("/compliance")}>See every framework</a>.
      </p>
    );
  return (
    <section aria-labelledby="compliance-title">
      <h1 id="compliance-title">Compliance</h1>
      <p className="muted">
        A framework's score is its implemented controls out of those that apply. Scans mark a control failing while open critical or high findings map to it;
        you set the other statuses, an owner and evidence on each control's page.
      </p>
      <Scores linkTo={(id) => href(`/compliance/${id}`)} />
      <p>
        <a href={href(CONTROLS)}>Browse and filter every control</a>
      </p>
    </section>
  );
}

/** Every control of one framework: the list endpoint's pages of 100, the first one telling how many follow. */
async function allControls(framework: string): Promise<Control[]> {
  const page = (n: number) => api<Page<Control>>("/api/v1/controls", { query: { framework, per_page: PER_PAGE, page: n } });
  const first = await page(1);
  const rest = await Promise.all(Array.from({ length: Math.max(0, first.pages - 1) }, (_, i) => page(i + 2)));
  return [first, ...rest].flatMap((p) => p.items);
}

function FrameworkPage({ id }: { id: string }) {
  const scores = useLoad(() => api<{ items: FrameworkScore[] }>("/api/v1/frameworks"), []);
  const controls = useLoad(() => allControls(id), [id]);
  const score = scores.data?.items.find((f) => f.id === id);
  const name = frameworkName(id);
  if (controls.error && !controls.data) return <Unavailable feature="controls" error={controls.error} />;
  return (
    <section aria-labelledby="framework-title">
      <p>
        <a href={href("/compliance")}>← Compliance</a>
      </p>
      <h1 id="framework-title">{name}</h1>
      {score && <p className="muted">{score.name}</p>}
      <ErrorNote error={scores.error} />
      <div className="grid2 detail">
        <div>
          {score ? <ScoreCard score={score} /> : !scores.error && <Loading what="score" />}
          {controls.data ? <ControlsByStatus framework={id} controls={controls.data} /> : <Loading what="controls" />}
        </div>
        <FrameworkFindings framework={id} failing={controls.data?.filter((c) => c.status === "failing").length} />
      </div>
    </section>
  );
}

function ScoreCard({ score: f }: { score: FrameworkScore }) {
  const counts: [string, number | undefined][] = [
    ["failing", f.controls_failing],
    ["in_progress", f.controls_in_progress],
    ["not_started", f.controls_not_started],
    ["implemented", f.controls_implemented],
    ["not_applicable", f.controls_not_applicable],
  ];
  return (
    <section className="card" aria-labelledby="score-title">
      <h2 id="score-title">Score</h2>
      <ScoreBar score={f.score} big />
      <p>
        {f.controls_implemented ?? 0} of {count(f.controls_total - (f.controls_not_applicable ?? 0), "applicable control")} implemented.
      </p>
      <ul className="inline-counts" aria-label="Controls by status">
        {counts.map(([s, n]) => (
          <li key={s}>
            <a href={`#status-${s}`} className={`badge status-${s}`}>
              {controlStatusWords(s)}: {n ?? 0}
            </a>
          </li>
        ))}
      </ul>
      {(f.controls_implemented ?? 0) === 0 && (
        <p className="notice small">
          Nothing is implemented yet, so the score is 0 %. Open a control below, check it is in place, then set its status to Implemented (with evidence);
          controls that do not apply to you can be set to Not applicable.
        </p>
      )}
    </section>
  );
}

/** The framework's controls in one section per status, each with its reference, name and requirement. */
function ControlsByStatus({ framework, controls }: { framework: string; controls: Control[] }) {
  const refOf = (c: Control) => c.framework_refs?.find((r) => r.framework === framework)?.control_ref ?? "";
  return (
    <>
      {STATUS_ORDER.map((status) => {
        const mine = controls.filter((c) => c.status === status);
        if (mine.length === 0) return null;
        return (
          <details key={status} className="card controls-group" id={`status-${status}`} open={mine.length <= OPEN_UP_TO || status === "failing"}>
            <summary>
              <h2>
                {controlStatusWords(status)} <span className="muted">({mine.length})</span>
              </h2>
            </summary>
            <ul className="controls" aria-label={`${controlStatusWords(status)} controls`}>
              {mine.map((c) => (
                <li key={c.id}>
                  <span className="mono ref">{refOf(c)}</span> <a href={href(`${CONTROLS}/${encodeURIComponent(c.id)}`)}>{c.name}</a>
                  {status === "failing" && c.open_finding_count ? <span className="muted small"> · {count(c.open_finding_count, "open finding")}</span> : null}
                  <Requirement text={c.requirement} />
                </li>
              ))}
            </ul>
          </details>
        );
      })}
    </>
  );
}

/** The open critical/high findings mapped to this framework: what makes its controls fail. */
function FrameworkFindings({ framework, failing }: { framework: string; failing: number | undefined }) {
  const severe = useLoad(() => severeOpenFindings(), []);
  const mine = severe.data?.items.filter((f) => f.frameworks.includes(framework)).sort(bySeverity);
  const name = frameworkName(framework);
  return (
    <section className="card" aria-labelledby="framework-findings-title">
      <h2 id="framework-findings-title">Failing findings</h2>
      {severe.error ? (
        <ErrorNote error={severe.error} />
      ) : !mine ? (
        <Loading what="findings" />
      ) : mine.length === 0 ? (
        <p className="muted">
          No open critical or high finding maps to {name}.{" "}
          {failing === 0 ? (
            <>
              Scan your systems to test its controls: <a href="#/scans/new">start a scan</a>.
            </>
          ) : null}
        </p>
      ) : (
        <>
          <p className="small">
            {count(mine.length, "open critical or high finding")} {mine.length === 1 ? "makes" : "make"} {name} controls fail. Fix or triage them to bring the
            controls back.
          </p>
          <FindingLinks label={`Findings failing ${name}`} findings={mine} />
        </>
      )}
      {severe.data && severe.data.total > severe.data.items.length && (
        <p className="small">
          Only the {severe.data.items.length} most severe of {severe.data.total} open critical or high findings were checked.{" "}
          <a href={href("/findings", { status: "open", sort: "severity", order: "desc" })}>See them all</a>.
        </p>
      )}
    </section>
  );
}
