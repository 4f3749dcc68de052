// The viewer of mbs-view's HTML page: plays a recorded run (`mbs-run 1`, turned into the JSON
// of view/src/page.rs) in 3D with three.js and draws the time plots with uPlot.
//
// Data (the element #mbs-data, JSON): `times` (s, one per frame); `shapes` (kind, body,
// index, label, inner radius ratio of a tube); per frame and shape `poses` (12 f32, the
// columns a, b, c, t of the affine map from the unit shape to the world, m), `colors` (4 u8
// RGBA, alpha 0 = not drawn in that frame), `labels` (3 f32, where the body number is written);
// per frame `contour` (its colour bar or null), `colormap` (the knots [v, [r, g, b]]) and
// `signals` (time plots: names, t, values).
//
// window.mbsView is the page's handle for scripts and the headless test: ready, frame,
// setFrame(i), play(on), camera() (the view and projection matrices and the canvas size).

import * as THREE from "three";
import { OrbitControls } from "three/examples/jsm/controls/OrbitControls.js";
import uPlot from "uplot";

function bytes(b64) {
  const s = atob(b64);
  const out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i);
  return out;
}

const data = JSON.parse(document.getElementById("mbs-data").textContent);
const frames = data.times.length;
const nShapes = data.shapes.length;
const poses = new Float32Array(bytes(data.poses).buffer);
const colors = bytes(data.colors);
const labelsAt = new Float32Array(bytes(data.labels).buffer);

const view = document.getElementById("view");
const renderer = new THREE.WebGLRenderer({ antialias: true, preserveDrawingBuffer: true });
renderer.setPixelRatio(1);
view.appendChild(renderer.domElement);
const scene = new THREE.Scene();
scene.background = new THREE.Color(0xffffff);
scene.add(new THREE.HemisphereLight(0xffffff, 0x667788, 2.0));
const sun = new THREE.DirectionalLight(0xffffff, 1.5);
scene.add(sun);

// Unit shapes: cylinder and tube along y from -1/2 to 1/2 with radius 1, cube of edge 1,
// sphere of radius 1, line from (0,0,0) to (0,1,0); the per-frame pose scales and places them.
function geometry(s) {
  switch (s.kind) {
    case "cylinder": {
      if (s.inner > 0) {
        const r = s.inner;
        const profile = [
          new THREE.Vector2(r, -0.5), new THREE.Vector2(1, -0.5),
          new THREE.Vector2(1, 0.5), new THREE.Vector2(r, 0.5), new THREE.Vector2(r, -0.5),
        ];
        return new THREE.LatheGeometry(profile, 32);
      }
      return new THREE.CylinderGeometry(1, 1, 1, 32);
    }
    case "box":
      return new THREE.BoxGeometry(1, 1, 1);
    case "sphere":
      return new THREE.SphereGeometry(1, 32, 16);
    default:
      return new THREE.BufferGeometry().setFromPoints([new THREE.Vector3(), new THREE.Vector3(0, 1, 0)]);
  }
}

const objects = data.shapes.map((s) => {
  const g = geometry(s);
  const o = s.kind === "line"
    ? new THREE.Line(g, new THREE.LineBasicMaterial({ color: 0x000000 }))
    : new THREE.Mesh(g, new THREE.MeshStandardMaterial({ roughness: 0.55, metalness: 0.1, side: THREE.DoubleSide }));
  o.matrixAutoUpdate = false;
  scene.add(o);
  return o;
});

const labels = data.shapes.map((s) => {
  if (s.label === null) return null;
  const d = document.createElement("div");
  d.className = "label";
  d.textContent = String(s.label);
  view.appendChild(d);
  return d;
});

