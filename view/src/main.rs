//! `mbs-view`, the host tool:
//!
//! - `mbs-view demo [DIR]`: renders the demo scene (isometric with numbers, and contour colors
//!   along z), its sensor plot and CSV into DIR (default `target/mbs-view`) and prints the paths.
//! - `mbs-view render <scene.txt> [--csv <trajectory.csv>] [--out <DIR>] [--view iso|x|y|z]
//!   [--size <W>x<H>] [--numbers] [--contour <OutputVariable> [--component <k>]]`: draws a
//!   scene to `<DIR>/<stem>.svg` and `.png`, and with `--csv` a time plot of every column of
//!   the CSV to `<DIR>/<csv stem>.svg` and `.png` (default DIR: the scene file's directory);
//!   prints the paths. The scene file is either a primitive stream (`mbs-scene 1`,
//!   `mbs_view::stream`: the scene as exported, settings already applied) or a body-state file
//!   (`mbs-bodies 1`, `mbs_view::bodies`: bodies and states, rebuilt as a system whose
//!   `export_scene` runs here with `--numbers` / `--contour` / `--component`, default
//!   component -1 = the norm).
//! - `mbs-view page <run.txt> [--out <DIR>] [--up x,y,z] [--view-dir x,y,z]`: the page of a
//!   run recording (`mbs-run 1`, `mbs_core::graphics::record`): `<DIR>/<stem>.html`, one
//!   self-contained HTML file that plays the run in 3D beside its time plots.
//! - `mbs-view chain [--links N] [--steps S] [--dt H] [--out DIR]`: runs a chain of N
//!   BodyCylinder links on revolute joints (default 10 links, 10,000 steps of 1 ms, a progress
//!   line when longer than a second), writes its recording `<DIR>/chain.txt` and page
//!   `<DIR>/chain.html` (default DIR `target/mbs-view`).

use mbs_core::graphics::VisualizationSettings;
use mbs_core::OutputVariableType;
use mbs_view::{
    page_html, plot_svg, read_bodies, read_run, read_stream, scene_svg, system_scene, write_png,
    write_svg, PageOptions, PlotOptions, RenderOptions, Trajectory, View,
};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

const USAGE: &str = "usage:\n  mbs-view demo [DIR]\n  mbs-view render <scene.txt | bodies.txt> [--csv <trajectory.csv>] [--out <DIR>] [--view iso|x|y|z] [--size <W>x<H>] [--numbers] [--contour <OutputVariable> [--component <k>]]\n  mbs-view page <run.txt> [--out <DIR>] [--up x,y,z] [--view-dir x,y,z]\n  mbs-view chain [--links N] [--steps S] [--dt H] [--out DIR]";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("demo") => demo(args.get(1)),
        Some("render") => render(&args[1..]),
        Some("page") => page(&args[1..]),
        Some("chain") => chain(&args[1..]),
        _ => {
            eprintln!("{USAGE}");
            return ExitCode::from(2);
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("mbs-view: {e}");
            ExitCode::FAILURE
        }
    }
}

fn demo(dir: Option<&String>) -> Result<(), String> {
    let dir = dir
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("target/mbs-view"));
    let f = mbs_view::demo::render_demo(&dir).map_err(|e| e.to_string())?;
    println!("scene:   {}", f.scene[1].display());
    println!("contour: {}", f.contour[1].display());
    println!("plot:    {}", f.plot[1].display());
    println!("csv:     {}", f.csv.display());
    println!("(SVG files beside the PNGs)");
    Ok(())
}

struct RenderArgs {
    scene: PathBuf,
    csv: Option<PathBuf>,
    out: Option<PathBuf>,
    view: View,
    size: (u32, u32),
    settings: VisualizationSettings,
}

