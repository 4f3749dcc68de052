// Opens a page of mbs-view in headless Chromium (Debian's /usr/bin/chromium, driven by
// playwright-core) and checks it against the recording it was made from:
//   node test/page.test.mjs <page.html> <run.txt> [--frames A,B] [--shots DIR]
// - the page loads with no console error or page error, WebGL draws;
// - the time slider moved to two frames: in each screenshot of the 3D view every body's
//   projected centre (its recorded position through the page's camera) lies on the body (a
//   drawn pixel within 2 px), a point far from every body is background, and the pixels
//   differ between the two where a body moved;
// - the plot cursor's readout shows the recorded samples at the frame's time;
// - play advances the frames.
// Prints the load time; exits 1 on any failure.
import { chromium } from "playwright-core";
import { PNG } from "pngjs";
import { readFileSync, writeFileSync, mkdirSync, statSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { resolve } from "node:path";

const args = process.argv.slice(2);
const [pagePath, runPath] = args;
const option = (name) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
if (!pagePath || !runPath) {
  console.error("usage: node test/page.test.mjs <page.html> <run.txt> [--frames A,B] [--shots DIR]");
  process.exit(2);
}

let failures = 0;
function check(ok, what) {
  if (!ok) {
    failures++;
    console.log(`FAIL ${what}`);
  }
}

// The recording, read here on its own (not through the page's data).
function readRun(text) {
  const frames = [], signals = [], samples = [];
  for (const raw of text.split("\n")) {
    const line = raw.trim();
    if (line === "" || line.startsWith("#")) continue;
    const w = line.split(/\s+/);
    if (w[0] === "frame") frames.push({ t: Number(w[1]), centres: [] });
    else if (w[0] === "signal") signals.push(line.slice(7));
    else if (w[0] === "sample") samples.push(w.slice(1).map(Number));
    else if (["cylinder", "box", "sphere", "line"].includes(w[0])) {
      const x = w.slice(3, 9).map(Number);
      let c;
      if (w[0] === "cylinder" || w[0] === "line") c = [(x[0] + x[3]) / 2, (x[1] + x[4]) / 2, (x[2] + x[5]) / 2];
      else c = x.slice(0, 3);
      frames[frames.length - 1].centres.push({ body: Number(w[1]), kind: w[0], c });
    }
  }
  return { frames, signals, samples };
}

// A world point to canvas pixels with the camera's column-major view and projection matrices.
function project(cam, p) {
  const mul = (m, v) => [0, 1, 2, 3].map((r) => m[r] * v[0] + m[4 + r] * v[1] + m[8 + r] * v[2] + m[12 + r] * v[3]);
  const clip = mul(cam.projection, mul(cam.view, [p[0], p[1], p[2], 1]));
  const [x, y] = [clip[0] / clip[3], clip[1] / clip[3]];
  return [((x + 1) / 2) * cam.width, ((1 - y) / 2) * cam.height];
}

const run = readRun(readFileSync(runPath, "utf8"));
const last = run.frames.length - 1;
const [fa, fb] = (option("--frames") || `0,${Math.round(last / 3)}`).split(",").map(Number);
const shots = option("--shots");

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
  args: [
    "--no-sandbox", "--disable-gpu", "--use-angle=swiftshader", "--enable-unsafe-swiftshader",
    "--disable-quic", "--no-first-run", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--allow-file-access-from-files",
  ],
});
const errors = [];
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  page.on("console", (m) => { if (m.type() === "error") errors.push(`console: ${m.text()}`); });
  page.on("pageerror", (e) => errors.push(`page error: ${e.message}`));
  const t0 = Date.now();
  await page.goto(pathToFileURL(resolve(pagePath)).href);
  await page.waitForFunction(() => window.mbsView && window.mbsView.ready, null, { timeout: 120000 });
  const loadMs = Date.now() - t0;
  check(await page.evaluate(() => window.mbsView.times.length) === run.frames.length, "the page has every frame");

  // Pause, then move the slider the way a user does.
  await page.click("#play");
  const shotAt = async (f) => {
    await page.locator("#time").fill(String(f));
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    check(await page.evaluate(() => window.mbsView.frame) === f, `the slider shows frame ${f}`);
    // The WebGL canvas's own pixels (the body numbers and colour bar are HTML above it).
    const url = await page.evaluate(() => document.querySelector("#view canvas").toDataURL("image/png"));
    const png = PNG.sync.read(Buffer.from(url.split(",")[1], "base64"));
    const cam = await page.evaluate(() => window.mbsView.camera());
    const readout = await page.evaluate(() => ({
      text: document.getElementById("readout").textContent,
      time: Number(document.getElementById("readout").dataset.time),
    }));
    if (shots) {
      mkdirSync(shots, { recursive: true });
      writeFileSync(`${shots}/frame-${f}.png`, PNG.sync.write(png));
      await page.screenshot({ path: `${shots}/page-frame-${f}.png` });
    }
    return { png, cam, readout };
  };
  const A = await shotAt(fa), B = await shotAt(fb);
  check(A.png.width === A.cam.width && A.png.height === A.cam.height, "the screenshot is the canvas");

  const px = (png, x, y) => {
    const i = 4 * (Math.round(y) * png.width + Math.round(x));
    return [png.data[i], png.data[i + 1], png.data[i + 2]];
  };
  const background = (c) => c[0] > 245 && c[1] > 245 && c[2] > 245;
  const near = (png, p, r, test) => {
    for (let dy = -r; dy <= r; dy++)
      for (let dx = -r; dx <= r; dx++) {
        const x = p[0] + dx, y = p[1] + dy;
        if (x >= 0 && y >= 0 && x < png.width && y < png.height && test(px(png, x, y))) return true;
      }
    return false;
  };
  const differ = (p, r) => {
    for (let dy = -r; dy <= r; dy++)
      for (let dx = -r; dx <= r; dx++) {
        const a = px(A.png, p[0] + dx, p[1] + dy), b = px(B.png, p[0] + dx, p[1] + dy);
        if (Math.abs(a[0] - b[0]) + Math.abs(a[1] - b[1]) + Math.abs(a[2] - b[2]) > 60) return true;
      }
    return false;
  };
  let moved = 0;
  for (const [shot, f] of [[A, fa], [B, fb]]) {
    for (const b of run.frames[f].centres) {
      if (b.kind === "line") continue;
      const p = project(shot.cam, b.c);
      check(near(shot.png, p, 2, (c) => !background(c)),
        `frame ${f}: body ${b.body} (${b.kind}) is drawn at its recorded centre, pixel (${p[0].toFixed(1)}, ${p[1].toFixed(1)})`);
    }
  }
  run.frames[fa].centres.forEach((b, k) => {
    const pa = project(A.cam, b.c), pb = project(B.cam, run.frames[fb].centres[k].c);
    if (b.kind !== "line" && Math.hypot(pa[0] - pb[0], pa[1] - pb[1]) > 20) {
      moved++;
      check(differ(pa, 2) || differ(pb, 2), `body ${b.body} moved ${Math.hypot(pa[0] - pb[0], pa[1] - pb[1]).toFixed(0)} px and the pixels there changed`);
    }
  });
  check(moved > 0, `some body moved between frames ${fa} and ${fb}`);
  // A point far from every body in both frames is background in both.
  const all = [...run.frames[fa].centres.map((b) => project(A.cam, b.c)), ...run.frames[fb].centres.map((b) => project(B.cam, b.c))];
  const corner = [5, 5];
  if (all.every((p) => Math.hypot(p[0] - corner[0], p[1] - corner[1]) > 100))
    check(background(px(A.png, ...corner)) && background(px(B.png, ...corner)), "a corner far from the bodies is background");

  // The plot cursor: the readout is the last sample at or before the frame's time.
  if (run.signals.length > 0) {
    for (const [shot, f] of [[A, fa], [B, fb]]) {
      const t = run.frames[f].t;
      const row = run.samples.filter((r) => r[0] <= t + 1e-12).pop();
      check(row && shot.readout.time === row[0], `frame ${f}: the cursor is at t = ${row && row[0]} (readout ${shot.readout.time})`);
      if (row) {
        const shown = shot.readout.text.split("\n").slice(1).map((l) => Number(l.split(" = ").pop()));
        check(shown.length === run.signals.length && shown.every((v, k) => v === row[k + 1]),
          `frame ${f}: the readout shows the recorded values`);
      }
    }
    check(await page.locator("#plots canvas").count() > 0, "the time plot is drawn");
  }

  // Play advances.
  await page.click("#play");
  const before = await page.evaluate(() => window.mbsView.frame);
  await page.waitForTimeout(700);
  const after = await page.evaluate(() => window.mbsView.frame);
  check(after !== before, `play advances (frame ${before} -> ${after})`);

  check(errors.length === 0, `no console error: ${errors.join("; ")}`);
  const mb = statSync(pagePath).size / 1e6;
  console.log(`page test: ${pagePath} (${mb.toFixed(1)} MB, ${run.frames.length} frames) loaded and ready in ${loadMs} ms; frames ${fa} and ${fb} checked, ${moved} bodies moved; ${failures} failures`);
} finally {
  await browser.close();
}
process.exit(failures === 0 ? 0 : 1);
