// kifu debug's page: everything it shows comes from the session's JSON API (/openapi.json); nothing is fetched
// from elsewhere. Text from the log is always put in as text (textContent), never as markup.
"use strict";

const S = { point: 0, game: "", seat: "", info: null, data: null, timelineStart: 1 };
const $ = (id) => document.getElementById(id);

function el(tag, text, cls) {
  const e = document.createElement(tag);
  if (text !== undefined && text !== null) e.textContent = String(text);
  if (cls) e.className = cls;
  return e;
}

function params(extra) {
  const p = new URLSearchParams(extra || {});
  if (S.game) p.set("game", S.game);
  if (S.seat) p.set("seat", S.seat);
  return p.toString();
}

function showError(message) {
  const box = $("error");
  box.hidden = !message;
  box.textContent = message || "";
}

async function api(path, options) {
  const res = await fetch(path, Object.assign({ credentials: "same-origin" }, options || {}));
  const body = await res.json().catch(() => ({ error: res.statusText }));
  if (!res.ok) { showError(body.error || body.detail && JSON.stringify(body.detail) || res.statusText); throw new Error(body.error); }
  showError("");
  return body;
}

async function stream(path, onItem) {
  const res = await fetch(path, { credentials: "same-origin" });
  if (!res.ok) { const b = await res.json().catch(() => ({})); showError(b.error || res.statusText); return; }
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    let nl;
    while ((nl = buffer.indexOf("\n")) >= 0) {
      const line = buffer.slice(0, nl);
      buffer = buffer.slice(nl + 1);
      if (line.trim()) onItem(JSON.parse(line));
    }
  }
}

// -- the point --------------------------------------------------------------------------------------------------

async function go(n) {
  const last = S.info ? S.info.last : n;
  S.point = Math.max(0, Math.min(n, last));
  history.replaceState(null, "", "#record-" + S.point);
  $("goto").value = S.point;
  const data = await api(`/api/point/${S.point}?` + params());
  S.data = data;
  renderBoard(data);
  await renderTimeline();
}

function valueSpan(text, path, title) {
  const s = el("span", text, "value");
  s.dataset.path = JSON.stringify(path);
  s.title = title || "where did this come from?";
  s.addEventListener("click", (ev) => { ev.stopPropagation(); inspect(path); });
  return s;
}

function whoActs(d) {
  // tools/travel/board.py says it (board_data's acting: nobody in the middle of a procedure, else the player asked,
  // with priority, or the turn player's free action).
  if ("acting" in d) return d.acting;
  if (d.request) return d.request.player;
  return d.priority;
}

