"""mbs from Python through ctypes (standard library only).

Loads ``libmbs.so`` (``libmbs.dylib`` on macOS, ``mbs.dll`` on Windows) from the path in the
environment variable ``MBS_LIB``, else from ``target/release`` (then ``target/debug``) of the
repository this file lives in (``cargo build --release -p mbs-ffi`` builds it).

The structs mirror ``include/mbs.h`` field by field (same names, units and frames: see the
header). Every function keeps its C signature; ``check`` turns an error status into an
``MbsError`` carrying the status and ``mbs_status_str``'s text, and returns warnings
(``MBS_WARN_*``) so the caller can look at them. Arrays are passed as ctypes arrays, e.g.
``vec3(1, 2, 3)``; results are read from the structs' fields.
"""

import ctypes
import os
import sys
from ctypes import (
    CFUNCTYPE,
    POINTER,
    Structure,
    c_bool,
    c_char_p,
    c_double,
    c_float,
    c_int32,
    c_size_t,
    c_uint8,
    c_uint32,
    c_uint64,
    c_void_p,
)

__all__ = ["lib", "check", "MbsError"]


def _library_path():
    env = os.environ.get("MBS_LIB")
    if env:
        return env
    name = {"darwin": "libmbs.dylib", "win32": "mbs.dll"}.get(sys.platform, "libmbs.so")
    root = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
    for profile in ("release", "debug"):
        path = os.path.join(root, "target", profile, name)
        if os.path.exists(path):
            return path
    raise OSError(
        "libmbs not found: set MBS_LIB or run `cargo build --release -p mbs-ffi` in " + root
    )


lib = ctypes.CDLL(_library_path())

# ---- status --------------------------------------------------------------------------------
status = c_uint32
MBS_OK = 0
MBS_WARN_STEP_TOO_LARGE = 1
MBS_WARN_SENSOR_BUFFER_FULL = 2
MBS_ERR_NULL_POINTER = 100
MBS_ERR_NOT_FINITE = 101
MBS_ERR_CAPACITY_FULL = 102
MBS_ERR_UNKNOWN_INDEX = 103
MBS_ERR_NOT_ASSEMBLED = 104
MBS_ERR_NOT_AVAILABLE = 105
MBS_ERR_SOLVER_FAILED = 106
MBS_ERR_NON_FINITE_STATE = 107
MBS_ERR_INVALID_ARGUMENT = 108
MBS_ERR_STORAGE = 109
MBS_ERR_NOT_INITIALIZED = 110
MBS_ERR_SINGULAR_MATRIX = 111
MBS_ERR_NEWTON_NOT_CONVERGED = 112
MBS_ERR_CONSTRAINT_VIOLATED = 113
MBS_ERR_NOT_SUPPORTED_BY_SCHEME = 114
MBS_ERR_BUSY = 115
MBS_ERR_PANIC = 199
MBS_ERR_INVALID_MASS = 200
MBS_ERR_INVALID_TIME_STEP = 207
MBS_ERR_INVALID_SETTING = 211
MBS_ERR_INVALID_MARKER = 214
MBS_ERR_SAME_MARKER = 215
MBS_ERR_WRONG_NODE_KIND = 216
MBS_ERR_NODE_ALREADY_USED = 220
MBS_ERR_NODE_WITHOUT_BODY = 221
MBS_ERR_INVALID_COORDINATE = 222
MBS_ERR_SAME_BODY = 223

lib.mbs_status_str.argtypes = [status]
lib.mbs_status_str.restype = c_char_p
lib.mbs_status_is_ok.argtypes = [status]
lib.mbs_status_is_ok.restype = c_bool
lib.mbs_version.argtypes = []
lib.mbs_version.restype = c_char_p


class MbsError(RuntimeError):
    """An error status (>= 100) of an mbs call: ``.status`` and the library's text."""

    def __init__(self, code, what=""):
        self.status = code
        text = lib.mbs_status_str(code).decode()
        super().__init__(f"{what}: mbs status {code}: {text}" if what else f"mbs status {code}: {text}")


def check(code, what=""):
    """Returns ``code`` if it is ``MBS_OK`` or a warning, raises ``MbsError`` otherwise."""
    if not lib.mbs_status_is_ok(code):
        raise MbsError(code, what)
    return code


def version():
    """The library version string."""
    return lib.mbs_version().decode()


def vec(ctype, *values):
    """A ctypes array of ``values``."""
    return (ctype * len(values))(*values)


