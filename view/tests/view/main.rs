//! mbs-view's integration tests, in one test binary (each binary is linked with fat LTO in
//! release, so one binary instead of four keeps CI's build short).

mod csv_round_trip;
mod demo_files;
mod png_decode;
mod run_page;
mod scene_svg_golden;
mod stream_format;
mod svg_support;
mod system_fixture;
mod system_render;
