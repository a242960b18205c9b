"use strict";
// The studio page. It knows the server only through the documented endpoints:
// GET /info.json, /frame/N.png, /progress/P.png, /events (server-sent events) and
// POST /export. Every image URL carries the scene version (&v=N), so a reload of
// the scene gives new URLs and the browser cannot show a stale frame.

const $ = (id) => document.getElementById(id);
const el = {
  frame: $("frame"), stage: $("stage"), outline: $("outline"), scrubber: $("scrubber"),
  number: $("frame-number"), time: $("frame-time"), phase: $("phase-name"), play: $("play"),
  loop: $("loop"), speed: $("speed"), reverse: $("reverse"), fit: $("fit"), size: $("scene-size"),
  progressSection: $("progress-section"), progress: $("progress-slider"), progressValue: $("progress-value"),
  interaction: $("interaction-summary"), timeline: $("timeline"), errorPanel: $("error-panel"),
  errorMessage: $("error-message"), errorProblems: $("error-problems"), connection: $("connection"),
  exportProgress: $("export-progress"), exportStatus: $("export-status"),
};

const state = {
  info: null,
  version: 0,
  frame: 0,
  direction: "",      // "" = as the scene says
  reverse: false,
  playing: false,
  progress: null,     // a number while the progress slider drives the picture
  hovered: null,      // the timeline bar under the pointer or focus
};

// ---- URLs ---------------------------------------------------------------

function sceneQuery() {
  const q = new URLSearchParams();
  if (state.direction) q.set("direction", state.direction);
  if (state.reverse) q.set("reverse", "1");
  return q;
}

function imageURL(path) {
  const q = sceneQuery();
  q.set("v", String(state.version));
  return `${path}?${q}`;
}

const frameURL = (n) => imageURL(`/frame/${n}.png`);

// ---- Scene info -----------------------------------------------------------

async function loadInfo() {
  const q = sceneQuery().toString();
  const response = await fetch("/info.json" + (q ? "?" + q : ""));
  if (!response.ok) throw new Error(`info.json: ${response.status} ${await response.text()}`);
  const version = Number(response.headers.get("X-Scene-Version"));
  if (Number.isFinite(version) && response.headers.has("X-Scene-Version")) state.version = version;
  state.info = await response.json();
  applyInfo();
}

function applyInfo() {
  const info = state.info;
  el.size.textContent = `${info.pixelWidth}×${info.pixelHeight} px · ${info.framesPerSecond} fps · ` +
    `${info.frameCount} frames · ${info.seconds.toFixed(3)} s`;
  el.scrubber.max = String(Math.max(0, info.frameCount - 1));
  el.outline.setAttribute("viewBox", `0 0 ${info.pixelWidth} ${info.pixelHeight}`);
  el.progressSection.hidden = !info.interaction;
  if (info.interaction) {
    const i = info.interaction;
    el.interaction.textContent = `${i.rule}: released at ${i.releaseProgress.toFixed(2)}, ${i.decision} (${i.reason})`;
  }
  if (!info.interaction) state.progress = null;
  outlines.forget();
  buildTimeline(info);
  if (state.progress !== null) showProgress(state.progress);
  else showFrame(state.frame);
}

// ---- The frame ------------------------------------------------------------

// Preloaded neighbours, held so the browser keeps them decoded; the oldest go first.
const preloaded = new Map();
function preload(n) {
  if (n < 0 || n >= state.info.frameCount) return;
  const url = frameURL(n);
  if (preloaded.has(url)) return;
  const image = new Image();
  image.src = url;
  preloaded.set(url, image);
  while (preloaded.size > 16) preloaded.delete(preloaded.keys().next().value);
}

function showFrame(n) {
  const info = state.info;
  if (!info) return;
  state.frame = Math.max(0, Math.min(info.frameCount - 1, n));
  state.progress = null;
  const url = frameURL(state.frame);
  // The img keeps showing the old picture until the new one has loaded, so
  // assigning only on change avoids restarting a request already under way.
  if (el.frame.getAttribute("src") !== url) el.frame.src = url;
  el.scrubber.value = String(state.frame);
  el.number.textContent = `${state.frame} / ${info.frameCount - 1}`;
  el.time.textContent = `${(state.frame / info.framesPerSecond).toFixed(3)} s`;
  const phase = info.phases.find((p) => p.firstFrame <= state.frame && state.frame <= p.lastFrame);
  el.phase.textContent = phase ? phaseLabel(phase.name) : "";
  movePlayheads();
  for (const d of [1, -1, 2]) preload(state.frame + d);
  if (state.hovered) outlines.show(state.hovered);
}

