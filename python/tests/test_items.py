"""mbsdyn's items beyond the basics, each against an independent reference: Python user loads
(closed form, order 2), torsional and Cartesian spring-dampers (harmonic oscillations), node
states read and set (a restart equals the run), a spinning BodyCylinder (energy conserved), a
kinematic tree in a system (Exudyn's ObjectKinematicTree mini example, gravity held by joint
forces, P/D set points), tree kinematics (closed forms, finite differences), mass properties
(closed forms), settings and the Newton report."""

import math

import numpy as np
import pytest

import mbsdyn
from conftest import example




def pushed_mass(steps, function):
    """A 2 kg mass point from rest pushed along x by the user load `function`; 1 s."""
    s = mbsdyn.System()
    b = s.create_mass_point(mass=2.0, reference_position=[0.0, 0.0])
    s.add_load_user(s.add_marker_node_position(b.node), "force", function)
    s.assemble()
    s.solve_dynamic(end_time=1.0, number_of_steps=steps, solver="system_scheme")
    return s, b


def test_a_user_load_follows_the_closed_form_with_order_2():
    # f(t) = 1 + 3 t N on 2 kg from rest: x(1) = 1/(2*2) + 3/(6*2) = 0.5 m.
    errors = []
    for steps in (100, 200, 400, 800):
        s, b = pushed_mass(steps, lambda t: (1.0 + 3.0 * t, 0.0, 0.0))
        errors.append(abs(s.node_output(b.node, "Position")[0] - 0.5))
    orders = [math.log2(e0 / e1) for e0, e1 in zip(errors, errors[1:])]
    assert all(abs(p - 2.0) < 0.05 for p in orders), (errors, orders)


def test_a_raising_user_load_fails_the_step_and_changes_nothing():
    calls = []

    def load(t):
        calls.append(t)
        if t > 0.05:
            raise KeyError("no force after 50 ms")
        return (1.0, 0.0, 0.0)

    s = mbsdyn.System()
    b = s.create_mass_point(mass=1.0, reference_position=[0.0, 0.0])
    s.add_load_user(s.add_marker_node_position(b.node), "force", load)
    s.assemble()
    for _ in range(5):
        s.step(0.01)
    before = (s.time, s.node_state(b.node)["q"].tobytes(), s.node_state(b.node)["q_t"].tobytes())
    with pytest.raises(mbsdyn.MbsError) as e:
        s.step(0.01)
    assert e.value.status == 101 and e.value.item == ("load", 0)
    assert isinstance(e.value.__cause__, KeyError)
    assert (s.time, s.node_state(b.node)["q"].tobytes(), s.node_state(b.node)["q_t"].tobytes()) == before
    for bad in [lambda t: (1.0, 2.0), lambda t: "xyz", lambda t: (math.nan, 0.0, 0.0)]:
        s2 = mbsdyn.System()
        b2 = s2.create_mass_point(mass=1.0, reference_position=[0.0, 0.0])
        s2.add_load_user(s2.add_marker_node_position(b2.node), "force", bad)
        with pytest.raises(mbsdyn.MbsError):
            s2.assemble()
    with pytest.raises(mbsdyn.MbsError):
        s.add_load_user(0, "force", 3.0)  # not callable
    with pytest.raises(mbsdyn.MbsError):
        s.add_load_user(0, "push", load)


def rotor(offset=0.0, damping=0.0):
    """A 2D rigid body (J = 0.5 kg m^2) turned 0.1 rad, on a torsional spring (2 N m/rad) to the
    ground about z."""
    s = mbsdyn.System()
    s.set_scheme("generalized_alpha")
    g = s.create_ground()
    n = s.add_node_rigid_body_2d([0.0, 0.0, 0.0], initial_coordinates=[0.0, 0.0, 0.1])
    o = s.add_object_rigid_body_2d(n, 1.0, 0.5)
    c = s.add_torsional_spring_damper(s.add_marker_body_rigid(g), s.add_marker_body_rigid(o), 2.0, damping, offset)
    sensor = s.add_sensor_node(n, "Coordinates")
    s.set_alpha_settings({"spectral_radius": 1.0})
    s.assemble()
    return s, n, c, sensor


def test_a_torsional_spring_turns_a_body_harmonically():
    # theta = 0.1 cos(w t), w = sqrt(k / J) = 2 rad/s; generalized-alpha at rho_inf = 1 is the
    # trapezoidal rule: order 2.
    errors = []
    for steps in (200, 400, 800):
        s, _, _, sensor = rotor()
        s.solve_dynamic(end_time=2.0, number_of_steps=steps)
        rows = s.sensor_records(sensor)
        errors.append(np.max(np.abs(rows[:, 3] - 0.1 * np.cos(2.0 * rows[:, 0]))))
    assert errors[-1] < 1e-4
    assert all(abs(math.log2(a / b) - 2.0) < 0.1 for a, b in zip(errors, errors[1:])), errors