def vec2(*v):
    return vec(c_double, *v)


def vec3(*v):
    return vec(c_double, *v)


# ---- output variables and integrators ------------------------------------------------------
output_variable = c_uint32
(
    MBS_OUTPUT_POSITION,
    MBS_OUTPUT_DISPLACEMENT,
    MBS_OUTPUT_VELOCITY,
    MBS_OUTPUT_ACCELERATION,
    MBS_OUTPUT_ROTATION_MATRIX,
    MBS_OUTPUT_ROTATION,
    MBS_OUTPUT_ANGULAR_VELOCITY,
    MBS_OUTPUT_ANGULAR_VELOCITY_LOCAL,
    MBS_OUTPUT_ANGULAR_ACCELERATION,
    MBS_OUTPUT_KINETIC_ENERGY,
    MBS_OUTPUT_POTENTIAL_ENERGY,
    MBS_OUTPUT_FORCE,
    MBS_OUTPUT_CONSTRAINT_RESIDUAL,
    MBS_OUTPUT_COORDINATES,
    MBS_OUTPUT_COORDINATES_T,
    MBS_OUTPUT_COORDINATES_TT,
    MBS_OUTPUT_FORCE_LOCAL,
    MBS_OUTPUT_TORQUE,
    MBS_OUTPUT_TORQUE_LOCAL,
) = range(19)

MBS_INTEGRATOR_MIDPOINT = 0
MBS_INTEGRATOR_EXPLICIT_EULER = 1
MBS_INTEGRATOR_SYMPLECTIC_EULER = 2
MBS_INTEGRATOR_RK4 = 3
MBS_DYNAMIC_SOLVER_GENERALIZED_ALPHA = 0
MBS_DYNAMIC_SOLVER_SYSTEM_COUPLING = 1

lib.mbs_output_variable_len.argtypes = [output_variable]
lib.mbs_output_variable_len.restype = c_size_t


# ---- structs (field order and types exactly as in mbs.h) ------------------------------------
class mbs_mass_properties(Structure):
    _fields_ = [("mass", c_double), ("com", c_double * 3), ("inertia", c_double * 9)]


class mbs_cylinder(Structure):
    _fields_ = [
        ("r", c_double * 3),
        ("r_shape", c_double * 3),
        ("length_direction", c_double * 3),
        ("has_length_direction", c_uint8),
        ("length", c_double),
        ("has_length", c_uint8),
        ("diameter", c_double),
        ("has_diameter", c_uint8),
        ("inner_diameter", c_double),
        ("density", c_double),
        ("width_fraction", c_double),
    ]


class mbs_body_start(Structure):
    _fields_ = [
        ("r_0_start", c_double * 3),
        ("v_0_start", c_double * 3),
        ("angles_start", c_double * 3),
        ("sequence_start", c_uint32 * 3),
        ("w_0_start", c_double * 3),
        ("z_0_start", c_double * 3),
    ]


def _rigid_structs(real):
    class Body(Structure):
        _fields_ = [
            ("mass", real),
            ("inertia", real * 9),
            ("center_of_mass", real * 3),
            ("reference_position", real * 3),
            ("reference_orientation", real * 4),
            # Private (mbs_rigid_body_validated_of): the validated core body and the checksum
            # that init writes; never set them.
            ("_validated_core", real * 29),
            ("_validated_checksum", c_uint32),
            ("_validated_pad0", c_uint32),
        ]

    class State(Structure):
        _fields_ = [
            ("position", real * 3),
            ("orientation", real * 4),
            ("velocity", real * 3),
            ("angular_velocity", real * 3),
            ("acceleration", real * 3),
            ("angular_acceleration", real * 3),
        ]

    class Loads(Structure):
        _fields_ = [
            ("force", real * 3),
            ("torque", real * 3),
            ("torque_world", real * 3),
            ("gravity", real * 3),
            ("linear_damping", real * 3),
            ("angular_damping", real * 3),
        ]

    class Settings(Structure):
        _fields_ = [
            ("integrator", c_uint32),
            ("substep", c_uint8),
            ("_pad0", c_uint8 * 3),
            ("max_rotation_per_step", real),
            ("max_substeps", c_uint32),
            ("_pad1", c_uint32),
        ]

    return Body, State, Loads, Settings