function renderBoard(d) {
  const where = $("where");
  where.textContent = `record ${d.seq} · turn ${d.turn}` + (d.turn ? ` (${d.active_name})` : " (set-up)") +
    (d.phase ? ` · ${d.phase}` : "") + (d.step ? ` · ${d.step}` : "") + ` · decision ${d.decision}` +
    (d.ended ? ` · over: ${d.winner !== null && d.winner !== undefined ? d.players[d.winner].name + " won" : "nobody won"}` : "");
  const req = $("request");
  req.replaceChildren();
  if (d.request) {
    req.append(el("span", `${d.request.player_name} must choose ${d.request.kind} (${d.request.minimum}..${d.request.maximum}): `));
    d.request.option_names.forEach((name, i) => {
      const opt = d.request.options[i];
      req.append(valueSpan(name, { kind: "option", index: i }, "where is this option from?"), el("span", " "));
    });
    if (d.request.effect_name) req.append(el("span", ` for ${d.request.effect_name}`));
  } else if (d.ended) {
    req.textContent = "the game is over: nobody is asked anything";
  } else if (d.priority_name) {
    req.textContent = `${d.priority_name} has priority`;
  } else if (d.acting_name) {
    req.textContent = `${d.acting_name} to act (nothing else is asked)`;
  } else {
    req.textContent = "the rules are at work here; nobody is asked at this point";
  }
  const players = $("players");
  players.replaceChildren();
  const acting = whoActs(d);
  d.players.forEach((p, i) => {
    const box = el("div", null, "player");
    box.append(el("span", `${p.name} (${i})`, "name"));
    if (!d.ended && acting === i) box.append(el("span", " · to act", "toact"));
    for (const [k, v] of Object.entries(p.stats)) {
      box.append(el("span", ` · ${k} `), valueSpan(v, { kind: "player", player: i, key: k }));
    }
    if (p.lost) box.append(el("span", ` · LOST: ${p.lost}`));
    for (const [zone, content] of Object.entries(d.zones)) {
      if (!zone.startsWith(i + ".")) continue;
      box.append(zoneRow(zone, content));
    }
    players.append(box);
  });
  for (const [zone, content] of Object.entries(d.zones)) {
    if (/^\d+\./.test(zone)) continue;
    players.append(zoneRow(zone, content));
  }
  const pend = $("pending");
  pend.replaceChildren();
  (d.pending || []).forEach((p, i) => {
    const li = el("li", null, p.resolving ? "resolving" : "");
    li.append(valueSpan(`#${p.effect} ${p.label}`, { kind: "pending", effect: p.effect }));
    li.append(el("span", ` · ${p.holder || "triggered"} · ${p.controller_name}` + (p.source_name ? " · from " : "")));
    if (p.source_name) {  // its source's power: the card now, or as it was just before it left (look-back)
      const src = valueSpan(p.source_name, { kind: "object", obj: p.source, field: "power" }, "where does its source's power come from?");
      src.classList.add("source");
      li.append(src);
    }
    li.append(el("span", (p.target_names && p.target_names.length ? ` · targets ${p.target_names.join(", ")}` : "") +
      (p.resolving ? " · RESOLVING" : "")));
    if (p.triggered_by) {
      const why = el("span", " · why?", "jump");
      why.addEventListener("click", () => explainWhy(p.since));
      li.append(why);
    }
    pend.append(li);
  });
  if (!d.pending || !d.pending.length) pend.append(el("li", "nothing"));
}

function zoneRow(zone, content) {
  const row = el("div", null, "zone");
  row.append(el("span", zone.replace(/^\d+\./, ""), "zname"));
  if (!Array.isArray(content)) {
    row.append(el("span", `${content.count} (${content.count - content.visible.length} hidden) `));
    content.visible.forEach((c) => row.append(cardBox(c)));
    return row;
  }
  if (!content.length) row.append(el("span", "—"));
  const shown = /deck|library/.test(zone) ? content.slice(0, 3) : content;
  shown.forEach((c) => row.append(cardBox(c)));
  if (shown.length < content.length) row.append(el("span", ` and ${content.length - shown.length} more`));
  return row;
}

function cardBox(c) {
  const box = el("span", null, "card");
  box.append(valueSpan(`${c.name}#${c.obj}`, { kind: "object", obj: c.obj, field: "zone" }, "how did it get here?"));
  if (c.power !== null && c.power !== undefined) {
    box.append(el("span", " "), valueSpan(c.power, { kind: "object", obj: c.obj, field: "power" }, "where does this power come from?"));
  }
  if (c.toughness !== null && c.toughness !== undefined) {
    box.append(el("span", "/"), valueSpan(c.toughness, { kind: "object", obj: c.obj, field: "toughness" }, "where does this toughness come from?"));
  }
  for (const [k, v] of Object.entries(c.status || {})) {
    const chip = valueSpan(v === 1 ? k : `${k} ${v}`, { kind: "object", obj: c.obj, field: "status", key: k });
    chip.classList.add("chip");
    box.append(chip);
  }
  if (c.under) box.append(el("span", ` (${c.under} under)`, "chip"));
  return box;
}

// -- the timeline -----------------------------------------------------------------------------------------------

