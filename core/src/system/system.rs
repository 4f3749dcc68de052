//! [`System`]: the fixed-capacity multibody system, its items, states, settings and solver
//! storage in one value (nothing allocates), and its time, settings and counts.

use super::alpha::layout::Layout;
use super::alpha::storage::AlphaStorage;
use super::body_states::BodyStates;
use super::connector::Connector;
use super::constraint::Constraint;
use super::grid::Grid;
use super::index::ObjectIndex;
use super::load::Load;
use super::marker::Marker;
use super::node::{Node, NodeState};
use super::object::Object;
use super::sensor::Sensor;
use super::settings::SystemSettings;
use super::tree::SystemTree;
use crate::graphics::GraphicsData;
use crate::integrators::constrained::ConstrainedAlpha;
use crate::{Real, Result};
use heapless::Vec;
/// A multibody system with compile-time capacities: `N` nodes, `O` objects, `M` markers,
/// `L` loads, `C` connectors, `S` sensors (each at most 65535), and `G` objects with custom
/// graphics data ([`System::set_graphics`]; default 0: every object is drawn by its default
/// shape, see [`System::export_scene`]). Nothing allocates; the whole
/// system is one value (put it in a `static` cell or on the stack). See
/// [`FirmwareSystem`](super::FirmwareSystem) and [`HostSystem`](super::HostSystem) for ready
/// sizes.
///
/// `Clone` and `PartialEq` compare every item, state, setting and the time (a snapshot).
#[derive(Clone, Debug, PartialEq)]
pub struct System<
    T: Real,
    const N: usize,
    const O: usize,
    const M: usize,
    const L: usize,
    const C: usize,
    const S: usize,
    const G: usize = 0,
    const K: usize = 0,
    const W: usize = 0,
    const J: usize = 0,