mbs_rigid_body, mbs_rigid_state, mbs_rigid_loads, mbs_step_settings = _rigid_structs(c_double)
(
    mbs_rigid_body_f32,
    mbs_rigid_state_f32,
    mbs_rigid_loads_f32,
    mbs_step_settings_f32,
) = _rigid_structs(c_float)


class mbs_step_info(Structure):
    _fields_ = [
        ("status", status),
        ("substeps", c_uint32),
        ("rejected_substeps", c_uint32),
        ("substep_limit_reached", c_bool),
    ]


class mbs_mass_point_2d(Structure):
    _fields_ = [("mass", c_double), ("reference_coordinates", c_double * 2)]


class mbs_point2d_state(Structure):
    _fields_ = [
        ("q", c_double * 2),
        ("q_t", c_double * 2),
        ("q_tt", c_double * 2),
        ("a", c_double * 2),
    ]


class mbs_mass_point_2d_loads(Structure):
    _fields_ = [("force", c_double * 3), ("gravity", c_double * 3)]


class mbs_alpha_step_info(Structure):
    _fields_ = [("newton_iterations", c_uint32)]


class mbs_simulation_settings(Structure):
    _fields_ = [
        ("start_time", c_double),
        ("end_time", c_double),
        ("number_of_steps", c_uint32),
        ("solver_type", c_uint32),
        ("spectral_radius", c_double),
        ("newton_relative_tolerance", c_double),
        ("newton_absolute_tolerance", c_double),
        ("newton_max_iterations", c_uint32),
    ]


# ---- functions -----------------------------------------------------------------------------
def _fn(name, *argtypes):
    f = getattr(lib, name)
    f.argtypes = list(argtypes)
    f.restype = status
    return f


_P = POINTER
_d, _f = _P(c_double), _P(c_float)

_fn("mbs_cylinder_default", _P(mbs_cylinder), _d)
_fn("mbs_cylinder_mass_properties", _P(mbs_cylinder), _P(mbs_mass_properties))
_fn("mbs_box_mass_properties", _d, c_double, _d, _P(mbs_mass_properties))
_fn("mbs_sphere_mass_properties", c_double, c_double, c_double, _d, _P(mbs_mass_properties))
_fn("mbs_point_mass_properties", c_double, _d, _P(mbs_mass_properties))
_fn("mbs_mass_properties_combine", _P(mbs_mass_properties), c_size_t, _P(mbs_mass_properties))
_fn("mbs_mass_properties_inertia_about", _P(mbs_mass_properties), _d, _d)

_fn("mbs_body_start_default", _P(mbs_body_start))
_fn("mbs_rigid_state_from_start", _P(mbs_body_start), _P(mbs_rigid_state))
_fn("mbs_body_cylinder_init", _P(mbs_cylinder), _P(mbs_body_start), _P(mbs_rigid_body), _P(mbs_rigid_state))

for _sfx, _real, _ptr, (_B, _S, _L, _T) in (
    ("", c_double, _d, (mbs_rigid_body, mbs_rigid_state, mbs_rigid_loads, mbs_step_settings)),
    ("_f32", c_float, _f, (mbs_rigid_body_f32, mbs_rigid_state_f32, mbs_rigid_loads_f32, mbs_step_settings_f32)),
):
    _fn("mbs_rigid_body_init" + _sfx, _P(_B), _real, _ptr, _ptr)
    _fn("mbs_rigid_state_init" + _sfx, _P(_S), _ptr, _ptr, _ptr, _ptr)
    _fn("mbs_step_settings_default" + _sfx, _P(_T))
    _fn("mbs_rigid_step" + _sfx, _P(_B), _P(_L), _P(_T), _P(_S), _real, _P(mbs_step_info))
    _fn("mbs_rigid_output" + _sfx, _P(_B), _P(_S), output_variable, _ptr, _ptr, c_size_t, _P(c_size_t))
    _fn("mbs_rigid_position_jacobian" + _sfx, _P(_B), _P(_S), _ptr, _ptr)
    _fn("mbs_rigid_rotation_jacobian" + _sfx, _P(_B), _P(_S), _ptr)