async function renderTimeline() {
  const start = Math.max(1, S.point - 60);
  const rows = await api(`/api/records?` + params({ start, count: 120 }));
  const list = $("timeline");
  list.replaceChildren();
  const zero = el("li", "record 0: before anything", S.point === 0 ? "current" : "");
  zero.addEventListener("click", () => go(0));
  if (start === 1) list.append(zero);
  rows.forEach((r) => {
    const li = el("li", r.line, (r.kind === "ChoiceMade" ? "decision " : "") + (r.seq === S.point ? "current" : ""));
    li.id = "rec-" + r.seq;
    if (r.kind === "AmountComputed" || r.kind === "SecretAmountComputed") {
      li.append(el("span", " "), valueSpan("(where from?)", { kind: "amount", seq: r.seq }, "where does this amount come from?"));
    }
    li.addEventListener("click", () => go(r.seq));
    list.append(li);
  });
  const cur = document.getElementById("rec-" + S.point);
  if (cur) cur.scrollIntoView({ block: "center" });
}

// -- provenance, why ----------------------------------------------------------------------------------------------

function recordLink(entry) {
  const div = el("div", null, "step");
  const a = el("span", entry.line, "jump");
  a.addEventListener("click", () => go(entry.seq));
  div.append(a);
  div.append(el("span", entry.rule ? ` [${entry.rule}]` : " [no rule id recorded]", "rule"));
  return div;
}

async function inspect(path) {
  const at = path.kind === "amount" ? Math.max(S.point, path.seq) : S.point;
  const ans = await api(`/api/origin?` + params({ at }), {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(path) });
  const box = $("inspector");
  box.replaceChildren();
  showOrigin(box, ans);
  if (path.kind === "object" && S.point >= 1) {
    const wn = el("div", null, "step");
    const j = el("span", `why did #${path.obj} not trigger at record ${S.point}?`, "jump");
    j.addEventListener("click", () => { $("whynot-card").value = `#${path.obj}`; $("whynot-ability").value = ""; explainWhyNot(); });
    wn.append(j);
    box.append(wn);
  }
}

function showOrigin(box, ans) {
  box.append(el("div", `value at record ${ans.point}: ${JSON.stringify(ans.value)}`));
  if (ans.expression) box.append(el("div", `computed as ${ans.expression} (${ans.ability}, ${ans.param})`));
  (ans.looked_back || []).forEach((lb) => {
    const div = el("div", `it read #${lb.obj} as it was just before it left its zone at record ${lb.left_at} `);
    const j = el("span", "show the board just before", "jump");
    j.addEventListener("click", () => go(lb.point_before));
    div.append(j);
    box.append(div);
  });
  if (ans.look_back) {
    const lb = el("div", `it left its zone at record ${ans.look_back.left_at}; just before (record ${ans.look_back.point_before}) it was ${JSON.stringify(ans.look_back.value)} `);
    const j = el("span", "show the board just before", "jump");
    j.addEventListener("click", () => go(ans.look_back.point_before));
    lb.append(j);
    box.append(lb);
  }
  if (ans.note) box.append(el("div", ans.note));
  if (ans.set_by && ans.set_by.length) {
    box.append(el("h3", "set by, then what caused it, back to the decision"));
    ans.set_by.forEach((e) => box.append(recordLink(e)));
  }
  if (ans.effect !== undefined && ans.effect !== null) box.append(el("div", `asked for effect #${ans.effect}`));
  if (ans.object) {
    box.append(el("h3", `the option is #${ans.object.path.obj}; how it got where it is`));
    ans.object.set_by.forEach((e) => box.append(recordLink(e)));
  }
  if (ans.continuous && ans.continuous.length) {
    box.append(el("h3", "continuous effects in force on it"));
    ans.continuous.forEach((m) => {
      const div = el("div", `effect #${m.effect}: ${m.kind} ${m.amount >= 0 ? "+" : ""}${m.amount} until ${m.until || "—"} from ${m.source_name || "the rules"} (since record ${m.since}) `);
      const j = el("span", "go", "jump");
      j.addEventListener("click", () => go(m.since));
      div.append(j);
      box.append(div);
    });
  }
}

async function explainWhy(n) {
  const ans = await api(`/api/why/${n}?` + params());
  const box = $("inspector");
  box.replaceChildren();
  ans.lines.forEach((l) => box.append(el("div", l)));
}

