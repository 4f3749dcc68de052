//! [`Block`]: the part of a fixed-capacity matrix a model adds its entries to, and the zeroing
//! of leading blocks and vectors.

use crate::target::IN_ORDER;
use crate::Real;

/// A block of a fixed-capacity matrix that a model adds its entries to: rows `row..row + rows`
/// and columns `col..col + cols` of the array; writes outside the block are ignored.
pub struct Block<'a, T, const S: usize> {
    a: &'a mut [[T; S]; S],
    row: usize,
    col: usize,
    rows: usize,
    cols: usize,
}

impl<'a, T: Real, const S: usize> Block<'a, T, S> {
    /// The block of `a` at (`row`, `col`) of size `rows x cols`.
    pub fn new(a: &'a mut [[T; S]; S], row: usize, col: usize, rows: usize, cols: usize) -> Self {
        Self {
            a,
            row,
            col,
            rows,
            cols,
        }
    }

    /// Adds `v` to entry (`i`, `j`) of the block.
    #[inline]
    pub fn add(&mut self, i: usize, j: usize, v: T) {
        if i < self.rows && j < self.cols {
            if let Some(x) = self
                .a
                .get_mut(self.row + i)
                .and_then(|r| r.get_mut(self.col + j))
            {
                *x += v;
            }
        }
    }

    /// Adds `v` to the `count` diagonal entries from `(i, i)` on (bounds-checked once; entries
    /// outside the block are ignored, as [`Self::add`] ignores them).
    pub fn add_diagonal(&mut self, i: usize, count: usize, v: T) {
        let (r0, c0) = (self.row + i, self.col + i);
        let inside = i + count <= self.rows && i + count <= self.cols && c0 + count <= S;
        match self.a.get_mut(r0..r0 + count) {
            Some(rows) if inside => {
                for (k, row) in rows.iter_mut().enumerate() {
                    row[c0 + k] += v;
                }
            }
            _ => {
                for k in 0..count {
                    self.add(i + k, i + k, v);
                }
            }
        }
    }

    /// Adds `a d` to the entries at rows `i..i + R`, columns `j..j + C` of the block (a dense
    /// sub-block, bounds-checked once a row instead of once an entry; entries outside the block
    /// are ignored, as [`Self::add`] ignores them).
    pub fn add_scaled<const R: usize, const C: usize>(
        &mut self,
        i: usize,
        j: usize,
        d: &nalgebra::SMatrix<T, R, C>,
        a: T,
    ) {
        let inside = i + R <= self.rows && j + C <= self.cols;
        let (r0, c0) = (self.row + i, self.col + j);
        match self.a.get_mut(r0..r0 + R) {
            Some(rows) if inside && c0 + C <= S => {
                for (r, row) in rows.iter_mut().enumerate() {
                    for (c, x) in row[c0..c0 + C].iter_mut().enumerate() {
                        *x += a * d[(r, c)];
                    }
                }
            }
            _ => {
                for r in 0..R {
                    for c in 0..C {
                        self.add(i + r, j + c, a * d[(r, c)]);
                    }
                }
            }
        }
    }

    /// The same block without its first `k` rows (row `i` of the result is row `k + i`).
    pub fn shifted(&mut self, k: usize) -> Block<'_, T, S> {
        Block {
            a: self.a,
            row: self.row + k,
            col: self.col,
            rows: self.rows.saturating_sub(k),
            cols: self.cols,
        }
    }

    /// The square block on this block's columns (rows and columns `col..col + cols`): for a
    /// block of constraint rows over the coordinates, the coordinates' own block, where
    /// `d(C_q^T lambda)/dq` goes.
    pub fn columns_block(&mut self) -> Block<'_, T, S> {
        Block {
            a: self.a,
            row: self.col,
            col: self.col,
            rows: self.cols,
            cols: self.cols,
        }
    }

    /// Number of rows of the block.
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// Number of columns of the block.
    pub fn cols(&self) -> usize {
        self.cols
    }
}

/// Zeroes the first `n` entries of `v`, whose others are zero. On a host the whole vector
/// when `n` is at least half of it: of a size known at compile time, it is written in a few
/// wide stores in line, where a fill of `n` entries is a `memset` call.
#[inline(always)]
pub(crate) fn zero_leading<T: Real, const S: usize>(v: &mut [T; S], n: usize) {
    if !IN_ORDER && 2 * n >= S {
        *v = [T::zero(); S];
    } else {
        v[..n.min(S)].fill(T::zero());
    }
}

/// Zeroes the leading `k x k` block: where it spans most of each row, the whole first `k`
/// rows in one fill (a fill per short row costs more in calls than in stores).
pub(crate) fn zero_block<T: Real, const S: usize>(a: &mut [[T; S]; S], k: usize) {
    let k = k.min(S);
    if 2 * k >= S {
        a[..k].as_flattened_mut().fill(T::zero());
    } else {
        for row in a[..k].iter_mut() {
            row[..k].fill(T::zero());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use nalgebra::SMatrix;

    /// `add_scaled` adds what `add` adds entry by entry: inside the block, and where the
    /// sub-block reaches past the block's rows, its columns or the array (those entries
    /// ignored, the rest added).
    #[test]
    fn a_scaled_sub_block_adds_what_entry_by_entry_adds() {
        let d = SMatrix::<f64, 3, 2>::from_fn(|r, c| (1 + 2 * r + c) as f64);
        // (block row, col, rows, cols; sub-block at i, j)
        let cases = [
            (1, 1, 4, 4, 0, 1), // inside
            (1, 1, 4, 4, 2, 3), // past the block's rows and columns
            (3, 4, 3, 3, 1, 1), // past the array's rows and columns
        ];
        for (row, col, rows, cols, i, j) in cases {
            let mut a = [[0.5f64; 6]; 6];
            let mut b = a;
            Block::new(&mut a, row, col, rows, cols).add_scaled(i, j, &d, -2.0);
            let mut block = Block::new(&mut b, row, col, rows, cols);
            for r in 0..3 {
                for c in 0..2 {
                    block.add(i + r, j + c, -2.0 * d[(r, c)]);
                }
            }
            assert_eq!(a, b);
            assert_ne!(a, [[0.5f64; 6]; 6]);
        }
    }
}