_fn("mbs_simulation_settings_default", _P(mbs_simulation_settings))
_fn("mbs_mass_point_2d_init", _P(mbs_mass_point_2d), c_double, _d)
_M, _ML, _MS = _P(mbs_mass_point_2d), _P(mbs_mass_point_2d_loads), _P(mbs_simulation_settings)
_fn("mbs_mass_point_2d_init_state", _M, _ML, _MS, _d, _d, _P(mbs_point2d_state))
_fn("mbs_mass_point_2d_step", _M, _ML, _MS, _P(mbs_point2d_state), c_double, _P(mbs_alpha_step_info))
_fn("mbs_mass_point_2d_output", _M, _P(mbs_point2d_state), output_variable, _d, _d, c_size_t, _P(c_size_t))
_fn("mbs_mass_point_2d_position_jacobian", _M, _P(mbs_point2d_state), _d, _d)
_fn("mbs_mass_point_2d_solve_dynamic", _M, _ML, _MS, _d, _d, _P(mbs_point2d_state))


# ---- the whole system (mbs_system_*) --------------------------------------------------------
MBS_SYSTEM_WORDS = 18688
MBS_NO_INDEX = 0xFFFFFFFF
MBS_COUPLING_KICK_DRIFT_KICK, MBS_COUPLING_HELD_LOADS, MBS_COUPLING_GENERALIZED_ALPHA = 0, 1, 2
(
    MBS_RIGID_SCHEME_MIDPOINT,
    MBS_RIGID_SCHEME_MIDPOINT_MEAN_RATE,
    MBS_RIGID_SCHEME_EXPLICIT_EULER,
    MBS_RIGID_SCHEME_SYMPLECTIC_EULER,
    MBS_RIGID_SCHEME_RK4,
) = range(5)
MBS_USER_LOAD_FORCE, MBS_USER_LOAD_TORQUE_GLOBAL, MBS_USER_LOAD_TORQUE_LOCAL, MBS_USER_LOAD_MASS_PROPORTIONAL = range(4)
MBS_SENSOR_NODE, MBS_SENSOR_BODY, MBS_SENSOR_MARKER, MBS_SENSOR_LOAD, MBS_SENSOR_CONSTRAINT = range(5)
(
    MBS_ITEM_SYSTEM,
    MBS_ITEM_NODE,
    MBS_ITEM_OBJECT,
    MBS_ITEM_MARKER,
    MBS_ITEM_LOAD,
    MBS_ITEM_CONNECTOR,
    MBS_ITEM_SENSOR,
) = range(7)


class mbs_system(Structure):
    """Caller-owned storage of a system (MBS_SYSTEM_SIZE bytes, 8-aligned): create one, then
    ``lib.mbs_system_init(byref(sys))``. Keep it (and every sensor buffer and callback) alive
    while the system is used."""

    _fields_ = [("_opaque", c_uint64 * MBS_SYSTEM_WORDS)]


class mbs_system_counts(Structure):
    _fields_ = [
        (n, c_uint32) for n in ("nodes", "objects", "markers", "loads", "connectors", "sensors", "constraints")
    ] + [("assembled", c_bool)]


class mbs_system_settings(Structure):
    _fields_ = [
        ("coupling", c_uint32),
        ("rigid_scheme", c_uint32),
        ("substep", c_uint8),
        ("max_rotation_per_step", c_double),
        ("max_substeps", c_uint32),
        ("damping_corrections", c_uint32),
        ("alpha_spectral_radius", c_double),
        ("alpha_newton_relative_tolerance", c_double),
        ("alpha_newton_absolute_tolerance", c_double),
        ("alpha_newton_max_iterations", c_uint32),
        ("alpha_formulation", c_uint32),
        ("alpha_step_halving", c_uint32),
        ("alpha_assembly_tolerance", c_double),
        ("alpha_assembly_velocity_tolerance", c_double),
        ("alpha_assembly_solve", c_uint8),
    ]


class mbs_created_body(Structure):
    _fields_ = [(n, c_uint32) for n in ("node", "object", "mass_marker", "gravity_load")]


class mbs_item_ref(Structure):
    _fields_ = [("kind", c_uint32), ("index", c_uint32)]


class mbs_system_step_report(Structure):
    _fields_ = [
        (n, c_uint32)
        for n in ("status", "substeps", "force_evaluations", "sensor_rows_dropped", "newton_iterations", "halvings")
    ]


class mbs_system_solve_report(Structure):
    _fields_ = [
        ("status", status),
        ("steps", c_uint32),
        ("steps_too_large", c_uint32),
        ("max_substeps", c_uint32),
        ("force_evaluations", c_uint64),
        ("sensor_rows_dropped", c_uint64),
        ("newton_iterations", c_uint64),
        ("halvings", c_uint32),
        ("stopped", c_uint32),
    ]