def test_a_torsional_target_moves_the_rest_angle():
    s, n, c, _ = rotor(damping=1.0)
    s.set_torsional_target(c, 0.3)
    s.solve_dynamic(end_time=20.0, number_of_steps=2000)
    assert abs(s.node_state(n)["q"][2] - 0.3) < 1e-6
    with pytest.raises(mbsdyn.MbsError):
        s.set_torsional_target(c, math.nan)


def test_a_cartesian_spring_oscillates_each_axis_at_its_own_frequency():
    # x = 0.01 cos(sqrt(k_x/m) t), y = 0.02 cos(sqrt(k_y/m) t), m = 1.6 kg.
    s = mbsdyn.System()
    g = s.create_ground()
    b = s.create_mass_point(mass=1.6, reference_position=[0.0, 0.0], initial_displacement=[0.01, 0.02])
    s.add_cartesian_spring_damper(s.add_marker_body_position(g), s.add_marker_node_position(b.node), [4000.0, 1000.0, 0.0], [0.0, 0.0, 0.0])
    sensor = s.add_sensor_node(b.node, "Displacement")
    s.assemble()
    s.solve_dynamic(end_time=0.5, number_of_steps=20000, solver="system_scheme")
    rows = s.sensor_records(sensor)
    t = rows[:, 0]
    assert np.max(np.abs(rows[:, 1] - 0.01 * np.cos(50.0 * t))) < 1e-6
    assert np.max(np.abs(rows[:, 2] - 0.02 * np.cos(25.0 * t))) < 1e-6


def spinning_cylinder():
    """A hollow steel BodyCylinder (0.1 m long, 0.2 m outer and 0.16 m inner diameter) spinning
    torque-free about an oblique axis."""
    s = mbsdyn.System()
    body = s.create_body_cylinder([0.1, 0.0, 0.0], diameter=0.2, inner_diameter=0.16, angles=[0.3, -0.2, 0.5], angular_velocity=[20.0, 6.0, -4.0])
    s.assemble()
    return s, body


def test_a_spinning_body_cylinder_keeps_its_energy():
    s, body = spinning_cylinder()
    e0 = s.object_output(body.object, "KineticEnergy")[0]
    for _ in range(2000):
        s.step(1e-3)
    e1 = s.object_output(body.object, "KineticEnergy")[0]
    assert e0 > 1.0 and abs(e1 - e0) < 1e-9 * e0


def test_rotations_on_the_lie_group_follow_the_euler_parameters():
    # The spinning cylinder with the generalized-alpha scheme in both rotation coordinates:
    # two discretizations of one motion, of order 2, agree to their error at 1 ms.
    out = {}
    for rotations in ("euler_parameters", "lie_group"):
        s = mbsdyn.System()
        s.set_scheme("generalized_alpha")
        body = s.create_body_cylinder([0.1, 0.0, 0.0], diameter=0.2, inner_diameter=0.16, angles=[0.3, -0.2, 0.5], angular_velocity=[20.0, 6.0, -4.0])
        s.set_alpha_settings({"rotations": rotations})
        assert s.alpha_settings()["rotations"] == rotations
        s.assemble()
        for _ in range(500):
            s.step(1e-3)
        out[rotations] = np.array(s.object_output(body.object, "AngularVelocity"))
    with pytest.raises(mbsdyn.MbsError):
        mbsdyn.System().set_alpha_settings({"rotations": "rotation_vector"})
    w_ep, w_lg = out["euler_parameters"], out["lie_group"]
    assert np.linalg.norm(w_ep) > 20.0 and np.linalg.norm(w_lg - w_ep) < 1e-3 * np.linalg.norm(w_ep), (w_ep, w_lg)


def test_a_restart_from_a_state_read_and_set_equals_the_run():
    s, body = spinning_cylinder()
    for _ in range(300):
        s.step(1e-3)
    state = s.node_state(body.node)
    assert sorted(state) == sorted(["position", "orientation", "velocity", "angular_velocity", "acceleration", "angular_acceleration"])
    assert all(v.dtype == np.float64 for v in state.values())
    for _ in range(300):
        s.step(1e-3)
    restarted, body2 = spinning_cylinder()
    restarted.set_node_state(body2.node, state)
    for _ in range(300):
        restarted.step(1e-3)
    a, b = s.node_state(body.node), restarted.node_state(body2.node)
    assert all(a[k].tobytes() == b[k].tobytes() for k in a)
    # Refused, nothing changed: an unknown key, a NaN, a zero quaternion, a wrong length.
    for bad in [{"q": [0.0, 0.0]}, {"velocity": [math.nan, 0.0, 0.0]}, {"orientation": [0.0] * 4}, {"position": [1.0, 2.0]}]:
        with pytest.raises(mbsdyn.MbsError):
            restarted.set_node_state(body2.node, bad)
    c = restarted.node_state(body2.node)
    assert all(c[k].tobytes() == b[k].tobytes() for k in c)


