//! Axis ticks at "nice" values (1, 2, 5 times a power of ten) and their labels.

/// About `target` tick values covering `[lo, hi]`, spaced 1, 2 or 5 times a power of ten, all
/// inside `[lo, hi]` (extended by a rounding tolerance). A degenerate or non-finite range
/// gives the one value `lo` (or nothing for non-finite).
pub fn nice_ticks(lo: f64, hi: f64, target: usize) -> Vec<f64> {
    if !(lo.is_finite() && hi.is_finite()) {
        return Vec::new();
    }
    if hi <= lo {
        return vec![lo];
    }
    let step = nice_step((hi - lo) / target.max(1) as f64);
    let tol = step * 1e-9;
    let first = (lo / step - 1e-9).ceil() * step;
    let mut out = Vec::new();
    let mut k = 0;
    loop {
        let v = first + k as f64 * step;
        if v > hi + tol || k > 1000 {
            break;
        }
        // Snap tiny values to exact zero (e.g. -1.1e-17).
        out.push(if v.abs() < tol { 0.0 } else { v });
        k += 1;
    }
    out
}

/// The 1, 2 or 5 (times a power of ten) nearest to `raw` (geometrically: the mantissa `m`
/// of `raw` rounds to 1 below 1.5, to 2 below 3.5, to 5 below 7.5, else to 10).
pub fn nice_step(raw: f64) -> f64 {
    if !(raw.is_finite() && raw > 0.0) {
        return 1.0;
    }
    let p = 10f64.powf(raw.log10().floor());
    let m = raw / p;
    let n = if m < 1.5 {
        1.0
    } else if m < 3.5 {
        2.0
    } else if m < 7.5 {
        5.0
    } else {
        10.0
    };
    n * p
}

/// A label with `digits` significant digits, plain for 1e-3 <= |v| < 1e5, else scientific;
/// trailing zeros removed.
pub fn label(v: f64, digits: usize) -> String {
    if v == 0.0 {
        return "0".to_string();
    }
    if !v.is_finite() {
        return format!("{v}");
    }
    let a = v.abs();
    let digits = digits.max(1);
    if (1e-3..1e5).contains(&a) {
        let int_digits = a.log10().floor() as i64 + 1;
        let decimals = (digits as i64 - int_digits).max(0) as usize;
        let s = format!("{v:.decimals$}");
        trim(&s)
    } else {
        let s = format!("{:.*e}", digits - 1, v);
        match s.split_once('e') {
            Some((m, e)) => format!("{}e{}", trim(m), e),
            None => s,
        }
    }
}

fn trim(s: &str) -> String {
    if s.contains('.') {
        let t = s.trim_end_matches('0').trim_end_matches('.');
        if t == "-0" {
            "0".to_string()
        } else {
            t.to_string()
        }
    } else {
        s.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ticks_are_nice_and_inside() {
        let t: Vec<String> = nice_ticks(0.0, 1.0, 5)
            .iter()
            .map(|v| label(*v, 4))
            .collect();
        assert_eq!(t, ["0", "0.2", "0.4", "0.6", "0.8", "1"]);
        let t = nice_ticks(-0.37, 2.1, 5);
        assert_eq!(t.first().copied(), Some(0.0));
        assert!(t.iter().all(|v| *v >= -0.37 && *v <= 2.1));
        assert_eq!(nice_ticks(3.0, 3.0, 5), vec![3.0]);
        assert_eq!(nice_step(0.3), 0.2);
        assert_eq!(nice_step(0.55), 0.5);
        assert_eq!(nice_step(8.0), 10.0);
    }

    #[test]
    fn labels_are_readable() {
        assert_eq!(label(0.5, 4), "0.5");
        assert_eq!(label(1.2345678, 4), "1.235");
        assert_eq!(label(-12.0, 4), "-12");
        assert_eq!(label(123456.0, 4), "1.235e5");
        assert_eq!(label(0.000012, 3), "1.2e-5");
        assert_eq!(label(0.0, 4), "0");
    }
}
