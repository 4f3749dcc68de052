//! [`Trajectory`]: a table of sensor outputs over time — a time column (s) and named value
//! columns — and its CSV form.
//!
//! CSV (RFC 4180): a header `time,<name>,...` (a name with a comma, quote or line break is
//! quoted, quotes doubled), then one row per time; numbers in Rust's shortest round-trip form
//! (`{:?}`: `0.1`, `1e-20`, `NaN`, `inf`), so reading them back gives the same f64 bits.

use crate::{Result, ViewError};
use std::fmt::Write as _;
use std::path::Path;

/// Sensor outputs over time.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Trajectory {
    names: Vec<String>,
    time: Vec<f64>,
    columns: Vec<Vec<f64>>,
}

impl Trajectory {
    /// An empty table with the value columns `names` (e.g. `"body 1 tip y (m)"`).
    pub fn new<S: Into<String>>(names: impl IntoIterator<Item = S>) -> Self {
        let names: Vec<String> = names.into_iter().map(Into::into).collect();
        let columns = vec![Vec::new(); names.len()];
        Self {
            names,
            time: Vec::new(),
            columns,
        }
    }

    /// Appends the row at time `t` (s) with one value per column.
    ///
    /// # Errors
    /// `Table` if `values` has the wrong length, `t` is not finite, or `t` is below the previous
    /// time; nothing is appended then.
    pub fn push(&mut self, t: f64, values: &[f64]) -> Result<()> {
        if values.len() != self.names.len() {
            return Err(ViewError::Table(format!(
                "{} values for {} columns",
                values.len(),
                self.names.len()
            )));
        }
        if !t.is_finite() {
            return Err(ViewError::Table("time is not finite".into()));
        }
        if self.time.last().is_some_and(|last| t < *last) {
            return Err(ViewError::Table("time decreases".into()));
        }
        self.time.push(t);
        for (c, v) in self.columns.iter_mut().zip(values) {
            c.push(*v);
        }
        Ok(())
    }

    /// The column names.
    pub fn names(&self) -> &[String] {
        &self.names
    }

    /// The time column (s).
    pub fn time(&self) -> &[f64] {
        &self.time
    }

    /// Value column `i`.
    pub fn column(&self, i: usize) -> Option<&[f64]> {
        self.columns.get(i).map(|c| c.as_slice())
    }

    /// Number of rows.
    pub fn len(&self) -> usize {
        self.time.len()
    }

    /// `true` without rows.
    pub fn is_empty(&self) -> bool {
        self.time.is_empty()
    }

    /// The CSV text (see the module docs).
    pub fn to_csv(&self) -> String {
        let mut s = String::from("time");
        for n in &self.names {
            s.push(',');
            s.push_str(&csv_field(n));
        }
        s.push('\n');
        for (r, t) in self.time.iter().enumerate() {
            let _ = write!(s, "{t:?}");
            for c in &self.columns {
                let _ = write!(s, ",{:?}", c[r]);
            }
            s.push('\n');
        }
        s
    }

    /// Reads a CSV table (RFC 4180, as [`Trajectory::to_csv`] writes it, or a C program's
    /// `time,a,b` header and `%.17g` rows): the first column is the time (its header name is
    /// free), every other column a value column. Blank lines are skipped.
    ///
    /// # Errors
    /// `Table` for no header, a row of the wrong length, a field that is not a number, or a
    /// time that is not finite or decreases (with the row number).
    pub fn from_csv(text: &str) -> Result<Self> {
        let mut r = csv::ReaderBuilder::new()
            .has_headers(true)
            .trim(csv::Trim::All)
            .from_reader(text.as_bytes());
        let headers = r
            .headers()
            .map_err(|e| ViewError::Table(format!("csv header: {e}")))?
            .clone();
        if headers.is_empty() {
            return Err(ViewError::Table("csv: no header".into()));
        }
        let mut t = Trajectory::new(headers.iter().skip(1));
        let mut values = Vec::with_capacity(headers.len());
        for (k, rec) in r.records().enumerate() {
            let row = k + 2;
            let rec = rec.map_err(|e| ViewError::Table(format!("csv row {row}: {e}")))?;
            values.clear();
            for f in rec.iter() {
                values.push(f.parse::<f64>().map_err(|_| {
                    ViewError::Table(format!("csv row {row}: `{f}` is not a number"))
                })?);
            }
            let Some((time, rest)) = values.split_first() else {
                continue;
            };
            t.push(*time, rest)
                .map_err(|e| ViewError::Table(format!("csv row {row}: {e}")))?;
        }
        Ok(t)
    }

    /// Writes [`Trajectory::to_csv`] to `path`.
    pub fn write_csv(&self, path: &Path) -> Result<()> {
        std::fs::write(path, self.to_csv())?;
        Ok(())
    }
}

fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_are_checked_before_anything_is_added() {
        let mut t = Trajectory::new(["a", "b"]);
        assert!(t.push(0.0, &[1.0]).is_err());
        assert!(t.push(f64::NAN, &[1.0, 2.0]).is_err());
        t.push(1.0, &[1.0, 2.0]).unwrap();
        assert!(t.push(0.5, &[1.0, 2.0]).is_err());
        assert_eq!(t.len(), 1);
        assert_eq!(t.column(1), Some(&[2.0][..]));
        assert_eq!(csv_field("x, \"y\""), "\"x, \"\"y\"\"\"");
    }
}