fn parse_render(args: &[String]) -> Result<RenderArgs, String> {
    let mut scene = None;
    let mut r = RenderArgs {
        scene: PathBuf::new(),
        csv: None,
        out: None,
        view: View::Isometric,
        size: (800, 600),
        settings: VisualizationSettings::default(),
    };
    r.settings.contour.output_variable_component = -1;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut value = || {
            it.next()
                .cloned()
                .ok_or_else(|| format!("{a} needs a value\n{USAGE}"))
        };
        match a.as_str() {
            "--csv" => r.csv = Some(PathBuf::from(value()?)),
            "--out" => r.out = Some(PathBuf::from(value()?)),
            "--view" => {
                r.view = match value()?.as_str() {
                    "iso" | "isometric" => View::Isometric,
                    "x" => View::AlongX,
                    "y" => View::AlongY,
                    "z" => View::AlongZ,
                    v => return Err(format!("unknown view `{v}` (iso, x, y, z)")),
                }
            }
            "--numbers" => r.settings.bodies.show_numbers = true,
            "--contour" => {
                let v = value()?;
                r.settings.contour.output_variable = Some(
                    OutputVariableType::from_name(&v)
                        .ok_or_else(|| format!("unknown output variable `{v}`"))?,
                );
            }
            "--component" => {
                let v = value()?;
                r.settings.contour.output_variable_component =
                    v.parse().map_err(|_| format!("bad component `{v}`"))?;
            }
            "--size" => {
                let v = value()?;
                let (w, h) = v
                    .split_once('x')
                    .and_then(|(w, h)| Some((w.parse().ok()?, h.parse().ok()?)))
                    .filter(|(w, h): &(u32, u32)| *w > 0 && *h > 0)
                    .ok_or_else(|| format!("bad size `{v}` (e.g. 800x600)"))?;
                r.size = (w, h);
            }
            s if s.starts_with("--") => return Err(format!("unknown option `{s}`\n{USAGE}")),
            s if scene.is_none() => scene = Some(PathBuf::from(s)),
            s => return Err(format!("unexpected argument `{s}`\n{USAGE}")),
        }
    }
    r.scene = scene.ok_or_else(|| format!("no scene file\n{USAGE}"))?;
    Ok(r)
}

fn stem(p: &Path, fallback: &str) -> String {
    p.file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| fallback.to_string())
}

fn render(args: &[String]) -> Result<(), String> {
    let a = parse_render(args)?;
    let text =
        std::fs::read_to_string(&a.scene).map_err(|e| format!("{}: {e}", a.scene.display()))?;
    let what = |e: mbs_view::ViewError| format!("{}: {e}", a.scene.display());
    let magic = text
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty() && !l.starts_with('#'))
        .unwrap_or("");
    let s = if magic.starts_with("mbs-bodies") {
        let b = read_bodies(&text).map_err(what)?;
        mbs_view::StreamScene {
            scene: system_scene(&*b.system, &a.settings).map_err(what)?,
            title: b.title,
        }
    } else {
        read_stream(&text).map_err(what)?
    };
    let dir = a.out.clone().unwrap_or_else(|| {
        a.scene
            .parent()
            .map(Path::to_path_buf)
            .unwrap_or_else(|| PathBuf::from("."))
    });
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let opts = RenderOptions {
        width: a.size.0,
        height: a.size.1,
        view: a.view,
        title: s.title.clone(),
        ..RenderOptions::default()
    };
    let svg = scene_svg(&s.scene, &opts);
    let name = stem(&a.scene, "scene");
    let (svg_path, png_path) = (
        dir.join(format!("{name}.svg")),
        dir.join(format!("{name}.png")),
    );
    write_svg(&svg_path, &svg).map_err(|e| e.to_string())?;
    write_png(&png_path, &svg).map_err(|e| e.to_string())?;
    println!(
        "scene: {} ({} primitives)",
        png_path.display(),
        s.scene.primitives.len()
    );
    println!("       {}", svg_path.display());
    if let Some(csv) = &a.csv {
        let text = std::fs::read_to_string(csv).map_err(|e| format!("{}: {e}", csv.display()))?;
        let t = Trajectory::from_csv(&text).map_err(|e| format!("{}: {e}", csv.display()))?;
        let name = stem(csv, "trajectory");
        let plot = plot_svg(
            &t,
            &PlotOptions {
                title: format!("{name}: {} columns, {} rows", t.names().len(), t.len()),
                ..PlotOptions::default()
            },
        );
        let (svg_path, png_path) = (
            dir.join(format!("{name}.svg")),
            dir.join(format!("{name}.png")),
        );
        write_svg(&svg_path, &plot).map_err(|e| e.to_string())?;
        write_png(&png_path, &plot).map_err(|e| e.to_string())?;
        println!("plot:  {}", png_path.display());
        println!("       {}", svg_path.display());
    }
    Ok(())
}

