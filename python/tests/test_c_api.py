"""mbsdyn against the C library on the same models, bit for bit (the C side is c_reference.c,
linked against libmbs.a; scripts/python-test.sh builds it and names it in MBS_C_REFERENCE),
and every status of the C API: its text is the exception's message, and every status a Python
call can reach is raised by one."""

import math
import os
import subprocess

import numpy as np
import pytest

import mbsdyn
from conftest import example

SD_STEPS, SC_STEPS = 500, 1000


def c_reference(*args):
    exe = os.environ.get("MBS_C_REFERENCE")
    assert exe, "MBS_C_REFERENCE names the compiled python/tests/c_reference.c (scripts/python-test.sh)"
    return subprocess.run([exe, *args], check=True, capture_output=True, text=True).stdout


@pytest.fixture(scope="module")
def c_results(tmp_path_factory):
    out = tmp_path_factory.mktemp("c") / "results.bin"
    c_reference(str(out))
    data = np.fromfile(out, dtype=np.float64)
    sizes = {"spring": (SD_STEPS + 1) * 4, "stepped": 3, "user": (SD_STEPS + 1) * 4, "crank": (SC_STEPS + 1) * 4, "slider": (SC_STEPS + 1) * 4}
    assert data.size == sum(sizes.values())
    parts, at = {}, 0
    for name, n in sizes.items():
        parts[name] = data[at : at + n]
        at += n
    return parts


def spring_damper(user=False):
    """c_reference.c's spring-damper: 1.6 kg on 4000 N/m and 8 N s/m to the ground, 80 N (or the
    user load 80 + 10 t N), start u0 = -0.08 m, v0 = 1 m/s."""
    s = mbsdyn.System()
    g = s.create_ground()
    b = s.create_mass_point(mass=1.6, reference_position=[0.5, 0.0], initial_displacement=[-0.08, 0.0], initial_velocity=[1.0, 0.0])
    m0 = s.add_marker_body_position(g)
    m1 = s.add_marker_node_position(b.node)
    s.add_spring_damper(m0, m1, 4000.0, 8.0, 0.5)
    load = s.add_load_user(m1, "force", lambda t: (80.0 + 10.0 * t, 0.0, 0.0)) if user else s.add_load_force(m1, [80.0, 0.0, 0.0])
    sensor = s.add_sensor_node(b.node, "Displacement")
    s.assemble()
    s.solve_dynamic(end_time=1.0, number_of_steps=SD_STEPS, solver="system_scheme")
    return s, b, load, sensor


def test_spring_damper_equals_the_c_api_bit_for_bit(c_results):
    s, b, load, sensor = spring_damper()
    rows = s.sensor_records(sensor)
    assert rows.shape == (SD_STEPS + 1, 4) and rows.dtype == np.float64
    assert rows.tobytes() == c_results["spring"].tobytes()
    # The control-loop form: reset, step, a new force half way.
    s.reset()
    for i in range(SD_STEPS):
        if i == SD_STEPS // 2:
            s.set_load_vector(load, [40.0, 0.0, 0.0])
        s.step(2e-3)
    assert s.node_output(b.node, "Position").tobytes() == c_results["stepped"].tobytes()


def test_a_python_user_load_equals_a_c_callback_bit_for_bit(c_results):
    s, _, _, sensor = spring_damper(user=True)
    assert s.sensor_records(sensor).tobytes() == c_results["user"].tobytes()


def test_slider_crank_equals_the_c_api_bit_for_bit(c_results):
    s, crank, slider = example("slider_crank").slider_crank()
    s.solve_dynamic(end_time=1.0, number_of_steps=SC_STEPS, spectral_radius=0.8)
    assert s.sensor_records(crank).tobytes() == c_results["crank"].tobytes()
    assert s.sensor_records(slider).tobytes() == c_results["slider"].tobytes()


def c_statuses():
    rows = [line.split("\t", 1) for line in c_reference("--statuses").splitlines()]
    return {int(code): text for code, text in rows}