function phaseLabel(name) {
  return { holdBefore: "hold before", holdAfter: "hold after" }[name] ?? name;
}

function showProgress(p) {
  state.progress = p;
  el.progress.value = String(p);
  el.progressValue.textContent = p.toFixed(2);
  el.phase.textContent = `progress ${p.toFixed(2)}`;
  el.frame.src = imageURL(`/progress/${p.toFixed(2)}.png`);
}

// True pixel size is one image pixel per device pixel; fit to window scales the
// picture into the stage instead, keeping its aspect ratio.
function sizeFrame() {
  const { naturalWidth: w, naturalHeight: h } = el.frame;
  if (!w || !h) return;
  let scale = 1 / window.devicePixelRatio;
  if (el.fit.checked) {
    const style = getComputedStyle(el.stage);
    const room = (size, a, b) => size - parseFloat(a) - parseFloat(b);
    scale = Math.min(room(el.stage.clientWidth, style.paddingLeft, style.paddingRight) / w,
      room(el.stage.clientHeight, style.paddingTop, style.paddingBottom) / h);
  }
  el.frame.style.width = `${w * scale}px`;
  el.frame.style.height = `${h * scale}px`;
}
el.frame.addEventListener("load", sizeFrame);
// The stage changes size with the window and when the error panel comes and goes.
new ResizeObserver(sizeFrame).observe(el.stage);
el.fit.addEventListener("change", () => { el.stage.classList.toggle("fit", el.fit.checked); sizeFrame(); });

// ---- Playback -------------------------------------------------------------

let clock = null; // where playback started: {at: ms timestamp, frame}

function setPlaying(on) {
  state.playing = on;
  el.play.innerHTML = on ? "&#10074;&#10074;" : "&#9654;";
  el.play.setAttribute("aria-label", on ? "Pause" : "Play");
  if (!on) return;
  if (state.frame >= state.info.frameCount - 1) showFrame(0);
  clock = { at: performance.now(), frame: state.frame };
  requestAnimationFrame(tick);
}

function tick(now) {
  if (!state.playing || !state.info) return;
  const { frameCount, framesPerSecond } = state.info;
  let n = clock.frame + Math.floor(((now - clock.at) / 1000) * framesPerSecond * Number(el.speed.value));
  if (n >= frameCount) {
    if (!el.loop.checked) { showFrame(frameCount - 1); setPlaying(false); return; }
    n %= frameCount;
  }
  // Frames render on demand: wait for the one on screen rather than skip past
  // pictures that never arrived.
  if (n !== state.frame && el.frame.complete) showFrame(n);
  else if (!el.frame.complete) clock = { at: now, frame: state.frame };
  requestAnimationFrame(tick);
}

el.play.addEventListener("click", () => setPlaying(!state.playing));
el.speed.addEventListener("change", () => { if (state.playing) clock = { at: performance.now(), frame: state.frame }; });
el.scrubber.addEventListener("input", () => { setPlaying(false); showFrame(Number(el.scrubber.value)); });
el.progress.addEventListener("input", () => { setPlaying(false); showProgress(Number(el.progress.value)); });

document.addEventListener("keydown", (event) => {
  const target = event.target;
  // Radios, selects and the progress slider use the arrow keys themselves.
  const ownsArrows = target.matches?.("select, input[type=radio], #progress-slider");
  if ((event.key === "ArrowLeft" || event.key === "ArrowRight") && !ownsArrows && state.info) {
    event.preventDefault();
    setPlaying(false);
    const step = (event.shiftKey ? 10 : 1) * (event.key === "ArrowLeft" ? -1 : 1);
    showFrame(state.frame + step);
  } else if (event.key === " " && (target === document.body || target === el.scrubber)) {
    event.preventDefault();
    setPlaying(!state.playing);
  } else if ((event.key === "Home" || event.key === "End") && !ownsArrows && state.info) {
    event.preventDefault();
    showFrame(event.key === "Home" ? 0 : state.info.frameCount - 1);
  }
});

// ---- Direction and reverse ------------------------------------------------

async function changeScene() {
  setPlaying(false);
  preloaded.clear();
  try { await loadInfo(); } catch (error) { el.connection.textContent = error.message; }
}

for (const radio of document.querySelectorAll("input[name=direction]")) {
  radio.addEventListener("change", () => { state.direction = radio.value; changeScene(); });
}
el.reverse.addEventListener("change", () => { state.reverse = el.reverse.checked; changeScene(); });

// ---- Timeline of the transient views ----------------------------------------