def exudyn_link(tree=None):
    """Exudyn's ObjectKinematicTree mini example: a 1 m x 0.1 m x 0.1 m link (density 1000) on a
    revolute z joint at [0.5, 0, 0], its centre of mass 0.5 m out along x; g = [0, -9.81, 0]."""
    t = tree or mbsdyn.KinematicTree(gravity=[0.0, -9.81, 0.0])
    m = 1000.0 * 1.0 * 0.1 * 0.1
    inertia = np.diag([m * 0.02 / 12, m * 1.01 / 12, m * 1.01 / 12]).tolist()
    t.add_link(None, "revolute", m, inertia, axis=[0.0, 0.0, 1.0], position=[0.5, 0.0, 0.0], com=[0.5, 0.0, 0.0])
    return t, m


def test_the_kinematic_tree_mini_example_matches_exudyn():
    # Exudyn 1.13.6 (RK67, 1000 steps) prints q(1 s) = -3.134018551808591.
    t, _ = exudyn_link()
    q, v = np.zeros(1), np.zeros(1)
    for _ in range(1000):
        q, v = t.step(q, v, np.zeros(1), 1e-3, scheme="rk4")
    assert abs(q[0] + 3.134018551808591) < 1e-11


def test_tree_kinematics_against_closed_forms_and_finite_differences():
    t, m = exudyn_link()
    q, w = np.array([0.7]), np.array([1.3])
    r, p = t.link_pose(q, 0)
    c, s_ = math.cos(0.7), math.sin(0.7)
    assert np.allclose(r, [[c, -s_, 0], [s_, c, 0], [0, 0, 1]], rtol=0, atol=1e-15)
    assert np.array_equal(p, [0.5, 0.0, 0.0])
    mass, com = t.center_of_mass(q)
    assert mass == m and np.allclose(com, [0.5 + 0.5 * c, 0.5 * s_, 0.0], rtol=0, atol=1e-15)
    kinetic, potential = t.energy(q, w)
    j_joint = m * 1.01 / 12 + m * 0.25  # about the joint axis (parallel axes)
    assert abs(kinetic - 0.5 * j_joint * 1.3**2) < 1e-12
    assert abs(potential - m * 9.81 * 0.5 * s_) < 1e-12
    jac = t.point_jacobian(q, 0, [1.0, 0.0, 0.0])
    assert jac.shape == (6, 1)
    h = 1e-6
    tip = lambda a: t.link_pose(np.array([a]), 0)[0] @ [1.0, 0.0, 0.0] + t.link_pose(np.array([a]), 0)[1]  # noqa: E731
    assert np.allclose(jac[3:, 0], (tip(0.7 + h) - tip(0.7 - h)) / (2 * h), rtol=0, atol=1e-9)
    assert np.array_equal(jac[:3, 0], [0.0, 0.0, 1.0])


def tree_system(joint_force=0.0):
    s = mbsdyn.System()
    s.set_scheme("generalized_alpha")
    t, m = exudyn_link()
    first = s.add_kinematic_tree(t, np.zeros(1), np.zeros(1))
    sensor = s.add_sensor_body(s.tree_link_object(0), "Position", [1.0, 0.0, 0.0])
    s.set_tree_joint_forces(np.array([joint_force]))
    s.assemble()
    return s, first, sensor, m


def test_a_tree_in_a_system_converges_to_the_trees_own_solution():
    # The same link stepped by the system's generalized-alpha (rho_inf = 1) against the tree's
    # RK4 at 0.5 s: order 2.
    t, _ = exudyn_link()
    q, v = np.zeros(1), np.zeros(1)
    for _ in range(5000):
        q, v = t.step(q, v, np.zeros(1), 1e-4, scheme="rk4")
    errors = []
    for steps in (100, 200, 400):
        s, _, _, _ = tree_system()
        s.solve_dynamic(end_time=0.5, number_of_steps=steps, spectral_radius=1.0)
        errors.append(abs(s.tree_state()[0][0] - q[0]))
    assert all(abs(math.log2(a / b) - 2.0) < 0.15 for a, b in zip(errors, errors[1:])), errors


