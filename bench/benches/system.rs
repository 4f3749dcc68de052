//! Criterion benches of one `System::step` (dt = 1 ms, default scheme) of a hanging chain of
//! 1, 10 and 100 rigid bodies on spring-dampers (`mbs_bench::chain`). The system keeps moving
//! over the iterations (a damped swinging chain; the work per step does not depend on the
//! state). The per-body cost is fitted by `mbs-system-scaling`.
//!
//! Run: `cargo bench -p mbs-bench --bench system`.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use mbs_bench::chain;
use mbs_core::system::NoSink;
use std::hint::black_box;

fn systems(c: &mut Criterion) {
    let mut g = c.benchmark_group("system step, chain of rigid bodies on spring-dampers");
    for n in [1usize, 10, 100] {
        let Ok(mut sys) = chain::chain(n) else {
            continue;
        };
        g.bench_with_input(BenchmarkId::from_parameter(n), &n, |b, _| {
            b.iter(|| sys.step(black_box(1e-3), &mut NoSink))
        });
    }
    g.finish();
}

criterion_group!(benches, systems);
criterion_main!(benches);
