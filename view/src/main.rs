//! `mbs-view demo [DIR]`: renders the demo scene (isometric with numbers, and contour colors
//! along z), its sensor plot and CSV into DIR (default `target/mbs-view`) and prints the paths.

use std::path::PathBuf;
use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("demo") => {
            let dir = args
                .get(1)
                .map(PathBuf::from)
                .unwrap_or_else(|| PathBuf::from("target/mbs-view"));
            match mbs_view::demo::render_demo(&dir) {
                Ok(f) => {
                    println!("scene:   {}", f.scene[1].display());
                    println!("contour: {}", f.contour[1].display());
                    println!("plot:    {}", f.plot[1].display());
                    println!("csv:     {}", f.csv.display());
                    println!("(SVG files beside the PNGs)");
                    ExitCode::SUCCESS
                }
                Err(e) => {
                    eprintln!("mbs-view: {e}");
                    ExitCode::FAILURE
                }
            }
        }
        _ => {
            eprintln!("usage: mbs-view demo [DIR]   (writes pictures, a plot and a CSV into DIR)");
            ExitCode::from(2)
        }
    }
}
