//! The **body-state file**: a program without the system C API (one that steps its bodies with
//! the per-item calls, `mbs_rigid_step`, `mbs_mass_point_2d_step`) writes its bodies'
//! parameters and current states as text; [`read_bodies`] rebuilds them as a core [`System`](mbs_core::system::System)
//! (same objects, same node states), so the scene export ([`System::export_scene`](mbs_core::system::System::export_scene): default
//! drawings, contour values, numbers) runs in Rust, `mbs-view render <bodies.txt>`.
//!
//! # Format (version 1)
//! One record per line, fields separated by spaces or tabs; blank lines and `#` lines ignored;
//! numbers as C's `%.17g` writes them. SI units; objects are numbered in the order given.
//!
//! ```text
//! mbs-bodies 1
//! title <text to the end of the line>                         optional
//! ground <x> <y> <z>                                          ObjectGround at (m, world)
//! mass_point_2d <m> <rx> <ry> <qx> <qy> <vx> <vy>             mass (kg), reference position,
//!                                                             displacement (m), velocity (m/s)
//! body_cylinder <r(3)> <r_shape(3)> <length_direction(3)> <length> <diameter> <inner_diameter>
//!               <density> <p(3)> <q(4)> <v(3)> <w_b(3)>       Modelica BodyCylinder parameters
//!                                                             (frame_a), then its state
//! rigid_body <m> <com(3)> <inertia(9, row-major)> <p(3)> <q(4)> <v(3)> <w_b(3)>
//! ```
//!
//! A state is the position of the reference point `p` (m, world), the orientation `q` (unit
//! quaternion of `R_0b`, scalar first), the velocity `v` of the reference point (m/s, world) and
//! the angular velocity `w_b` (rad/s, **body** frame) — exactly `mbs_rigid_state`'s first four
//! fields. The inertia is about the centre of mass (kg m^2, body frame), `com` from the
//! reference point (m, body frame) — `mbs_rigid_body`'s fields.

use crate::stream::records;
use crate::{Result, ViewError};
use mbs_core::bodies::body_cylinder::BodyCylinder;
use mbs_core::inertia::MassProperties;
use mbs_core::math::Quaternion;
use mbs_core::state::RigidState;
use mbs_core::system::{HostSystem, MassPointSpec, NodeState, RigidBodySpec};
use nalgebra::{Matrix3, Vector2, Vector3};

/// A system rebuilt from a body-state file, and its title.
pub struct BodiesFile {
    /// The bodies, each in its state (boxed: a `HostSystem` is large).
    pub system: Box<HostSystem<f64>>,
    /// The `title` record.
    pub title: Option<String>,
}

fn err(line: usize, msg: impl Into<String>) -> ViewError {
    ViewError::Stream {
        line,
        message: msg.into(),
    }
}

struct Fields<'a> {
    line: usize,
    it: std::str::SplitWhitespace<'a>,
}

impl Fields<'_> {
    fn num(&mut self) -> Result<f64> {
        let w = self
            .it
            .next()
            .ok_or_else(|| err(self.line, "too few fields"))?;
        let x: f64 = w
            .parse()
            .map_err(|_| err(self.line, format!("`{w}` is not a number")))?;
        if x.is_finite() {
            Ok(x)
        } else {
            Err(err(self.line, format!("`{w}` is not finite")))
        }
    }
    fn v3(&mut self) -> Result<Vector3<f64>> {
        Ok(Vector3::new(self.num()?, self.num()?, self.num()?))
    }
    fn state(&mut self) -> Result<RigidState<f64>> {
        let p = self.v3()?;
        let q = Quaternion::new(self.num()?, self.num()?, self.num()?, self.num()?);
        let v = self.v3()?;
        let w = self.v3()?;
        Ok(RigidState::new(p, q, v, w))
    }
    fn end(&mut self) -> Result<()> {
        match self.it.next() {
            Some(x) => Err(err(self.line, format!("unexpected field `{x}`"))),
            None => Ok(()),
        }
    }
}

/// Reads a body-state file (see the module docs) into a [`HostSystem`].
///
/// # Errors
/// `Stream { line, message }` for a missing magic record, an unknown record, a wrong number of
/// fields, a number that does not parse or is not finite, or parameters / a state the core
/// refuses (the core's error in the message).
pub fn read_bodies(text: &str) -> Result<BodiesFile> {
    let mut sys = Box::new(HostSystem::<f64>::new());
    let mut title = None;
    for (line, kind, rest) in records(text, "mbs-bodies 1")? {
        let mut f = Fields {
            line,
            it: rest.split_whitespace(),
        };
        let core = |e: mbs_core::Error| err(line, format!("{kind}: {e}"));
        match kind {
            "title" => title = Some(rest.trim().to_string()),
            "ground" => {
                let p = f.v3()?;
                f.end()?;
                sys.create_ground(p).map_err(core)?;
            }
            "mass_point_2d" => {
                let m = f.num()?;
                let r = Vector2::new(f.num()?, f.num()?);
                let q = Vector2::new(f.num()?, f.num()?);
                let v = Vector2::new(f.num()?, f.num()?);
                f.end()?;
                let mut spec = MassPointSpec::new(m, r);
                spec.initial_displacement = q;
                spec.initial_velocity = v;
                sys.create_mass_point(&spec).map_err(core)?;
            }
            "body_cylinder" => {
                let r = f.v3()?;
                let r_shape = f.v3()?;
                let dir = f.v3()?;
                let (length, diameter, inner, density) = (f.num()?, f.num()?, f.num()?, f.num()?);
                let state = f.state()?;
                f.end()?;
                let cyl = BodyCylinder::params(r)
                    .r_shape(r_shape)
                    .length_direction(dir)
                    .length(length)
                    .diameter(diameter)
                    .inner_diameter(inner)
                    .density(density)
                    .build()
                    .map_err(core)?;
                state.validate().map_err(core)?;
                let made = sys.create_body_cylinder(&cyl, None).map_err(core)?;
                sys.set_node_state(made.node, NodeState::RigidBody(state))
                    .map_err(core)?;
            }
            "rigid_body" => {
                let mass = f.num()?;
                let com = f.v3()?;
                let mut inertia = Matrix3::zeros();
                for i in 0..3 {
                    for j in 0..3 {
                        inertia[(i, j)] = f.num()?;
                    }
                }
                let state = f.state()?;
                f.end()?;
                state.validate().map_err(core)?;
                let mp = MassProperties { mass, com, inertia };
                let made = sys
                    .create_rigid_body(&mp, &RigidBodySpec::at(state.position))
                    .map_err(core)?;
                sys.set_node_state(made.node, NodeState::RigidBody(state))
                    .map_err(core)?;
            }
            other => return Err(err(line, format!("unknown record `{other}`"))),
        }
    }
    Ok(BodiesFile { system: sys, title })
}
