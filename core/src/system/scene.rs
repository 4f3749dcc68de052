//! The system's scene export (Exudyn's visualization rules): every object handed to
//! [`graphics::export_scene`](crate::graphics::export_scene) as a [`SceneBody`], so a caller's
//! callback gets each [`DrawPrimitive`] (world frame, final color, number label), allocation-free.
//!
//! Per object:
//! - **graphics**: its custom [`GraphicsData`] if [`System::set_graphics`] gave it one, else its
//!   default drawing ([`default_drawing`]: ground nothing, mass point a
//!   steel sphere of its mass, rigid body its equivalent uniform box, BodyCylinder Modelica's
//!   cylinder with its `animation` and `color`);
//! - **pose**: the position of its reference point `r_0` (m, world) and `R_0b`: a rigid body's
//!   or BodyCylinder's node (frame_a), a mass point's node position with `R_0b = E`, the ground's
//!   reference position with `R_0b = E`;
//! - **contour value** (when `contour.outputVariable` is set with `rigidBodiesColored`):
//!   [`contour_component`]`(object output(var, local position 0), component)`; `None` (own colors
//!   kept) if the body has no such output (`OutputNotAvailable`, `LocalPositionMustBeZero`) and
//!   always for the ground (it has no coordinates: its values are constants and would only widen
//!   the automatic range).
//!
//! # RAM
//! Default drawings cost nothing per object beyond a BodyCylinder's packed
//! [`CylinderShape`](super::CylinderShape) in its object slot (every `Object` slot is as large
//! as its largest variant, so every slot holds one). Custom graphics live in a separate table
//! of `G` entries (the system's last const generic, default 0), each an [`ObjectIndex`] and a
//! [`GraphicsData<T>`] of [`GRAPHICS_CAPACITY`] primitives, paid only for the `G` entries
//! declared. `docs/embedded.md` has the sizes.

use super::body_states::BodyStates;
use super::default_graphics::default_drawing;
use super::index::{item, ObjectIndex};
use super::object::Object;
use super::system::System;
use crate::graphics::record::{self, RecordError};
use crate::graphics::{
    contour_component, export_scene, BodyGraphics, DrawPrimitive, GraphicsData, SceneBody,
    SceneSummary, VisualizationSettings, GRAPHICS_CAPACITY,
};
use crate::{Error, Real, Result};
use nalgebra::{Matrix3, Vector3};

/// The scene body of object `i` in `view` with `custom` graphics (if any): pose, graphics and
/// contour value. Errors: a non-finite or invalid node state; an output error other than
/// "not available".
fn scene_body<'a, T: Real>(
    view: &BodyStates<'a, T>,
    i: usize,
    custom: Option<&'a GraphicsData<T>>,
    settings: &VisualizationSettings,
) -> Result<SceneBody<'a, T, GRAPHICS_CAPACITY>> {
    let object = view.objects.get(i).ok_or(Error::UnknownIndex)?;
    let (position, rotation) = match object {
        Object::Ground(g) => (g.reference_position(), Matrix3::identity()),
        Object::MassPoint2D { node, .. } => (view.node_motion(*node)?.0, Matrix3::identity()),
        Object::RigidBody { node, .. }
        | Object::BodyCylinder { node, .. }
        | Object::TreeLink { node, .. } => {
            let s = view.rigid(*node)?;
            s.validate()?;
            (s.position, s.rotation_matrix())
        }
        Object::RigidBody2D { node, .. } => {
            let (n, s) = view.rigid2d(*node)?;
            let c = n.configuration(&s);
            c.check()?;
            let p = c.point();
            (Vector3::new(p.x, p.y, T::zero()), c.rotation_matrix())
        }
    };
    let index = ObjectIndex::from_usize(i).ok_or(Error::UnknownIndex)?;
    let contour = match settings.contour.output_variable {
        Some(var)
            if settings.contour.colors_bodies()
                && settings.bodies.show
                && !matches!(object, Object::Ground(_)) =>
        {
            match view.body_output(index, var, &Vector3::zeros()) {
                Ok(v) => contour_component(&v, settings.contour.output_variable_component),
                Err(Error::OutputNotAvailable) | Err(Error::LocalPositionMustBeZero) => None,
                Err(e) => return Err(e),
            }
        }
        _ => None,
    };
    let (graphics, rotation) = match custom {
        Some(g) => (BodyGraphics::Data(g), rotation),
        None => {
            let d = default_drawing(object);
            let rotation = match d.frame {
                Some(r_bp) => rotation * r_bp,
                None => rotation,
            };
            (
                BodyGraphics::Single {
                    show: d.show,
                    primitive: d.primitive,
                },
                rotation,
            )
        }
    };
    Ok(SceneBody {
        number: i,
        position,
        rotation,
        graphics,
        contour,
    })
}