# Statuses no mbsdyn call can return, and why.
NOT_FROM_PYTHON = {
    0: "success is no exception",
    1: "a warning: step() and solve_dynamic() report it in their dict",
    2: "a warning about a C sensor buffer; mbsdyn's records grow",
    100: "null pointers exist in C only",
    106: "the single mass point's solver, which the C API has and System replaces",
    109: "C storage checks (size, alignment)",
    110: "C storage not initialized",
    115: "a C step callback changing the system; mbsdyn's on_step gets no system",
    199: "a panic caught at the C boundary",
    217: "no core check returns it (kept for the C API's numbering)",
    219: "no core check returns it (kept for the C API's numbering)",
}


def status_triggers():
    """A call that raises each status Python can reach."""

    def mini():
        s = mbsdyn.System()
        b = s.create_mass_point(mass=1.0, reference_position=[1.0, 1.0])
        return s, b, s.add_marker_node_position(b.node)

    def full():
        s = mbsdyn.System()
        b = s.create_mass_point(mass=1.0, reference_position=[0.0, 0.0])
        for _ in range(64):
            s.add_sensor_node(b.node, "Position")
        s.add_sensor_node(b.node, "Position")

    def not_assembled():
        s, _, _ = mini()
        s.step(0.01)

    def pendulum(distance=1.0, twice=False, scheme="generalized_alpha"):
        s = mbsdyn.System()
        s.set_scheme(scheme)
        g = s.create_ground()
        b = s.create_mass_point(mass=1.0, reference_position=[1.0, 0.0], gravity=[0.0, -9.81, 0.0])
        m0, m1 = s.add_marker_body_position(g), s.add_marker_node_position(b.node)
        s.add_distance_constraint(m0, m1, distance)
        if twice:
            s.add_distance_constraint(m0, m1, distance)
        return s

    def singular():
        pendulum(twice=True).assemble()

    def newton():
        s = pendulum()
        s.set_alpha_settings({"max_newton_iterations": 1, "newton_relative_tolerance": 1e-16, "newton_absolute_tolerance": 1e-300})
        s.assemble()
        s.step(0.05)

    def non_finite_state():
        s, b, _ = mini()
        s.set_node_state(b.node, {"q": [math.nan, 0.0]})

    def node_used():
        s = mbsdyn.System()
        n = s.add_node_rigid_body_2d([0.0, 0.0, 0.0])
        s.add_object_rigid_body_2d(n, 1.0, 1.0)
        s.add_object_rigid_body_2d(n, 1.0, 1.0)

    def node_without_body():
        s = mbsdyn.System()
        n = s.add_node_rigid_body_2d([0.0, 0.0, 0.0])
        s.add_sensor_node(n, "Position")
        s.add_marker_node_position(n)
        s.assemble()

    def same_body():
        s = mbsdyn.System()
        s.set_scheme("generalized_alpha")
        n = s.add_node_rigid_body_2d([0.0, 0.0, 0.0])
        o = s.add_object_rigid_body_2d(n, 1.0, 1.0)
        s.add_revolute_joint_2d(s.add_marker_body_position(o), s.add_marker_body_position(o, [1.0, 0.0, 0.0]))
        s.assemble()

    def wrong_node_kind():
        s = mbsdyn.System()
        s.add_object_rigid_body_2d(s.add_node_point_ground(), 1.0, 1.0)

    def invalid_marker():
        s, b, m = mini()
        c = s.add_marker_node_coordinate(b.node, 0)
        s.add_spring_damper(m, c, 1.0, 0.0, 1.0)

    def local_position():
        s = mbsdyn.System()
        o = s.add_object_rigid_body_2d(s.add_node_rigid_body_2d([0.0, 0.0, 0.0]), 1.0, 1.0)
        s.object_output(o, "KineticEnergy", [1.0, 0.0, 0.0])

    def spherical_spin():
        t = mbsdyn.KinematicTree()
        t.add_link(None, "spherical", 1.0, [[1, 0, 0], [0, 2, 0], [0, 0, 3]])
        q = t.neutral_configuration()
        t.step(q, np.array([1e9, 1.0, 0.0]), np.zeros(3), 1.0)

    def bad_step():
        s, _, _ = mini()
        s.assemble()
        s.step(-1.0)

    s, b, m = mini()
    ground = s.add_marker_body_position(s.create_ground())
    return {
        101: lambda: s.add_load_force(m, [math.nan, 0.0, 0.0]),
        102: full,
        103: lambda: s.node_output(7, "Position"),
        104: not_assembled,
        105: lambda: s.node_output(b.node, "AngularVelocity"),
        107: non_finite_state,
        108: lambda: s.node_output(b.node, "Speed"),
        111: singular,
        112: newton,
        113: lambda: pendulum(distance=2.0).assemble(),
        114: lambda: pendulum(scheme="kick_drift_kick").assemble(),
        200: lambda: s.create_mass_point(mass=-1.0, reference_position=[0.0, 0.0]),
        201: lambda: s.create_body_cylinder([1.0, 0.0, 0.0], density=-1.0),
        202: lambda: s.create_body_cylinder([1.0, 0.0, 0.0], diameter=-0.1),
        203: lambda: s.create_body_cylinder([1.0, 0.0, 0.0], diameter=0.1, inner_diameter=0.2),
        204: lambda: s.add_distance_constraint(ground, m, 0.0),
        205: lambda: s.create_body_cylinder([0.0, 0.0, 0.0]),
        206: lambda: s.create_rigid_body(mass=1.0, inertia=[[1, 0, 0], [0, 1, 0], [0, 0, -1]]),
        207: bad_step,
        208: lambda: mbsdyn.box_mass_properties([1.0, -1.0, 1.0]),
        209: lambda: s.create_rigid_body(mass=1.0, inertia=np.eye(3).tolist(), orientation=[0.0, 0.0, 0.0, 0.0]),
        210: lambda: s.create_body_cylinder([1.0, 0.0, 0.0], sequence=[1, 1, 2]),
        211: lambda: s.solve_dynamic(end_time=0.0, number_of_steps=10),
        212: local_position,
        213: lambda: s.add_spring_damper(ground, m, -1.0, 0.0, 1.0),
        214: invalid_marker,
        215: lambda: s.add_spring_damper(m, m, 1.0, 0.0, 1.0),
        216: wrong_node_kind,
        218: spherical_spin,
        220: node_used,
        221: node_without_body,
        222: lambda: mbsdyn.KinematicTree().rnea(np.zeros(1), np.zeros(1), np.zeros(1)),
        223: same_body,
    }


def test_every_status_is_an_exception_with_the_c_text():
    statuses = c_statuses()
    assert len(statuses) >= 40
    for code, text in statuses.items():
        assert mbsdyn.status_text(code) == text, code
    triggers = status_triggers()
    # Every status is either raised below or named, with its reason, as unreachable.
    assert set(triggers) | set(NOT_FROM_PYTHON) == set(statuses)
    assert not set(triggers) & set(NOT_FROM_PYTHON)
    for code, call in triggers.items():
        with pytest.raises(mbsdyn.MbsError) as e:
            call()
        assert e.value.status == code, (code, str(e.value))
        assert str(e.value).startswith(statuses[code]), (code, str(e.value))


def test_a_whole_system_error_names_its_item():
    j = mbsdyn.System()
    g = j.create_ground()
    body = j.create_mass_point(mass=1.0, reference_position=[1.0, 0.0])
    j.add_distance_constraint(j.add_marker_body_position(g), j.add_marker_node_position(body.node), 1.0)
    with pytest.raises(mbsdyn.MbsError) as e:
        j.assemble()  # a constraint with the kick-drift-kick scheme
    assert e.value.item == ("constraint", 0)
    assert str(e.value) == f"{mbsdyn.status_text(114)} (constraint 0)"