// The camera looks at the centre of everything the run draws, from an isometric direction.
const box = new THREE.Box3();
for (let f = 0; f < frames; f++) {
  for (let k = 0; k < nShapes; k++) {
    if (colors[4 * (f * nShapes + k) + 3] === 0) continue;
    const p = 12 * (f * nShapes + k);
    box.expandByPoint(new THREE.Vector3(poses[p + 9], poses[p + 10], poses[p + 11]));
  }
}
const centre = box.isEmpty() ? new THREE.Vector3() : box.getCenter(new THREE.Vector3());
const radius = Math.max(box.isEmpty() ? 1 : box.getSize(new THREE.Vector3()).length() / 2, 0.1) * 1.4;
const camera = new THREE.PerspectiveCamera(35, 1, radius / 100, radius * 100);
const dir = new THREE.Vector3(...(data.view_direction || [1, 1, 1])).normalize();
camera.up.set(...(data.up || [0, 1, 0]));
camera.position.copy(centre).addScaledVector(dir, radius / Math.tan((35 / 2) * Math.PI / 180));
const controls = new OrbitControls(camera, renderer.domElement);
controls.target.copy(centre);
controls.update();

let frame = 0;
let playing = true;
let speed = 1;
let simTime = data.times[0];
let lastWall = null;

function showFrame(f) {
  frame = Math.max(0, Math.min(frames - 1, f));
  for (let k = 0; k < nShapes; k++) {
    const c = 4 * (frame * nShapes + k);
    const o = objects[k];
    o.visible = colors[c + 3] !== 0;
    if (!o.visible) {
      if (labels[k]) labels[k].style.display = "none";
      continue;
    }
    const p = 12 * (frame * nShapes + k);
    const m = poses;
    o.matrix.set(
      m[p], m[p + 3], m[p + 6], m[p + 9],
      m[p + 1], m[p + 4], m[p + 7], m[p + 10],
      m[p + 2], m[p + 5], m[p + 8], m[p + 11],
      0, 0, 0, 1,
    );
    o.matrixWorldNeedsUpdate = true;
    o.material.color.setRGB(colors[c] / 255, colors[c + 1] / 255, colors[c + 2] / 255, THREE.SRGBColorSpace);
    const a = colors[c + 3] / 255;
    o.material.transparent = a < 1;
    o.material.opacity = a;
  }
  slider.value = String(frame);
  clock.textContent = `t = ${data.times[frame].toFixed(4)} s  (frame ${frame + 1} / ${frames})`;
  updateCursor();
  updateBar();
}

function placeLabels() {
  const w = renderer.domElement.clientWidth, h = renderer.domElement.clientHeight;
  for (let k = 0; k < nShapes; k++) {
    const d = labels[k];
    if (!d || !objects[k].visible) continue;
    const q = 3 * (frame * nShapes + k);
    const v = new THREE.Vector3(labelsAt[q], labelsAt[q + 1], labelsAt[q + 2]).project(camera);
    d.style.display = v.z < 1 ? "block" : "none";
    d.style.left = `${((v.x + 1) / 2) * w}px`;
    d.style.top = `${((1 - v.y) / 2) * h}px`;
  }
}

function resize() {
  const w = view.clientWidth, h = view.clientHeight;
  renderer.setSize(w, h);
  camera.aspect = w / h;
  camera.updateProjectionMatrix();
}

// Controls: play/pause, the time slider (a frame each), speed (simulated s per wall s).
const play = document.getElementById("play");
const slider = document.getElementById("time");
const clock = document.getElementById("clock");
const speedSel = document.getElementById("speed");
slider.max = String(frames - 1);
function setPlaying(on) {
  playing = on;
  play.textContent = on ? "Pause" : "Play";
  lastWall = null;
  simTime = data.times[frame];
}
play.addEventListener("click", () => {
  if (!playing && frame === frames - 1) showFrame(0);
  setPlaying(!playing);
});
slider.addEventListener("input", () => {
  setPlaying(false);
  showFrame(Number(slider.value));
});
speedSel.addEventListener("change", () => {
  speed = Number(speedSel.value);
});