def test_joint_forces_and_set_points_drive_a_tree_in_a_system():
    # The holding torque at q = 0: m g times the centre's 0.5 m from the axis (set before the
    # start, so the start's accelerations include it).
    m = 10.0
    s, first, sensor, _ = tree_system(joint_force=m * 9.81 * 0.5)
    for _ in range(200):
        s.step(1e-3)
    q, v, a = s.tree_state()
    assert abs(q[0]) < 1e-9 and abs(v[0]) < 1e-9
    tip = s.sensor_records(sensor)[-1, 1:]
    assert np.allclose(tip, [1.5, 0.0, 0.0], rtol=0, atol=1e-9)
    # A P/D set point on the joint (gravity still held by the joint force at 0; at 0.2 rad the
    # spring takes the rest: P (0.2 - q) = m g 0.5 (cos q - 1), solved below).
    s.set_tree_joint_spring(0, 500.0, 50.0, position_offset=0.2)
    s.solve_dynamic(end_time=10.0, number_of_steps=2000)
    q = s.tree_state()[0][0]
    assert abs(500.0 * (0.2 - q) - m * 9.81 * 0.5 * (math.cos(q) - 1.0)) < 1e-6
    with pytest.raises(mbsdyn.MbsError):
        s.set_tree_joint_forces(np.zeros(2))
    with pytest.raises(mbsdyn.MbsError):
        s.set_tree_state(np.array([math.nan]), np.zeros(1))
    s.set_tree_state(np.array([0.4]), np.zeros(1))
    assert s.tree_state()[0][0] == 0.4
    with pytest.raises(mbsdyn.MbsError):
        mbsdyn.System().tree_state()


def test_mass_properties_of_a_box_and_a_sphere():
    m, com, i = mbsdyn.box_mass_properties([0.2, 0.3, 0.4], density=1000.0, center=[0.1, 0.0, 0.0])
    assert abs(m - 24.0) < 1e-12 and np.array_equal(com, [0.1, 0.0, 0.0])
    assert np.allclose(np.diag(i), [m * 0.25 / 12, m * 0.2 / 12, m * 0.13 / 12], rtol=1e-14, atol=0)
    m, _, i = mbsdyn.sphere_mass_properties(0.2, inner_diameter=0.1, density=1000.0)
    big, small = 0.1, 0.05
    assert abs(m - 1000.0 * 4 / 3 * math.pi * (big**3 - small**3)) < 1e-12
    assert np.allclose(i, np.eye(3) * 0.4 * m * (big**5 - small**5) / (big**3 - small**3), rtol=1e-14, atol=0)


def test_settings_round_trip_and_the_newton_report_shows_fast_convergence():
    s, _, _ = example("slider_crank").slider_crank()
    settings = s.alpha_settings()
    assert settings["spectral_radius"] == 0.9 and settings["formulation"] == "index3"
    s.set_alpha_settings({"spectral_radius": 0.8, "newton_relative_tolerance": 1e-15, "newton_absolute_tolerance": 1e-13})
    assert s.alpha_settings()["spectral_radius"] == 0.8
    with pytest.raises(mbsdyn.MbsError):
        s.set_alpha_settings({"spectral_radius": 1.5})
    with pytest.raises(mbsdyn.MbsError):
        s.set_alpha_settings({"colour": "red"})
    assert s.alpha_settings()["spectral_radius"] == 0.8
    assert s.newton_report() is None
    s.set_load_vector(0, [0.0, 0.0, 50.0])  # a hard push: 50 N m on the crank, 20 ms steps
    s.assemble()
    iterations = []
    for _ in range(30):
        s.step(2e-2)
        r = s.newton_report()
        h = r["history"]
        assert len(h) == r["iterations"] + 1 and r["constraint_residual"] < 1e-12
        # The last two updates each cut the residual a hundredfold or more, down to the
        # round-off floor (Newton near the solution; core's tests measure the order).
        assert all(b < 1e-2 * a or b < 1e-11 for a, b in zip(h[-3:], h[-2:])), h
        iterations.append(r["iterations"])
    assert 2 <= max(iterations) <= 6, iterations


def test_real_time_mode_bounds_the_newton_updates_of_a_step():
    # Real-time mode at 1 ms steps: at most one update a step, its iterate not evaluated (the
    # history then one entry long, where an iterated step's has two), the joints closed.
    s, _, _ = example("slider_crank").slider_crank()
    assert s.alpha_settings()["real_time_updates"] == 0
    with pytest.raises(mbsdyn.MbsError):
        s.set_alpha_settings({"real_time_updates": 26})  # above max_newton_iterations (25)
    assert s.alpha_settings()["real_time_updates"] == 0
    s.set_alpha_settings({"real_time_updates": 1})
    assert s.alpha_settings()["real_time_updates"] == 1
    s.assemble()
    updates = 0
    for _ in range(200):
        s.step(1e-3)
        r = s.newton_report()
        assert r["iterations"] <= 1 and len(r["history"]) == 1, r
        updates += r["iterations"]
    assert updates > 150, updates
    for k in range(4):  # three revolute joints and the slider's coordinate constraint
        assert np.linalg.norm(s.constraint_output(k, "ConstraintResidual")) < 1e-9