function buildTimeline(info) {
  el.timeline.replaceChildren();
  info.segments.forEach((segment, index) => {
    const head = document.createElement("div");
    head.className = "segment-head";
    head.textContent = `${segment.direction} · ${segment.duration.toFixed(3)} s · ${segment.roots}`;
    el.timeline.append(head);
    for (const view of segment.views) el.timeline.append(timelineRow(view, segment, index));
  });
  movePlayheads();
}

function timelineRow(view, segment, index) {
  const row = document.createElement("div");
  row.className = "track-row";
  const title = view.name ?? view.path;
  const label = document.createElement("div");
  label.className = "track-label";
  label.textContent = `${title} · ${view.curve}`;
  label.title = `${view.path} (${view.screen})`;
  if (view.matchedWith) {
    const mark = document.createElement("span");
    mark.className = "match-mark";
    mark.textContent = "⇄ ";
    mark.title = `matched with ${view.matchedWith}`;
    label.prepend(mark);
  }
  const track = document.createElement("div");
  track.className = "track";
  track.dataset.segment = String(index);
  const bar = document.createElement("button");
  bar.type = "button";
  bar.className = "bar-view" + (view.matchedWith ? " matched" : "");
  bar.dataset.path = view.path;
  bar.dataset.segment = String(index);
  if (view.matchedWith) bar.dataset.match = view.matchedWith;
  const span = segment.duration > 0 ? segment.duration : 1;
  bar.style.left = `${(view.delay / span) * 100}%`;
  bar.style.width = `${(view.duration / span) * 100}%`;
  bar.textContent = `${view.duration.toFixed(2)} s`;
  const matched = view.matchedWith ? `, matched with ${view.matchedWith}` : "";
  bar.setAttribute("aria-label", `${title}: delay ${view.delay.toFixed(3)} s, ` +
    `duration ${view.duration.toFixed(3)} s, curve ${view.curve}${matched}`);
  bar.title = bar.getAttribute("aria-label");
  for (const type of ["mouseenter", "focus"]) bar.addEventListener(type, () => hover(bar));
  for (const type of ["mouseleave", "blur"]) bar.addEventListener(type, () => hover(null));
  track.append(bar);
  row.append(label, track);
  return row;
}

function hover(bar) {
  for (const b of el.timeline.querySelectorAll(".highlight")) b.classList.remove("highlight");
  state.hovered = bar;
  if (!bar) { outlines.clear(); return; }
  bar.classList.add("highlight");
  const partner = bar.dataset.match &&
    [...el.timeline.querySelectorAll(`.bar-view[data-segment="${bar.dataset.segment}"]`)]
      .find((b) => b.dataset.path === bar.dataset.match);
  if (partner) partner.classList.add("highlight");
  outlines.show(bar);
}

// A red line in each segment's tracks at the current frame's time, when the
// frame falls in that segment's motion phase.
function movePlayheads() {
  const info = state.info;
  if (!info) return;
  const motion = info.phases.filter((p) => p.name === "present" || p.name === "dismiss");
  for (const track of el.timeline.querySelectorAll(".track")) {
    const index = Number(track.dataset.segment);
    const phase = motion.length === info.segments.length ? motion[index] : null;
    let head = track.querySelector(".playhead");
    const inside = phase && phase.firstFrame <= state.frame && state.frame <= phase.lastFrame;
    if (!inside) { head?.remove(); continue; }
    if (!head) { head = document.createElement("div"); head.className = "playhead"; track.append(head); }
    const t = (state.frame - phase.firstFrame) / info.framesPerSecond;
    head.style.left = `${Math.min(1, t / info.segments[index].duration) * 100}%`;
  }
}

// Outlines of a view on the frame come from GET /outlines/N.json when the
// server offers it: a list of the engine's ViewOutline ({screen, path, name,
// corners: 4 points, {x, y} or [x, y], in frame pixels, isVisible}), bare or as {"views": [...]}.
// The first endpoint contract has no such route, so a 404 (or any failure)
// turns outlines off until the next reload and the hover only highlights the bar.
const outlines = {
  available: true,
  cache: new Map(),
  forget() { this.available = true; this.cache.clear(); this.clear(); },
  clear() { el.outline.replaceChildren(); },
  async show(bar) {
    if (!this.available || state.progress !== null) return;
    const url = imageURL(`/outlines/${state.frame}.json`);
    let views = this.cache.get(url);
    if (!views) {
      try {
        const response = await fetch(url);
        if (!response.ok) { this.available = false; return; }
        const body = await response.json();
        views = Array.isArray(body) ? body : body.views ?? [];
        this.cache.set(url, views);
      } catch { this.available = false; return; }
    }
    if (state.hovered !== bar) return; // the pointer moved on while fetching
    this.clear();
    const wanted = [bar.dataset.path, bar.dataset.match];
    for (const view of views.filter((v) => wanted.includes(v.path) && Array.isArray(v.corners))) {
      const shape = document.createElementNS("http://www.w3.org/2000/svg", "polygon");
      shape.setAttribute("points", view.corners.map((c) => (Array.isArray(c) ? c : [c.x, c.y]).join(",")).join(" "));
      if (view.isVisible === false) shape.classList.add("invisible");
      el.outline.append(shape);
    }
  },
};