class mbs_solve_progress(Structure):
    _fields_ = [
        ("time", c_double),
        ("step", c_uint32),
        ("steps", c_uint32),
        ("report", mbs_system_step_report),
    ]


MBS_RUN_CONTINUE = 0
MBS_RUN_STOP = 1


class mbs_sensor_spec(Structure):
    _fields_ = [
        ("kind", c_uint32),
        ("index", c_uint32),
        ("variable", output_variable),
        ("local_position", c_double * 3),
    ]


class mbs_sensor_info(Structure):
    _fields_ = [("row_len", c_size_t), ("capacity", c_size_t), ("rows", c_size_t), ("dropped_rows", c_uint64)]


# void (*)(void *ctx, double t, double *out): keep the CFUNCTYPE object alive while the system runs
mbs_load_fn = CFUNCTYPE(None, c_void_p, c_double, _P(c_double))
# int32_t (*)(void *ctx, const mbs_system *sys, const mbs_solve_progress *p): a solve's step callback
mbs_step_callback = CFUNCTYPE(c_int32, c_void_p, c_void_p, _P(mbs_solve_progress))

lib.mbs_system_storage_size.argtypes = []
lib.mbs_system_storage_size.restype = c_size_t
if ctypes.sizeof(mbs_system) != lib.mbs_system_storage_size():
    raise OSError("mbs.py's mbs_system does not match the library's MBS_SYSTEM_SIZE")

_Y, _u, _pu = _P(mbs_system), c_uint32, _P(c_uint32)
_fn("mbs_system_init", _Y)
_fn("mbs_system_reset", _Y)
_fn("mbs_system_time", _Y, _d)
_fn("mbs_system_get_counts", _Y, _P(mbs_system_counts))
_fn("mbs_system_settings_default", _P(mbs_system_settings))
_fn("mbs_system_set_settings", _Y, _P(mbs_system_settings))
_fn("mbs_system_get_settings", _Y, _P(mbs_system_settings))
_fn("mbs_system_add_node_point2d", _Y, _d, _d, _d, _pu)
_fn("mbs_system_add_node_ground", _Y, _d, _pu)
_fn("mbs_system_add_node_rigid", _Y, _d, _d, _d, _d, _pu)
_fn("mbs_system_add_object_ground", _Y, _d, _pu)
_fn("mbs_system_add_object_mass_point_2d", _Y, _u, c_double, _pu)
_fn("mbs_system_add_object_rigid_body", _Y, _u, _P(mbs_mass_properties), _pu)
_fn("mbs_system_add_marker_node_position", _Y, _u, _pu)
_fn("mbs_system_add_marker_body_position", _Y, _u, _d, _pu)
_fn("mbs_system_add_marker_body_rigid", _Y, _u, _d, _pu)
_fn("mbs_system_add_marker_body_mass", _Y, _u, _pu)
_fn("mbs_system_add_load_force", _Y, _u, _d, _pu)
_fn("mbs_system_add_load_torque", _Y, _u, _d, _u, _pu)
_fn("mbs_system_add_load_mass_proportional", _Y, _u, _d, _pu)
_fn("mbs_system_add_load_user", _Y, _u, _u, mbs_load_fn, c_void_p, _pu)
_fn("mbs_system_set_load_vector", _Y, _u, _d)
_fn("mbs_system_add_spring_damper", _Y, _u, _u, c_double, c_double, c_double, c_double, _pu)
_fn("mbs_system_add_cartesian_spring_damper", _Y, _u, _u, _d, _d, _d, _pu)
_fn("mbs_system_create_ground", _Y, _d, _pu)
_fn("mbs_system_create_mass_point", _Y, c_double, _d, _d, _d, _d, _P(mbs_created_body))
_fn("mbs_system_create_rigid_body", _Y, _P(mbs_mass_properties), _d, _d, _d, _d, _d, _P(mbs_created_body))
_fn("mbs_system_create_body_cylinder", _Y, _P(mbs_cylinder), _P(mbs_body_start), _d, _P(mbs_created_body))
_fn("mbs_system_assemble", _Y, _P(mbs_item_ref))
_fn("mbs_system_step", _Y, c_double, _P(mbs_system_step_report), _P(mbs_item_ref))
_fn("mbs_system_solve_dynamic", _Y, _P(mbs_simulation_settings), _P(mbs_system_solve_report), _P(mbs_item_ref))
_fn(
    "mbs_system_solve_dynamic_observed",
    _Y,
    _P(mbs_simulation_settings),
    mbs_step_callback,
    c_void_p,
    _P(mbs_system_solve_report),
    _P(mbs_item_ref),
)
_fn("mbs_system_node_output", _Y, _u, output_variable, _d, c_size_t, _P(c_size_t))
_fn("mbs_system_object_output", _Y, _u, output_variable, _d, _d, c_size_t, _P(c_size_t))
_fn("mbs_system_marker_output", _Y, _u, output_variable, _d, c_size_t, _P(c_size_t))
_fn("mbs_system_load_value", _Y, _u, _d)
_fn("mbs_system_get_point2d_state", _Y, _u, _P(mbs_point2d_state))
_fn("mbs_system_set_point2d_state", _Y, _u, _P(mbs_point2d_state))
_fn("mbs_system_get_rigid_state", _Y, _u, _P(mbs_rigid_state))
_fn("mbs_system_set_rigid_state", _Y, _u, _P(mbs_rigid_state))
_fn("mbs_system_add_sensor", _Y, _P(mbs_sensor_spec), _d, c_size_t, _pu)
_fn("mbs_system_sensor_rows", _Y, _u, _P(c_size_t))
_fn("mbs_system_sensor_info", _Y, _u, _P(mbs_sensor_info))
_fn("mbs_system_sensor_clear", _Y, _u)
_fn("mbs_system_sensor_value", _Y, _u, _d, c_size_t, _P(c_size_t))



