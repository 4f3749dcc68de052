//! [`MassProperties`]: mass, centre of mass and inertia tensor of a rigid body, with the
//! parallel-axis shift, frame changes and the combination of several bodies.

use super::principal::symmetric_eigenvalues;
use crate::error::{finite, finite_all};
use crate::{Error, Param, Real, Result};
use nalgebra::{Matrix3, Vector3};

/// The relative tolerance of the physical-inertia checks of [`MassProperties::new`]:
/// `max(1e-6, 256 EPS)` (1e-6 for f64, 3.1e-5 for f32), relative to the sum of the absolute
/// principal moments. It admits tensors rounded to about six significant digits (CAD output) and
/// the degenerate bodies (thin rod, thin disk, point) that sit exactly on a triangle-inequality
/// bound.
pub fn inertia_tolerance<T: Real>() -> T {
    T::c(1e-6).max(T::EPS * T::c(256.0))
}

/// Mass properties of a rigid body, all resolved in one frame `a` (a body's frame_a).
///
/// Fields are public plain data; [`MassProperties::new`] checks that they are physical.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MassProperties<T> {
    /// Mass `m` (kg), `>= 0`.
    pub mass: T,
    /// Centre of mass `r_CM` (m): vector from the origin of frame `a` to the centre of mass,
    /// resolved in frame `a`.
    pub com: Vector3<T>,
    /// Inertia tensor `I` (kg m^2) about the centre of mass, resolved in frame `a`
    /// (`I = int rho (|s|^2 E - s s^T) dV`, `s` from the centre of mass). Symmetric,
    /// positive semi-definite, principal moments satisfying the triangle inequality.
    pub inertia: Matrix3<T>,
}

impl<T: Real> MassProperties<T> {
    /// Validated mass properties: `mass` (kg) finite and `>= 0`, `com` (m, frame `a`) finite,
    /// `inertia` (kg m^2, about the centre of mass, frame `a`) finite, symmetric and physical:
    /// principal moments `I_1 <= I_2 <= I_3` with `I_1 >= 0` and `I_1 + I_2 >= I_3` (triangle
    /// inequality), each within [`inertia_tolerance`] times `tr(I)` (= `|I_1| + |I_2| + |I_3|`
    /// for a physical tensor), decided without eigenvalues ([`super::physical`]).
    /// The stored tensor is the symmetric part `(I + I^T)/2`.
    ///
    /// Errors: `NotFinite(Mass | CenterOfMass | Inertia)`, `OutOfRange(Mass)` for a negative
    /// mass, `OutOfRange(Inertia)` for an asymmetric or unphysical tensor.
    pub fn new(mass: T, com: Vector3<T>, inertia: Matrix3<T>) -> Result<Self> {
        if !mass.finite() {
            return Err(Error::NotFinite(Param::Mass));
        }
        if mass < T::zero() {
            return Err(Error::OutOfRange(Param::Mass));
        }
        finite_all(&com, Param::CenterOfMass)?;
        finite_all(&inertia, Param::Inertia)?;
        let tol = inertia_tolerance::<T>();
        let scale = inertia.iter().fold(T::zero(), |s, x| s.max(x.abs_l()));
        let sym = symmetrize(&inertia);
        for i in 0..3 {
            for j in (i + 1)..3 {
                if (inertia[(i, j)] - inertia[(j, i)]).abs_l() > tol * scale {
                    return Err(Error::OutOfRange(Param::Inertia));
                }
            }
        }
        if !is_physical(&sym, tol) {
            return Err(Error::OutOfRange(Param::Inertia));
        }
        Ok(Self {
            mass,
            com,
            inertia: sym,
        })
    }

    /// A body of no mass and no inertia at the origin (the neutral element of [`Self::combine`]
    /// apart from its zero total mass).
    pub fn zero() -> Self {
        Self {
            mass: T::zero(),
            com: Vector3::zeros(),
            inertia: Matrix3::zeros(),
        }
    }

    /// The principal moments of inertia (kg m^2, about the centre of mass), ascending.
    pub fn principal_moments(&self) -> [T; 3] {
        symmetric_eigenvalues(&self.inertia)
    }

    /// The inertia tensor (kg m^2, frame `a`) about `point` (m, from the origin of frame `a`,
    /// resolved in frame `a`), by the parallel-axis theorem:
    /// `I_p = I_c + m (|d|^2 E - d d^T)`, `d = com - point`.
    pub fn inertia_about(&self, point: &Vector3<T>) -> Matrix3<T> {
        self.inertia + steiner(self.mass, &(self.com - point))
    }

    /// The same body described from a frame whose origin is displaced by `-offset`: the centre
    /// of mass becomes `com + offset` (m), mass and inertia (about the centre of mass, same
    /// axes) are unchanged. Use it to place a part: a part built at the origin, translated by
    /// the position of its origin in frame `a`.
    pub fn translated(&self, offset: &Vector3<T>) -> Self {
        Self {
            mass: self.mass,
            com: self.com + offset,
            inertia: self.inertia,
        }
    }