// The time plots: one uPlot chart of every signal, a cursor line at the frame's time and a
// readout of the values there (the sample at or before it).
const plots = document.getElementById("plots");
const readout = document.getElementById("readout");
let chart = null;
const sig = data.signals;
if (sig && sig.names.length > 0) {
  const palette = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf"];
  chart = new uPlot(
    {
      width: 420,
      height: 300,
      title: sig.title || "sensors",
      scales: { x: { time: false } },
      axes: [{ label: "t (s)" }, {}],
      cursor: { show: false },
      legend: { live: false },
      series: [{ label: "t" }, ...sig.names.map((n, i) => ({ label: n, stroke: palette[i % palette.length], width: 1.5 }))],
      hooks: { draw: [(u) => drawCursor(u)] },
    },
    [sig.t, ...sig.values],
    plots,
  );
}

function sampleAt(t) {
  // The last sample at or before t (binary search), 0 if none.
  let lo = 0, hi = sig.t.length - 1;
  if (hi < 0 || sig.t[0] > t) return 0;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (sig.t[mid] <= t) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

function drawCursor(u) {
  const x = u.valToPos(data.times[frame], "x", true);
  const ctx = u.ctx;
  ctx.save();
  ctx.strokeStyle = "#000";
  ctx.lineWidth = 1;
  ctx.setLineDash([4, 3]);
  ctx.beginPath();
  ctx.moveTo(x, u.bbox.top);
  ctx.lineTo(x, u.bbox.top + u.bbox.height);
  ctx.stroke();
  ctx.restore();
}

function updateCursor() {
  if (!chart) return;
  chart.redraw(false, false);
  const i = sampleAt(data.times[frame]);
  const rows = [`t = ${sig.t[i]} s`].concat(sig.names.map((n, k) => `${n} = ${sig.values[k][i]}`));
  readout.textContent = rows.join("\n");
  readout.dataset.time = String(sig.t[i]);
  readout.dataset.index = String(i);
}

// The colour bar of the frame's contour colouring (the colormap's knots from the data).
const bar = document.getElementById("colorbar");
if (data.colormap) {
  const stops = data.colormap.map(([v, c]) => `rgb(${c.map((x) => Math.round(x * 255)).join(",")}) ${v * 100}%`);
  bar.querySelector(".ramp").style.background = `linear-gradient(to top, ${stops.join(", ")})`;
}
function updateBar() {
  const c = data.contour[frame];
  bar.style.display = c ? "block" : "none";
  if (!c) return;
  bar.querySelector(".title").textContent = c.title;
  bar.querySelector(".max").textContent = c.max.toPrecision(4);
  bar.querySelector(".min").textContent = c.min.toPrecision(4);
}
document.getElementById("title").textContent = data.title || "";

function tick(now) {
  if (playing && frames > 1) {
    if (lastWall !== null) simTime += ((now - lastWall) / 1000) * speed;
    lastWall = now;
    let f = frame;
    while (f + 1 < frames && data.times[f + 1] <= simTime) f++;
    if (f === frames - 1 && simTime > data.times[frames - 1]) {
      setPlaying(false);
    }
    if (f !== frame) showFrame(f);
  }
  controls.update();
  renderer.render(scene, camera);
  placeLabels();
  requestAnimationFrame(tick);
}

window.addEventListener("resize", resize);
resize();
showFrame(0);
requestAnimationFrame(tick);

window.mbsView = {
  ready: true,
  get frame() { return frame; },
  times: data.times,
  setFrame(f) { setPlaying(false); showFrame(f); renderer.render(scene, camera); },
  play(on) { setPlaying(on); },
  camera() {
    camera.updateMatrixWorld();
    return {
      view: camera.matrixWorldInverse.elements.slice(),
      projection: camera.projectionMatrix.elements.slice(),
      width: renderer.domElement.width,
      height: renderer.domElement.height,
    };
  },
};
