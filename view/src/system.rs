//! Pictures of a [`System`]: its scene ([`System::export_scene`]: every object's custom or
//! default graphics, world poses, contour colors, number labels) captured as a [`Scene`] and
//! drawn to SVG ([`render_system`]) or PNG ([`render_system_png`]), or written as a primitive
//! stream ([`crate::stream`]).

use crate::raster::svg_to_png;
use crate::scene_svg::{scene_svg, to_f64, RenderOptions, Scene};
use crate::Result;
use mbs_core::graphics::VisualizationSettings;
use mbs_core::system::System;
use mbs_core::Real;

/// The scene of `sys`'s current state with `settings`.
///
/// # Errors
/// The core's refusals ([`System::export_scene`]: an invalid state, a bad contour range).
pub fn system_scene<
    T: Real,
    const N: usize,
    const O: usize,
    const M: usize,
    const L: usize,
    const C: usize,
    const S: usize,
    const G: usize,
    const K: usize,
    const W: usize,
    const J: usize,
>(
    sys: &System<T, N, O, M, L, C, S, G, K, W, J>,
    settings: &VisualizationSettings,
) -> Result<Scene> {
    let mut primitives = Vec::new();
    let summary = sys.export_scene(settings, |p| primitives.push(to_f64(p)))?;
    Ok(Scene::from_export(primitives, &summary, settings))
}

/// The SVG picture of `sys`'s current state ([`system_scene`], then [`scene_svg`]).
///
/// # Errors
/// Those of [`system_scene`].
pub fn render_system<
    T: Real,
    const N: usize,
    const O: usize,
    const M: usize,
    const L: usize,
    const C: usize,
    const S: usize,
    const G: usize,
    const K: usize,
    const W: usize,
    const J: usize,
>(
    sys: &System<T, N, O, M, L, C, S, G, K, W, J>,
    settings: &VisualizationSettings,
    opts: &RenderOptions,
) -> Result<String> {
    Ok(scene_svg(&system_scene(sys, settings)?, opts))
}

/// The PNG picture of `sys`'s current state (the SVG of [`render_system`], rasterized).
///
/// # Errors
/// Those of [`render_system`] and [`svg_to_png`].
pub fn render_system_png<
    T: Real,
    const N: usize,
    const O: usize,
    const M: usize,
    const L: usize,
    const C: usize,
    const S: usize,
    const G: usize,
    const K: usize,
    const W: usize,
    const J: usize,
>(
    sys: &System<T, N, O, M, L, C, S, G, K, W, J>,
    settings: &VisualizationSettings,
    opts: &RenderOptions,
) -> Result<Vec<u8>> {
    svg_to_png(&render_system(sys, settings, opts)?)
}