    /// The same body resolved in another frame `b` with the same origin: `r` maps frame-`a`
    /// coordinates to frame-`b` coordinates (`v_b = r v_a`, i.e. Modelica's `T` from `a` to `b`;
    /// for placing a part built in its own frame `p` into `a`, pass `R_ap`).
    /// `com_b = r com_a`, `I_b = r I_a r^T` (Modelica's `resolveDyade2`). `r` must be
    /// orthonormal (unchecked). The result is symmetrized exactly.
    pub fn rotated(&self, r: &Matrix3<T>) -> Self {
        Self {
            mass: self.mass,
            com: r * self.com,
            inertia: symmetrize(&(r * self.inertia * r.transpose())),
        }
    }

    /// The combination of two bodies rigidly joined; see [`Self::combine`].
    pub fn combine_two(a: &Self, b: &Self) -> Result<Self> {
        Self::combine(&[*a, *b])
    }

    /// The combination of several bodies rigidly joined, all resolved in frame `a`:
    /// `m = sum m_i`, `com = sum m_i com_i / m`, `I = sum (I_i + m_i (|d_i|^2 E - d_i d_i^T))`,
    /// `d_i = com_i - com`.
    ///
    /// Errors: `NotFinite(Mass | CenterOfMass | Inertia)` for a non-finite part (or an overflow
    /// of the result), `OutOfRange(Mass)` for a negative part mass or a total mass of zero
    /// (also for an empty slice): the centre of mass is then undefined.
    pub fn combine(parts: &[Self]) -> Result<Self> {
        let mut m = T::zero();
        let mut first_moment = Vector3::zeros();
        for p in parts {
            if !p.mass.finite() {
                return Err(Error::NotFinite(Param::Mass));
            }
            if p.mass < T::zero() {
                return Err(Error::OutOfRange(Param::Mass));
            }
            finite_all(&p.com, Param::CenterOfMass)?;
            finite_all(&p.inertia, Param::Inertia)?;
            m += p.mass;
            first_moment += p.com * p.mass;
        }
        if m <= T::zero() {
            return Err(Error::OutOfRange(Param::Mass));
        }
        finite(m, Param::Mass)?;
        let com = first_moment / m;
        finite_all(&com, Param::CenterOfMass)?;
        let mut inertia = Matrix3::zeros();
        for p in parts {
            inertia += p.inertia + steiner(p.mass, &(p.com - com));
        }
        finite_all(&inertia, Param::Inertia)?;
        Ok(Self {
            mass: m,
            com,
            inertia,
        })
    }
}

/// The parallel-axis term `m (|d|^2 E - d d^T)` (kg m^2) of a mass `m` (kg) at offset `d` (m).
#[inline]
pub fn steiner<T: Real>(m: T, d: &Vector3<T>) -> Matrix3<T> {
    (Matrix3::identity() * d.dot(d) - d * d.transpose()) * m
}

/// The symmetric part `(a + a^T)/2`: removes the rounding asymmetry of `R^T D R` products so
/// that every stored inertia tensor is exactly symmetric.
#[inline]
pub fn symmetrize<T: Real>(a: &Matrix3<T>) -> Matrix3<T> {
    (a + a.transpose()) * T::c(0.5)
}

/// `true` if the symmetric `inertia` has principal moments `I_1 <= I_2 <= I_3` with
/// `I_1 >= -tol s` and `I_1 + I_2 >= I_3 - tol s`, `s = tr(I)` (which is
/// `|I_1| + |I_2| + |I_3|` to within `2 tol s` for every tensor that passes); decided by
/// principal minors, without eigenvalues ([`super::physical`]).
fn is_physical<T: Real>(inertia: &Matrix3<T>, tol: T) -> bool {
    super::physical::is_physical_inertia(inertia, tol)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unphysical_inertia_is_refused() {
        let c = Vector3::zeros();
        let d = |a: f64, b: f64, c: f64| Matrix3::from_diagonal(&Vector3::new(a, b, c));
        assert!(MassProperties::new(1.0, c, d(1.0, 1.0, 2.0)).is_ok()); // thin disk
        assert!(MassProperties::new(1.0, c, d(0.0, 0.0, 0.0)).is_ok()); // point
        assert_eq!(
            MassProperties::new(1.0, c, d(1.0, 1.0, 2.1)),
            Err(Error::OutOfRange(Param::Inertia))
        );
        assert_eq!(
            MassProperties::new(1.0, c, d(-0.1, 1.0, 1.0)),
            Err(Error::OutOfRange(Param::Inertia))
        );
        let mut asym = d(1.0, 1.0, 1.0);
        asym[(0, 1)] = 0.1;
        assert_eq!(
            MassProperties::new(1.0, c, asym),
            Err(Error::OutOfRange(Param::Inertia))
        );
        assert_eq!(
            MassProperties::new(-1.0, c, d(1.0, 1.0, 1.0)),
            Err(Error::OutOfRange(Param::Mass))
        );
        assert_eq!(
            MassProperties::new(f64::NAN, c, d(1.0, 1.0, 1.0)),
            Err(Error::NotFinite(Param::Mass))
        );
    }

    #[test]
    fn combine_refuses_zero_total_mass() {
        assert_eq!(
            MassProperties::<f64>::combine(&[]),
            Err(Error::OutOfRange(Param::Mass))
        );
        assert_eq!(
            MassProperties::<f32>::combine_two(&MassProperties::zero(), &MassProperties::zero()),
            Err(Error::OutOfRange(Param::Mass))
        );
    }
}