/// `x,y,z` as three finite numbers, not all zero.
fn direction(v: &str) -> Result<[f64; 3], String> {
    let x: Vec<f64> = v
        .split(',')
        .map(|w| w.trim().parse::<f64>())
        .collect::<Result<_, _>>()
        .map_err(|_| format!("bad direction `{v}` (e.g. 0,1,0)"))?;
    match x[..] {
        [a, b, c] if x.iter().all(|v| v.is_finite()) && (a, b, c) != (0.0, 0.0, 0.0) => {
            Ok([a, b, c])
        }
        _ => Err(format!("bad direction `{v}` (three numbers, not all zero)")),
    }
}

/// Writes the page of the recording `text` to `<dir>/<name>.html`; prints what it holds.
fn write_page(
    text: &str,
    what: &Path,
    dir: &Path,
    name: &str,
    options: &PageOptions,
) -> Result<(), String> {
    let run = read_run(text).map_err(|e| format!("{}: {e}", what.display()))?;
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let html = page_html(&run, options);
    let path = dir.join(format!("{name}.html"));
    std::fs::write(&path, &html).map_err(|e| format!("{}: {e}", path.display()))?;
    println!(
        "page:  {} ({} frames, {} signals, {:.1} MB; opens from disk in a browser)",
        path.display(),
        run.frames.len(),
        run.signals.len(),
        html.len() as f64 / 1e6
    );
    Ok(())
}

fn page(args: &[String]) -> Result<(), String> {
    let (mut file, mut out, mut options) = (None, None, PageOptions::default());
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut value = || {
            it.next()
                .cloned()
                .ok_or_else(|| format!("{a} needs a value\n{USAGE}"))
        };
        match a.as_str() {
            "--out" => out = Some(PathBuf::from(value()?)),
            "--up" => options.up = direction(&value()?)?,
            "--view-dir" => options.view_direction = direction(&value()?)?,
            s if s.starts_with("--") => return Err(format!("unknown option `{s}`\n{USAGE}")),
            s if file.is_none() => file = Some(PathBuf::from(s)),
            s => return Err(format!("unexpected argument `{s}`\n{USAGE}")),
        }
    }
    let file = file.ok_or_else(|| format!("no recording\n{USAGE}"))?;
    let text = std::fs::read_to_string(&file).map_err(|e| format!("{}: {e}", file.display()))?;
    let dir = out.unwrap_or_else(|| {
        file.parent()
            .map(Path::to_path_buf)
            .unwrap_or_else(|| PathBuf::from("."))
    });
    write_page(&text, &file, &dir, &stem(&file, "run"), &options)
}

fn chain(args: &[String]) -> Result<(), String> {
    let (mut links, mut steps, mut dt) = (10usize, 10_000u32, 1e-3);
    let mut dir = PathBuf::from("target/mbs-view");
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let v = it
            .next()
            .ok_or_else(|| format!("{a} needs a value\n{USAGE}"))?;
        let bad = || format!("bad value `{v}` for {a}");
        match a.as_str() {
            "--links" => {
                links = v
                    .parse()
                    .ok()
                    .filter(|n| (1..=64).contains(n))
                    .ok_or_else(bad)?
            }
            "--steps" => steps = v.parse().ok().filter(|n| *n > 0).ok_or_else(bad)?,
            "--dt" => {
                dt = v
                    .parse()
                    .ok()
                    .filter(|h: &f64| h.is_finite() && *h > 0.0)
                    .ok_or_else(bad)?
            }
            "--out" => dir = PathBuf::from(v),
            s => return Err(format!("unknown option `{s}`\n{USAGE}")),
        }
    }
    let text = mbs_view::chain::record_chain(links, steps, dt)?;
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let path = dir.join("chain.txt");
    std::fs::write(&path, &text).map_err(|e| format!("{}: {e}", path.display()))?;
    println!(
        "run:   {} ({:.1} MB)",
        path.display(),
        text.len() as f64 / 1e6
    );
    let options = PageOptions {
        view_direction: [0.25, 0.15, 1.0],
        ..PageOptions::default()
    };
    write_page(&text, &path, &dir, "chain", &options)
}
