//! "Nice" steps (1, 2, 5 times a power of ten) and number labels, for the scene picture's
//! scale and colour bar (the time plots' axes are plotters').

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
    fn steps_are_nice() {
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
