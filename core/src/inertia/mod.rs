//! Mass properties of rigid bodies: [`MassProperties`] (mass, centre of mass, inertia about the
//! centre of mass, all in one frame `a`) with the parallel-axis shift and combination, and the
//! shapes that produce them: Modelica's [`Cylinder`] (`Modelica.Mechanics.MultiBody.Parts.BodyCylinder`), [`Cuboid`],
//! [`Sphere`] (solid or hollow), [`PointMass`].
//!
//! Pure functions of their parameters: no model or state dependency, no allocation.

pub mod cuboid;
pub mod cylinder;
pub mod mass_properties;
pub mod mass_spec;
pub mod physical;
pub mod point_mass;
pub mod principal;
pub mod sphere;

pub use cuboid::Cuboid;
pub use cylinder::{Cylinder, CylinderDerived, DEFAULT_DENSITY, DEFAULT_WIDTH_FRACTION};
pub use mass_properties::{inertia_tolerance, steiner, MassProperties};
pub use mass_spec::MassSpec;
pub use physical::{is_physical_inertia, is_positive_semidefinite, satisfies_triangle_inequality};
pub use point_mass::PointMass;
pub use principal::symmetric_eigenvalues;
pub use sphere::Sphere;