impl<
        T: Real,
        const N: usize,
        const O: usize,
        const M: usize,
        const L: usize,
        const C: usize,
        const S: usize,
        const G: usize,
        const K: usize,
        const W: usize,
        const J: usize,
    > System<T, N, O, M, L, C, S, G, K, W, J>
{
    /// Gives object `i` its own graphics data (body frame; replaces its default drawing and any
    /// graphics set before). Does not un-assemble (drawing does not change the dynamics).
    ///
    /// # Errors
    /// `UnknownIndex` (no such object); `CapacityFull` if `G` other objects have custom graphics
    /// already (nothing changed).
    pub fn set_graphics(&mut self, i: ObjectIndex, graphics: GraphicsData<T>) -> Result<()> {
        item(&self.objects, i.get())?;
        if let Some(slot) = self.graphics.iter_mut().find(|(o, _)| *o == i) {
            slot.1 = graphics;
            return Ok(());
        }
        self.graphics
            .push((i, graphics))
            .map_err(|_| Error::CapacityFull)
    }

    /// Drops object `i`'s custom graphics (it is drawn by its default again); `true` if it had
    /// some.
    pub fn clear_graphics(&mut self, i: ObjectIndex) -> bool {
        match self.graphics.iter().position(|(o, _)| *o == i) {
            Some(k) => {
                self.graphics.remove(k);
                true
            }
            None => false,
        }
    }

    /// Object `i`'s custom graphics data, `None` if it is drawn by its default.
    pub fn graphics(&self, i: ObjectIndex) -> Option<&GraphicsData<T>> {
        self.graphics.iter().find(|(o, _)| *o == i).map(|(_, g)| g)
    }

    /// The scene of the current state: calls `emit` once per primitive of every drawn object,
    /// in object order and primitive order (see the module docs for what each object gives and
    /// [`export_scene`] for the settings' rules). Allocation-free; works unassembled too.
    ///
    /// Every object is checked first, so on `Err` nothing was emitted.
    ///
    /// # Errors
    /// `NonFiniteState` / `OutOfRange(Orientation)` for an invalid node state; an output error
    /// other than "not available" of a contour variable; those of [`export_scene`].
    pub fn export_scene<F: FnMut(&DrawPrimitive<T>)>(
        &self,
        settings: &VisualizationSettings,
        emit: F,
    ) -> Result<SceneSummary<T>> {
        let view = self.view();
        let custom = |i: usize| {
            self.graphics
                .iter()
                .find(|(o, _)| o.get() == i)
                .map(|(_, g)| g)
        };
        for i in 0..self.objects.len() {
            scene_body(&view, i, custom(i), settings)?;
        }
        let bodies =
            (0..self.objects.len()).filter_map(|i| scene_body(&view, i, custom(i), settings).ok());
        export_scene(settings, bodies, emit)
    }

    /// One frame of a run recording (the `mbs-run 1` format of [`record`]): `frame <t>` with
    /// the system's time, the scene of [`System::export_scene`] as primitive records, and its
    /// colour bar. Allocation-free: the text goes to `out` as it is made.
    ///
    /// # Errors
    /// `Scene(..)`: those of [`System::export_scene`] (nothing written); `Write`: `out` failed.
    pub fn record_frame<Wr: core::fmt::Write>(
        &self,
        settings: &VisualizationSettings,
        out: &mut Wr,
    ) -> core::result::Result<SceneSummary<T>, RecordError> {
        record::write_frame(out, self.time, settings, |emit| {
            self.export_scene(settings, emit)
        })
    }
}