// ---- Export -----------------------------------------------------------------

// The session's token, which the studio wrote into this page: it shows that an export comes from here.
const sessionToken = document.querySelector('meta[name="studio-token"]').content;

function postExport(query) {
  return fetch(`/export?${query}`, { method: "POST", headers: { "X-Studio-Token": sessionToken } });
}

const exportButtons = document.querySelectorAll("button.export");
for (const button of exportButtons) {
  button.addEventListener("click", async () => {
    const q = sceneQuery();
    q.set("format", button.dataset.format);
    // Disabled before asking: a short export's last event can arrive before the answer does, and it re-enables them.
    for (const b of exportButtons) b.disabled = true;
    el.exportStatus.textContent = `Exporting ${button.textContent}…`;
    el.exportProgress.hidden = false;
    el.exportProgress.value = 0;
    let refusal;
    try {
      let response = await postExport(q);
      // Something the studio did not write is where the export goes: replace it only if the user says so.
      const existing = response.status === 409 && response.headers.get("Content-Type") === "application/json"
        ? (await response.json()).exists : undefined;
      if (existing !== undefined) {
        if (confirm(`${existing} is already there, and the studio did not write it. Replace it?`)) {
          q.set("replace", "1");
          response = await postExport(q);
        } else {
          refusal = `Not exported: ${existing} is already there.`;
        }
      }
      if (refusal === undefined && !response.ok) {
        // 409: another export runs, or the output is one of the scene's inputs; the text says which.
        refusal = response.status === 409 ? await response.text() : `Export refused: ${await response.text()}`;
      }
    } catch (error) {
      refusal = `Export refused: ${error.message}`;
    }
    if (refusal === undefined) return;
    el.exportStatus.textContent = refusal;
    el.exportProgress.hidden = true;
    for (const b of exportButtons) b.disabled = false;
  });
}

function exportMessage(message) {
  el.exportProgress.hidden = false;
  el.exportProgress.max = Math.max(1, message.total);
  el.exportProgress.value = message.done;
  const finished = message.error !== undefined || message.path !== undefined;
  if (message.error !== undefined) el.exportStatus.textContent = `Export failed: ${message.error}`;
  else if (message.path !== undefined) el.exportStatus.textContent = `Wrote ${message.path}`;
  else el.exportStatus.textContent = `Exporting ${message.format}: ${message.done} / ${message.total}`;
  for (const b of exportButtons) b.disabled = !finished;
}

// ---- Errors -------------------------------------------------------------------

function showError(message) {
  const problems = message.problems ?? [];
  // The problems say it all when there are some; the message is for the rest.
  el.errorMessage.textContent = problems.length === 0 ? message.message || "The scene cannot be rendered"
    : `The scene cannot be rendered: ${problems.length} problem${problems.length === 1 ? "" : "s"}`;
  el.errorProblems.replaceChildren();
  for (const problem of problems) {
    const item = document.createElement("li");
    const where = document.createElement("span");
    where.className = "where";
    const at = problem.line != null ? ` (line ${problem.line}, column ${problem.column})` : "";
    where.textContent = `${problem.place || "scene"}${at}`;
    item.append(where, `: ${problem.message}`);
    if (problem.severity === "warning") item.className = "warning";
    el.errorProblems.append(item);
  }
  el.errorPanel.hidden = false;
}

// ---- Live events ----------------------------------------------------------------

function listen() {
  const events = new EventSource("/events");
  let opened = false;
  events.addEventListener("open", () => {
    el.connection.textContent = "live";
    // After a lost connection the scene may have changed: catch up.
    if (opened) changeScene();
    opened = true;
  });
  events.addEventListener("reload", (event) => {
    const message = JSON.parse(event.data);
    state.version = message.version;
    el.errorPanel.hidden = true;
    changeScene();
  });
  // EventSource also fires "error" for a lost connection; only the server's
  // own error events carry data.
  events.addEventListener("error", (event) => {
    if (event.data) showError(JSON.parse(event.data));
    else el.connection.textContent = "reconnecting…";
  });
  events.addEventListener("export", (event) => exportMessage(JSON.parse(event.data)));
}

listen();
loadInfo().catch((error) => { el.connection.textContent = error.message; });