async function explainWhyNot() {
  // kifu why-not CARD [ABILITY] at the record the page is at (the answers are the command's lines)
  const card = $("whynot-card").value.trim();
  if (!card) return;
  if (S.point < 1) { showError("why-not asks about a record: step to one first"); return; }
  const ability = $("whynot-ability").value.trim();
  const ans = await api(`/api/why-not/${S.point}?` + params(Object.assign({ card }, ability ? { ability } : {})));
  const box = $("inspector");
  box.replaceChildren(el("h3", `why ${card}${ability ? " " + ability : ""} did not trigger at record ${S.point}`));
  const pre = el("pre", ans.lines.join("\n"), "whynot");
  box.append(pre);
}

// -- breakpoints and queries --------------------------------------------------------------------------------------

async function runTo(direction) {
  const condition = $("condition").value.trim();
  if (!condition) return;
  const status = $("break-status");
  status.textContent = "searching…";
  let found = null;
  await stream(`/api/search?` + params({ condition, at: S.point, direction }), (item) => {
    if (item.progress !== undefined) status.textContent = `searching… record ${item.progress}`;
    if (item.error) { status.textContent = item.error; found = undefined; }
    if (item.match !== undefined) found = item.match;
  });
  if (found === null) status.textContent = `no record ${direction === "next" ? "after" : "at or before"} ${S.point} where it holds`;
  if (found) { status.textContent = `stopped at record ${found.seq}`; await go(found.seq); }
}

async function runQuery() {
  const expression = $("expression").value.trim();
  if (!expression) return;
  const body = $("query-table").querySelector("tbody");
  body.replaceChildren();
  const status = $("query-status");
  status.textContent = "folding…";
  let rows = 0;
  await stream(`/api/query?` + params({ expression }), (item) => {
    if (item.progress !== undefined) status.textContent = `folding… record ${item.progress}`;
    else if (item.error) status.textContent = item.error;
    else {
      rows += 1;
      const tr = el("tr");
      tr.append(el("td", item.seq), el("td", JSON.stringify(item.value)));
      tr.addEventListener("click", () => go(item.seq));
      body.append(tr);
      status.textContent = `${rows} change(s)`;
    }
  });
}

// -- what if -----------------------------------------------------------------------------------------------------

async function showLegal() {
  const list = $("decisions");
  list.replaceChildren();
  const ans = await api(`/api/legal/${S.point}?` + params());
  ans.decisions.forEach((text, i) => {
    const li = el("li", text + " ");
    const atEnd = S.game && S.info && S.point === S.info.last;
    const b = el("button", atEnd ? "play it" : "fork with this");
    b.addEventListener("click", () => (atEnd ? decide(i) : fork(i)));
    li.append(b);
    list.append(li);
  });
  if (!ans.decisions.length) list.append(el("li", "nobody decides here"));
}

async function fork(choice) {
  const ans = await api(`/api/fork?` + new URLSearchParams(Object.assign({ at: S.point, choice }, S.game ? { game: S.game } : {})), { method: "POST" });
  await loadInfo(ans.game);
  showCompare(ans);
  await go(ans.at + 2);
}

async function decide(choice) {
  const ans = await api(`/api/decide?` + new URLSearchParams({ game: S.game, choice }), { method: "POST" });
  await loadInfo(S.game);
  await go(ans.last);
}

async function attempt() {
  const decision = $("attempt-words").value.trim();
  if (!decision) return;
  const status = $("attempt-status");
  const ans = await api(`/api/attempt?` + new URLSearchParams(Object.assign({ at: S.point, decision }, S.game ? { game: S.game } : {})), { method: "POST" });
  if (ans.refused) {
    status.textContent = `refused at record ${ans.refused.point}: ${ans.refused.decision}: ${ans.refused.reason} [${ans.refused.rule}]; nothing was appended (the breakpoint "refused" stops here)`;
    return;
  }
  status.textContent = `accepted: played in ${ans.game}`;
  await loadInfo(ans.game);
  showCompare(ans);
  await go(ans.at + 2);
}

function showCompare(c) {
  const box = $("compare");
  box.textContent = c.first_difference
    ? `${c.a} and ${c.b} first differ at records ${c.first_difference.a} / ${c.first_difference.b}:\n  ${c.a}: ${c.a_line}\n  ${c.b}: ${c.b_line}\nthe states just after them, compared: ` + (c.diff || []).slice(1).join("\n")
    : `${c.a} and ${c.b} are the same`;
}

