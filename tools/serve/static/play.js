// kifu's play page: the board as this seat sees it, its legal decisions as buttons. Everything from the server's
// public API; names from the log always go in as text. The credential lives in this tab's sessionStorage only.
"use strict";
const $ = (id) => document.getElementById(id);
const el = (tag, text, cls) => { const e = document.createElement(tag); if (text != null) e.textContent = String(text); if (cls) e.className = cls; return e; };
let ws = null, head = 0, lastSeq = 0;

function say(text) { $("message").textContent = text || ""; }

async function post(path, body) {
  const res = await fetch(path, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  const data = await res.json();
  if (!res.ok) throw new Error(data.error || res.statusText);
  return data;
}

function nonce() { const b = new Uint8Array(32); crypto.getRandomValues(b); return Array.from(b, (x) => x.toString(16).padStart(2, "0")).join(""); }

async function join() {
  const match = $("match").value.trim();
  const seat = $("seat").value;
  let first;
  if (seat === "spectate") first = { spectate: true, since: 0 };
  else {
    const key = `kifu-credential-${match}-${seat}`;
    let credential = sessionStorage.getItem(key);
    if (!credential) { credential = (await post(`/api/matches/${match}/seats/${seat}`, { nonce: nonce() })).credential; sessionStorage.setItem(key, credential); }
    first = { credential, since: 0 };
  }
  connect(match, first);
}

function connect(match, first) {
  if (ws) ws.close();
  $("log").replaceChildren(); lastSeq = 0;
  ws = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws/matches/${match}`);
  ws.onopen = () => ws.send(JSON.stringify(first));
  ws.onclose = (e) => { $("status").textContent = `disconnected (${e.code})`; };
  ws.onmessage = (e) => {
    const m = JSON.parse(e.data);
    if (m.type === "hello") { $("status").textContent = m.seat === null ? "spectating" : `seat ${m.seat}`; if (m.seat === null) spectating(match); }
    else if (m.type === "records") m.records.forEach((r) => { $("log").append(el("li", `${r.seq}: ${r.line}`)); lastSeq = r.seq; });
    else if (m.type === "state") render(m);
    else if (m.type === "refused") say(`refused: ${m.reason} [${m.rule}]`);
    else if (m.type === "stale" || m.type === "error") say(m.message);
    else if (m.type === "ack") say("");
  };
}

// What this match shows its spectators, said beside "spectating".
async function spectating(match) {
  const res = await fetch(`/api/matches/${match}`);
  if (!res.ok) return;
  const s = (await res.json()).spectators;
  $("status").textContent = s.view === "judge" ? `spectating (the judge's view, ${s.delay} records behind)` : `spectating (neither hand${s.delay ? `, ${s.delay} records behind` : ""})`;
}

function render(d) {
  head = d.head;
  Object.assign($("where").dataset, { head: d.head, ended: d.ended ? "yes" : "no", toAct: d.to_act ?? "" });
  $("where").textContent = `record ${d.head} · turn ${d.turn} (${d.active_name || ""}) · ${d.phase || ""} ${d.step || ""}` + (d.ended ? " · the game is over" : "");
  const players = $("players"); players.replaceChildren();
  d.players.forEach((p, i) => {
    const box = el("div");
    box.append(el("strong", `${p.name} (${i})`));
    if (!d.ended && d.to_act === i) box.append(el("span", " · to act", "toact"));
    box.append(el("span", " " + Object.entries(p.stats).map(([k, v]) => `${k} ${v}`).join(", ")));
    for (const [zone, content] of Object.entries(d.zones)) {
      if (!zone.startsWith(i + ".")) continue;
      const row = el("div", null, "zone"); row.append(el("span", zone.slice(2), "zname"));
      if (Array.isArray(content)) content.slice(0, /deck|library/.test(zone) ? 0 : 40).forEach((c) => row.append(el("span", `${c.name}#${c.obj}` + (c.power != null ? ` ${c.power}` : ""), "card")));
      if (!Array.isArray(content)) { row.append(el("span", `${content.count} (${content.count - content.visible.length} hidden) `)); content.visible.forEach((c) => row.append(el("span", `${c.name}#${c.obj}`, "card"))); }
      else if (/deck|library/.test(zone)) row.append(el("span", `${content.length} cards`));
      box.append(row);
    }
    players.append(box);
  });
  const pend = $("pending"); pend.replaceChildren();
  (d.pending || []).forEach((p) => pend.append(el("li", `${p.label} · ${p.holder} · ${p.controller_name}` + (p.resolving ? " · resolving" : ""))));
  const legal = $("legal"); legal.replaceChildren();
  (d.legal || []).forEach((x) => { const b = el("button", x.text); b.onclick = () => ws.send(JSON.stringify({ decide: { head, choice: x.index } })); legal.append(b); });
  if (d.pick) {  // a request answered with several options at once: tick them, then send them as one decision
    const form = el("fieldset", null, "pick");
    const says = `${d.pick.prompt} (${d.pick.minimum === d.pick.maximum ? d.pick.minimum : `${d.pick.minimum} to ${d.pick.maximum}`})`;
    form.append(el("legend", says));
    const boxes = d.pick.options.map((o) => {
      const box = document.createElement("input"); box.type = "checkbox"; box.value = o.index;
      const label = el("label", null); label.append(box, ` ${o.text}`); form.append(label); return box;
    });
    const send = el("button", "choose these");
    send.onclick = () => ws.send(JSON.stringify({ decide: { head, pick: boxes.filter((b) => b.checked).map((b) => Number(b.value)) } }));
    form.append(send); legal.append(form);
  }
  if (!(d.legal || []).length && !d.pick) legal.append(el("div", d.ended ? "the game is over" : "waiting for the other player"));
}

$("join").onclick = () => join().catch((e) => say(String(e.message || e)));
$("create").onclick = async () => {
  try {
    const game = $("game").value;
    const sample = await (await fetch(`/api/samples/${game}`)).json();
    const judge = $("spectators").value === "judge";  // (a judge's view is shown only some records behind)
    const m = await post("/api/matches", { game, players: sample.players, decks: sample.decks, spectator_view: judge ? "judge" : "public", spectator_delay: judge ? 10 : 0 });
    $("match").value = m.match;
    location.hash = `match=${m.match}`;  // (share this address: the other seat and spectators open it)
    say(`created ${m.match} (commitment ${m.commitment.slice(0, 16)}…): join a seat; open this address again for the other`);
  } catch (e) { say(String(e.message || e)); }
};
// #match=ID fills in the match; #match=ID&seat=S (0, 1 or spectate) joins it at once.
const params = new URLSearchParams(location.hash.slice(1));
if (params.get("match")) $("match").value = params.get("match");
if (params.get("match") && ["0", "1", "spectate"].includes(params.get("seat"))) {
  $("seat").value = params.get("seat");
  join().catch((e) => say(String(e.message || e)));
}
