//! Typed indices of the items of a [`System`](super::System), and [`ItemRef`], which names any
//! one of them (in errors).
//!
//! An index is the position of the item in its list, in the order the items were added
//! (the first node is `NodeIndex(0)`). Items are never removed, so an index stays valid for the
//! life of the system. The newtypes keep a marker index from being passed where a node index is
//! expected; the inner `u16` is public so that a C caller's plain integer can be wrapped.

macro_rules! index_type {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub struct $name(pub u16);

        impl $name {
            /// The position in its list, as `usize`.
            #[inline]
            pub fn get(self) -> usize {
                usize::from(self.0)
            }

            /// The index of position `i`; `None` if `i` does not fit in `u16`.
            #[inline]
            pub fn from_usize(i: usize) -> Option<Self> {
                u16::try_from(i).ok().map(Self)
            }
        }
    };
}

index_type!(
    /// A node (coordinates): [`Node`](super::Node).
    NodeIndex
);
index_type!(
    /// An object (a body): [`Object`](super::Object).
    ObjectIndex
);
index_type!(
    /// A marker: [`Marker`](super::Marker).
    MarkerIndex
);
index_type!(
    /// A load: [`Load`](super::Load).
    LoadIndex
);
index_type!(
    /// A connector: [`Connector`](super::Connector).
    ConnectorIndex
);
index_type!(
    /// A sensor: [`Sensor`](super::Sensor).
    SensorIndex
);
index_type!(
    /// A constraint: [`Constraint`](super::Constraint).
    ConstraintIndex
);

/// Names one item of a system, or the system as a whole (in a
/// [`SystemError`](super::SystemError)).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ItemRef {
    /// The system itself (settings, time step, not assembled).
    System,
    /// A node.
    Node(NodeIndex),
    /// An object.
    Object(ObjectIndex),
    /// A marker.
    Marker(MarkerIndex),
    /// A load.
    Load(LoadIndex),
    /// A connector.
    Connector(ConnectorIndex),
    /// A sensor.
    Sensor(SensorIndex),
    /// A constraint.
    Constraint(ConstraintIndex),
}

/// The item at position `i` of `list`, or `UnknownIndex`.
#[inline]
pub(crate) fn item<X>(list: &[X], i: usize) -> crate::Result<&X> {
    list.get(i).ok_or(crate::Error::UnknownIndex)
}