// -- set-up --------------------------------------------------------------------------------------------------------

async function loadInfo(game) {
  if ((game || "") !== S.game) $("inspector").replaceChildren();
  S.game = game || "";
  const info = await api(`/api/info?` + (S.game ? new URLSearchParams({ game: S.game }) : ""));
  S.info = info;
  $("title").textContent = `kifu debug · ${info.game}`;
  $("rules").textContent = info.rules;
  $("last").textContent = `of ${info.last}`;
  $("goto").max = info.last;
  const games = $("game");
  games.replaceChildren();
  [info.main, ...info.branches].forEach((g) => {
    const o = el("option", g === info.main ? `${g} (the log)` : g);
    o.value = g === info.main ? "" : g;
    if (o.value === S.game) o.selected = true;
    games.append(o);
  });
  const seats = $("seat");
  const keep = S.seat;
  seats.replaceChildren(el("option", "the judge"));
  seats.firstChild.value = "";
  info.players.forEach((p, i) => { const o = el("option", `${p} (seat ${i})`); o.value = String(i); seats.append(o); });
  seats.value = keep;
  const sc = $("scenario");
  if (info.scenario) {
    sc.hidden = false;
    const f = info.scenario.failure;
    sc.className = f ? "" : "ok";
    sc.textContent = f ? `scenario ${info.scenario.path} (run ${info.scenario.runs}) FAILED at step ${f.step}, record ${f.seq}:\n${f.message}`
      : `scenario ${info.scenario.path} (run ${info.scenario.runs}): every expectation holds`;
  }
}

async function watchScenario() {
  if (!S.info || !S.info.scenario) return;
  const before = S.info.scenario.runs;
  const info = await api(`/api/scenario`);
  if (info.scenario.runs !== before) {
    await loadInfo("");
    const f = info.scenario.failure;
    await go(f ? f.seq : info.last);
  }
}

function bind() {
  const step = (by, direction) => async () => {
    const ans = await api(`/api/step?` + new URLSearchParams(Object.assign({ at: S.point, by, direction }, S.game ? { game: S.game } : {})));
    await go(ans.point);
  };
  $("prev-event").onclick = step("event", "prev");
  $("next-event").onclick = step("event", "next");
  $("prev-decision").onclick = step("decision", "prev");
  $("next-decision").onclick = step("decision", "next");
  $("prev-turn").onclick = step("turn", "prev");
  $("next-turn").onclick = step("turn", "next");
  $("goto").addEventListener("change", () => go(parseInt($("goto").value, 10) || 0));
  $("seat").addEventListener("change", () => { S.seat = $("seat").value; go(S.point); });
  $("game").addEventListener("change", async () => { await loadInfo($("game").value); go(Math.min(S.point, S.info.last)); });
  $("break").addEventListener("submit", (e) => { e.preventDefault(); runTo("next"); });
  $("break-prev").onclick = () => runTo("prev");
  $("query").addEventListener("submit", (e) => { e.preventDefault(); runQuery(); });
  $("legal").onclick = showLegal;
  $("whynot").addEventListener("submit", (e) => { e.preventDefault(); explainWhyNot(); });
  $("attempt").addEventListener("submit", (e) => { e.preventDefault(); attempt(); });
  document.addEventListener("keydown", (e) => {
    if (e.target.tagName === "INPUT" || e.target.tagName === "SELECT") return;
    const keys = { ArrowLeft: e.shiftKey ? "prev-decision" : "prev-event", ArrowRight: e.shiftKey ? "next-decision" : "next-event",
      PageUp: "prev-turn", PageDown: "next-turn" };
    if (keys[e.key]) { e.preventDefault(); $(keys[e.key]).click(); }
  });
}

async function start() {
  bind();
  await loadInfo("");
  const m = /^#record-(\d+)$/.exec(location.hash);
  const f = S.info.scenario && S.info.scenario.failure;
  await go(m ? parseInt(m[1], 10) : f ? f.seq : 0);
  if (S.info.scenario) setInterval(() => watchScenario().catch(() => {}), 1500);
}

start().catch((e) => showError(String(e)));
