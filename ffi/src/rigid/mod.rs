//! One rigid body without a system, from C: its parameters (`mbs_rigid_body`, built from mass
//! properties or from Modelica's `BodyCylinder`), its start state (Modelica's initialization),
//! its state (`mbs_rigid_state`), the loads of a step (`mbs_rigid_loads`), the step settings
//! and report, and the step itself; each in double and, with the suffix `_f32`, in float.

pub mod body;
pub mod body_cylinder;
pub mod body_start;
pub mod loads;
pub mod scheme;
pub mod state;
pub mod step;
pub mod step_settings;
