//! Shared by the constrained-solver tests.

/// The least-squares slope of `log(error)` over `log(step)`: the measured order of convergence.
pub fn order(steps: &[f64], errors: &[f64]) -> f64 {
    let xs: Vec<f64> = steps.iter().map(|h| h.ln()).collect();
    let ys: Vec<f64> = errors.iter().map(|e| e.ln()).collect();
    let n = xs.len() as f64;
    let (mx, my) = (xs.iter().sum::<f64>() / n, ys.iter().sum::<f64>() / n);
    xs.iter()
        .zip(&ys)
        .map(|(x, y)| (x - mx) * (y - my))
        .sum::<f64>()
        / xs.iter().map(|x| (x - mx) * (x - mx)).sum::<f64>()
}
