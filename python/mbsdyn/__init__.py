"""mbsdyn: mbs, a small, fast, deterministic multibody dynamics kernel, for Python.

The same engine as mbs's C library (``libmbs``), wrapped with PyO3: a fixed-capacity
``System`` with Exudyn's item names (``create_mass_point``, ``add_marker_body_rigid``,
``add_revolute_joint``, ``add_sensor_body``, ``solve_dynamic``, ...) whose sensors come back as
numpy arrays; ``KinematicTree`` with ``rnea``, ``crba`` and ``aba`` on numpy vectors;
``solve_batch`` to solve many systems at once on all cores with the GIL released. Every refused
call raises ``MbsError`` (its message is the C API's status text; ``status`` the code, ``item``
the item) and changes nothing. SI units; vectors in the world frame unless named ``local``.
"""

from ._native import (
    CreatedBody,
    KinematicTree,
    MbsError,
    System,
    __version__,
    body_cylinder_mass_properties,
    box_mass_properties,
    record_header,
    solve_batch,
    sphere_mass_properties,
    status_text,
)

__all__ = [
    "CreatedBody",
    "KinematicTree",
    "MbsError",
    "System",
    "__version__",
    "body_cylinder_mass_properties",
    "box_mass_properties",
    "record_header",
    "solve_batch",
    "sphere_mass_properties",
    "status_text",
]