class mbs_visualization_settings(Structure):
    _fields_ = [
        ("bodies_show", c_uint8),
        ("bodies_show_numbers", c_uint8),
        ("_pad0", c_uint8 * 2),
        ("bodies_default_color", c_float * 4),
        ("contour_output_variable", c_uint32),
        ("contour_output_variable_component", c_int32),
        ("contour_rigid_bodies_colored", c_uint8),
        ("contour_automatic_range", c_uint8),
        ("_pad1", c_uint8 * 2),
        ("contour_min_value", c_double),
        ("contour_max_value", c_double),
        ("contour_alpha_transparency", c_float),
        ("contour_show_color_bar", c_uint8),
        ("_pad2", c_uint8 * 3),
    ]


class mbs_scene_summary(Structure):
    _fields_ = [
        ("bodies_drawn", c_uint32),
        ("primitives", c_uint32),
        ("has_contour_range", c_bool),
        ("_pad0", c_uint8 * 7),
        ("contour_min", c_double),
        ("contour_max", c_double),
    ]


# void (*)(void *ctx, const char *text, size_t len): a piece of a run recording's text
mbs_text_fn = CFUNCTYPE(None, c_void_p, _P(ctypes.c_char), c_size_t)
_fn("mbs_visualization_settings_default", _P(mbs_visualization_settings))
_fn("mbs_record_header", c_char_p, mbs_text_fn, c_void_p)
_fn("mbs_system_record_frame", _Y, _P(mbs_visualization_settings), mbs_text_fn, c_void_p, _P(mbs_scene_summary))


class Recording:
    """A run recording (``mbs-run 1``, read by ``mbs-view page``) written to the text file
    ``path`` through the library's writers: ``frame(sys, vis)`` after each step to record,
    ``signal(name)`` and ``sample(t, values)`` for the time plots, ``close()`` at the end."""

    def __init__(self, path, title=None):
        self.file = open(path, "w", encoding="utf-8")
        self._write = mbs_text_fn(lambda _ctx, text, n: self.file.write(ctypes.string_at(text, n).decode()))
        check(lib.mbs_record_header(title.encode() if title else None, self._write, None), "mbs_record_header")

    def frame(self, sys, vis):
        check(lib.mbs_system_record_frame(ctypes.byref(sys), ctypes.byref(vis), self._write, None, None), "record frame")

    def signal(self, name):
        self.file.write(f"signal {name}\n")

    def sample(self, t, values):
        self.file.write("sample " + " ".join(repr(float(v)) for v in (t, *values)) + "\n")

    def close(self):
        self.file.close()


def system_output(fn, sys, index, var, *extra):
    """An output of ``lib.mbs_system_node_output`` / ``_object_output`` (pass the local
    position as ``extra``) / ``_marker_output`` as a list."""
    out = (c_double * 9)()
    n = c_size_t(0)
    check(fn(ctypes.byref(sys), index, var, *extra, out, 9, ctypes.byref(n)), fn.__name__)
    return list(out[: n.value])