> {
    pub(super) nodes: Vec<Node<T>, N, u16>,
    pub(super) states: Vec<NodeState<T>, N, u16>,
    /// The body on each node (`None` until an object is added on it).
    pub(super) node_object: Vec<Option<ObjectIndex>, N, u16>,
    pub(super) objects: Vec<Object<T>, O, u16>,
    pub(super) markers: Vec<Marker<T>, M, u16>,
    pub(super) loads: Vec<Load<T>, L, u16>,
    pub(super) connectors: Vec<Connector<T>, C, u16>,
    pub(super) sensors: Vec<Sensor<T>, S, u16>,
    /// Custom graphics data of up to `G` objects (the others are drawn by their default shape).
    pub(super) graphics: Vec<(ObjectIndex, GraphicsData<T>), G, u16>,
    pub(super) settings: SystemSettings<T>,
    /// The generalized-alpha scheme of `settings`, built where they are set (the step does
    /// not rebuild it each time).
    pub(super) alpha_scheme: Option<ConstrainedAlpha<T>>,
    pub(super) time: T,
    /// The rounding error of the running sum of `step`'s time steps (Kahan's compensated sum),
    /// so that `n` steps of `h` end at `n h` to a rounding, as a solve's `t_0 + i h` does.
    pub(super) time_carry: T,
    /// During a solve, the end times of its steps (`step` then steps on it, not on the
    /// running sum); off otherwise.
    pub(super) grid: Grid<T>,
    pub(super) assembled: bool,
    /// Set by `assemble`: some force depends on the velocities (a damper).
    pub(super) velocity_dependent: bool,
    /// Up to `K` constraints.
    pub(super) constraints: Vec<Constraint<T>, K, u16>,
    /// Where the nodes' coordinates and the constraints' equations sit in the
    /// generalized-alpha vectors (set by `assemble` with that scheme).
    pub(super) layout: Layout<T, N, K>,
    /// The generalized-alpha state between steps and its Newton workspace (capacity `W`).
    pub(super) alpha: AlphaStorage<T, W>,
    /// The kinematic tree of at most `J` links (one-coordinate joints), if any.
    pub(super) tree: SystemTree<T, J>,
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
    > Default for System<T, N, O, M, L, C, S, G, K, W, J>
{
    fn default() -> Self {
        Self::new()
    }
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
    /// An empty, unassembled system at time 0 with default [`SystemSettings`].
    pub fn new() -> Self {
        Self {
            nodes: Vec::new(),
            states: Vec::new(),
            node_object: Vec::new(),
            objects: Vec::new(),
            markers: Vec::new(),
            loads: Vec::new(),
            connectors: Vec::new(),
            sensors: Vec::new(),
            graphics: Vec::new(),
            settings: SystemSettings::default(),
            alpha_scheme: SystemSettings::<T>::default().alpha.scheme().ok(),
            time: T::zero(),
            time_carry: T::zero(),
            grid: Grid::off(),
            assembled: false,
            velocity_dependent: false,
            constraints: Vec::new(),
            layout: Layout::default(),
            alpha: AlphaStorage::default(),
            tree: SystemTree::default(),
        }
    }

    /// The view of the nodes, objects and current states.
    pub(super) fn view(&self) -> BodyStates<'_, T> {
        BodyStates::new(&self.nodes, &self.states, &self.objects)
    }

    /// The current time (s).
    pub fn time(&self) -> T {
        self.time
    }

    /// The integration settings.
    pub fn settings(&self) -> &SystemSettings<T> {
        &self.settings
    }

    /// Sets the integration settings (checked by [`SystemSettings::validate`]; on error the old
    /// ones stay). Un-assembles only if the scheme, the generalized-alpha formulation or its
    /// rotation coordinates change (what `assemble` checks and prepares depends on them).
    pub fn set_settings(&mut self, settings: SystemSettings<T>) -> Result<()> {
        settings.validate()?;
        let scheme = settings.alpha.scheme()?;
        if settings.scheme != self.settings.scheme
            || settings.alpha.formulation != self.settings.alpha.formulation
            || settings.alpha.rotations != self.settings.alpha.rotations
        {
            self.assembled = false;
        }
        self.settings = settings;
        self.alpha_scheme = Some(scheme);
        Ok(())
    }

    /// `true` after a successful [`assemble`](System::assemble) with no `add_*` since.
    pub fn is_assembled(&self) -> bool {
        self.assembled
    }

    /// Puts every node back to its initial state and the time to 0 (items unchanged); with
    /// generalized-alpha the next step first computes consistent start values again.
    pub fn reset(&mut self) {
        self.initial_states();
        self.time = T::zero();
        self.time_carry = T::zero();
        self.alpha.invalidate();
    }

    /// Every node in its initial state, and the kinematic tree's coordinates (its links'
    /// nodes following them).
    pub(crate) fn initial_states(&mut self) {
        for (s, n) in self.states.iter_mut().zip(self.nodes.iter()) {
            *s = n.initial_state();
        }
        let t = &mut self.tree;
        (t.q, t.v, t.acc) = (t.initial_q, t.initial_v, [T::zero(); J]);
        self.refresh_links();
    }

    /// Writes zeros into the unused slots of the system's item vectors. A system moved into a
    /// caller's buffer (the C API's storage) carries whatever bytes those slots held before
    /// the move; after this, they are defined.
    pub fn zero_unused_capacity(&mut self) {
        zero_spare(&mut self.nodes);
        zero_spare(&mut self.states);
        zero_spare(&mut self.node_object);
        zero_spare(&mut self.objects);
        zero_spare(&mut self.markers);
        zero_spare(&mut self.loads);
        zero_spare(&mut self.connectors);
        zero_spare(&mut self.sensors);
        zero_spare(&mut self.graphics);
        zero_spare(&mut self.constraints);
        zero_spare(&mut self.layout.offsets);
        zero_spare(&mut self.layout.rows);
        if let Some(t) = &mut self.tree.model {
            t.zero_unused_capacity();
        }
    }

    /// Numbers of nodes, objects, markers, loads, connectors, sensors.
    pub fn counts(&self) -> [usize; 6] {
        [
            self.nodes.len(),
            self.objects.len(),
            self.markers.len(),
            self.loads.len(),
            self.connectors.len(),
            self.sensors.len(),
        ]
    }
}

/// Zeros in the unused slots of `v`.
fn zero_spare<T, const N: usize>(v: &mut Vec<T, N, u16>) {
    for slot in v.spare_capacity_mut() {
        *slot = core::mem::MaybeUninit::zeroed();
    }
}