# ---- small conveniences --------------------------------------------------------------------
def rigid_output(body, state, var, local_position=(0.0, 0.0, 0.0)):
    """Output ``var`` of a double-precision rigid body as a list (1, 3 or 9 values)."""
    out = (c_double * 9)()
    n = c_size_t(0)
    check(
        lib.mbs_rigid_output(ctypes.byref(body), ctypes.byref(state), var, vec3(*local_position), out, 9, ctypes.byref(n)),
        "mbs_rigid_output",
    )
    return list(out[: n.value])


def mass_point_2d_output(body, state, var, local_position=(0.0, 0.0, 0.0)):
    """Output ``var`` of a mass point 2D as a list (1, 3 or 9 values)."""
    out = (c_double * 9)()
    n = c_size_t(0)
    check(
        lib.mbs_mass_point_2d_output(
            ctypes.byref(body), ctypes.byref(state), var, vec3(*local_position), out, 9, ctypes.byref(n)
        ),
        "mbs_mass_point_2d_output",
    )
    return list(out[: n.value])


# ---- kinematic trees in joint coordinates (mbs_tree_*) --------------------------------------
MBS_TREE_WORDS = 11997
MBS_JOINT_REVOLUTE, MBS_JOINT_PRISMATIC, MBS_JOINT_FIXED, MBS_JOINT_SPHERICAL, MBS_JOINT_FREE = range(5)
MBS_TREE_SEMI_IMPLICIT_EULER, MBS_TREE_RUNGE_KUTTA_4 = 0, 1


class mbs_tree(Structure):
    """Caller-owned storage of a kinematic tree in double precision (MBS_TREE_SIZE bytes):
    create one, then ``lib.mbs_tree_init(byref(tree), vec3(gx, gy, gz))``."""

    _fields_ = [("_opaque", c_uint64 * MBS_TREE_WORDS)]


class mbs_tree_link(Structure):
    _fields_ = [
        ("parent", c_uint32),
        ("joint", c_uint32),
        ("axis", c_double * 3),
        ("rotation", c_double * 9),
        ("position", c_double * 3),
        ("mass", c_double),
        ("com", c_double * 3),
        ("inertia", c_double * 9),
    ]


class mbs_tree_loop(Structure):
    _fields_ = [
        ("link_a", c_uint32),
        ("point_a", c_double * 3),
        ("link_b", c_uint32),
        ("point_b", c_double * 3),
        ("axes", c_uint8 * 3),
    ]


lib.mbs_tree_storage_size.argtypes = []
lib.mbs_tree_storage_size.restype = c_size_t
if ctypes.sizeof(mbs_tree) != lib.mbs_tree_storage_size():
    raise OSError("mbs.py's mbs_tree does not match the library's MBS_TREE_SIZE")

_R, _z = _P(mbs_tree), c_size_t
_fn("mbs_tree_init", _R, _d)
_fn("mbs_tree_deinit", _R)
_fn("mbs_tree_add_link", _R, _P(mbs_tree_link), _pu)
_fn("mbs_tree_set_joint_spring", _R, _u, c_double, c_double, c_double, c_double)
_fn("mbs_tree_counts", _R, _pu, _pu)
_fn("mbs_tree_neutral_configuration", _R, _d, _z)
_fn("mbs_tree_rnea", _R, _d, _z, _d, _d, _z, _d)
_fn("mbs_tree_bias_forces", _R, _d, _z, _d, _z, _d)
_fn("mbs_tree_mass_matrix", _R, _d, _z, _d, _z)
_fn("mbs_tree_aba", _R, _d, _z, _d, _d, _z, _d)
_fn("mbs_tree_step", _R, _d, _z, _d, _d, _z, c_double, _u, _pu)
_fn("mbs_tree_link_pose", _R, _d, _z, _u, _d, _d)
_fn("mbs_tree_energy", _R, _d, _z, _d, _z, _d, _d)
_fn("mbs_tree_point_jacobian", _R, _d, _z, _u, _d, _d, _z)
_fn("mbs_tree_set_link_force", _R, _u, _d, _d)
_fn("mbs_tree_clear_link_forces", _R)
_fn("mbs_tree_add_loop", _R, _P(mbs_tree_loop), _pu)
_fn("mbs_tree_project_loops", _R, _d, _z, _d, _z)
_fn("mbs_tree_loop_forces", _R, _d, _z, _pu)
