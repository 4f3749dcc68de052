"""mbsdyn against closed forms, against the C API on the same models (bit for bit), and its
refusals: every error an MbsError with the C API's status text, nothing changed."""

import math
import os
import pathlib
import sys as _sys

import numpy as np
import pytest

import mbsdyn

ROOT = pathlib.Path(__file__).resolve().parents[2]


def c_api():
    """The C library through the repository's ctypes mirror (MBS_LIB or target/release)."""
    _sys.path.insert(0, str(ROOT / "examples" / "python"))
    try:
        import mbs  # noqa: PLC0415
    finally:
        _sys.path.pop(0)
    return mbs


def mini_example(solver="system_coupling"):
    s = mbsdyn.System()
    b = s.create_mass_point(mass=1.0, reference_position=[1.0, 1.0], initial_velocity=[0.5, 0.0])
    m = s.add_marker_node_position(b.node)
    s.add_load_force(m, [1.0, 0.0, 0.0])
    sensor = s.add_sensor_node(b.node, "Position")
    s.assemble()
    return s, b, sensor


def test_mini_example_reaches_x_2():
    # Exudyn's mass point mini example: x(1 s) = 1 + 0.5 + 1/2 * 1 = 2, y = 1.
    s, b, sensor = mini_example()
    report = s.solve_dynamic(end_time=1.0, number_of_steps=1000, solver="system_coupling")
    assert report["steps"] == 1000
    x = s.node_output(b.node, "Position")
    assert abs(x[0] - 2.0) <= 1e-12 and abs(x[1] - 1.0) <= 1e-12
    rows = s.sensor_records(sensor)
    assert rows.shape == (1001, 4) and rows.dtype == np.float64
    assert rows[0, 0] == 0.0 and rows[-1, 0] == 1.0
    assert s.time == 1.0


def spring_damper_python(steps):
    s = mbsdyn.System()
    g = s.create_ground()
    b = s.create_mass_point(mass=1.6, reference_position=[0.5, 0.0], initial_displacement=[-0.08, 0.0], initial_velocity=[1.0, 0.0])
    m0 = s.add_marker_body_position(g)
    m1 = s.add_marker_node_position(b.node)
    s.add_spring_damper(m0, m1, 4000.0, 8.0, 0.5)
    s.add_load_force(m1, [80.0, 0.0, 0.0])
    sensor = s.add_sensor_node(b.node, "Displacement")
    s.assemble()
    s.solve_dynamic(end_time=1.0, number_of_steps=steps, solver="system_coupling")
    return s.sensor_records(sensor)


def spring_damper_c(steps):
    mbs = c_api()
    lib = mbs.lib
    from ctypes import byref, c_double, c_uint32  # noqa: PLC0415

    sys_ = mbs.mbs_system()
    mbs.check(lib.mbs_system_init(byref(sys_)))
    ground, m0, m1, spring, load, sensor = (c_uint32() for _ in range(6))
    body = mbs.mbs_created_body()
    mbs.check(lib.mbs_system_create_ground(byref(sys_), mbs.vec3(0, 0, 0), byref(ground)))
    mbs.check(lib.mbs_system_create_mass_point(byref(sys_), 1.6, mbs.vec2(0.5, 0), mbs.vec2(-0.08, 0), mbs.vec2(1.0, 0), None, byref(body)))
    mbs.check(lib.mbs_system_add_marker_body_position(byref(sys_), ground, mbs.vec3(0, 0, 0), byref(m0)))
    mbs.check(lib.mbs_system_add_marker_node_position(byref(sys_), body.node, byref(m1)))
    mbs.check(lib.mbs_system_add_spring_damper(byref(sys_), m0, m1, 4000.0, 8.0, 0.5, 0.0, byref(spring)))
    mbs.check(lib.mbs_system_add_load_force(byref(sys_), m1, mbs.vec3(80.0, 0, 0), byref(load)))
    rows = (c_double * (4 * (steps + 1)))()
    spec = mbs.mbs_sensor_spec(mbs.MBS_SENSOR_NODE, body.node, mbs.MBS_OUTPUT_DISPLACEMENT)
    mbs.check(lib.mbs_system_add_sensor(byref(sys_), byref(spec), rows, steps + 1, byref(sensor)))
    mbs.check(lib.mbs_system_assemble(byref(sys_), None))
    sim = mbs.mbs_simulation_settings()
    mbs.check(lib.mbs_simulation_settings_default(byref(sim)))
    sim.end_time, sim.number_of_steps = 1.0, steps
    sim.solver_type = mbs.MBS_DYNAMIC_SOLVER_SYSTEM_COUPLING
    mbs.check(lib.mbs_system_solve_dynamic(byref(sys_), byref(sim), None, None))
    return np.array(rows[:]).reshape(steps + 1, 4)


def test_results_equal_the_c_api_bit_for_bit():
    py, c = spring_damper_python(500), spring_damper_c(500)
    assert py.shape == c.shape
    assert py.tobytes() == c.tobytes()


def test_statuses_become_exceptions_with_the_c_text():
    mbs = c_api()
    text = lambda status: mbs.lib.mbs_status_str(status).decode()  # noqa: E731
    s, b, _ = mini_example()
    cases = [
        (lambda: s.add_load_force(0, [math.nan, 0.0, 0.0]), mbs.MBS_ERR_NOT_FINITE),
        (lambda: s.create_mass_point(mass=-1.0, reference_position=[0.0, 0.0]), mbs.MBS_ERR_INVALID_MASS),
        (lambda: s.add_spring_damper(0, 0, 1.0, 0.0, 1.0), mbs.MBS_ERR_SAME_MARKER),
        (lambda: s.solve_dynamic(end_time=0.0, number_of_steps=10), mbs.MBS_ERR_INVALID_SETTING),
        (lambda: s.node_output(7, "Position"), mbs.MBS_ERR_UNKNOWN_INDEX),
        (lambda: s.step(-1.0), mbs.MBS_ERR_INVALID_TIME_STEP),
    ]
    for call, status in cases:
        with pytest.raises(mbsdyn.MbsError) as e:
            call()
        assert e.value.status == status, (e.value, status)
        assert str(e.value).startswith(text(status)), (str(e.value), text(status))
    # A whole-system error names its item: a joint with the kick-drift-kick coupling.
    j = mbsdyn.System()
    g = j.create_ground()
    body = j.create_mass_point(mass=1.0, reference_position=[1.0, 0.0])
    j.add_distance_constraint(j.add_marker_body_position(g), j.add_marker_node_position(body.node), 1.0)
    with pytest.raises(mbsdyn.MbsError) as e:
        j.assemble()
    assert e.value.status == mbs.MBS_ERR_NOT_SUPPORTED_BY_SCHEME
    assert e.value.item == ("constraint", 0)
    assert str(e.value) == f"{text(mbs.MBS_ERR_NOT_SUPPORTED_BY_SCHEME)} (constraint 0)"


def test_bad_input_is_refused_and_changes_nothing():
    s, b, sensor = mini_example()
    s.solve_dynamic(end_time=0.5, number_of_steps=50, solver="system_coupling")
    before = (s.counts(), s.time, s.node_output(b.node, "Position").tobytes(), s.sensor_records(sensor).tobytes())
    bad = [
        (lambda: s.add_load_force(0, [1.0, 2.0]), ValueError),  # wrong shape
        (lambda: s.add_load_force(0, "abc"), TypeError),  # wrong type
        (lambda: s.add_load_force(0, [math.inf, 0.0, 0.0]), mbsdyn.MbsError),
        (lambda: s.add_marker_node_position(-1), OverflowError),
        (lambda: s.node_output(0, "Speed"), mbsdyn.MbsError),
        (lambda: s.solve_dynamic(end_time=math.nan, number_of_steps=5), mbsdyn.MbsError),
        (lambda: s.solve_dynamic(end_time=1.0, number_of_steps=5, solver="rk4"), mbsdyn.MbsError),
        (lambda: s.set_load_vector(0, [math.nan, 0.0, 0.0]), mbsdyn.MbsError),
        (lambda: s.create_rigid_body(mass=1.0, inertia=[[1, 0, 0], [0, 1, 0], [0, 0, -1]]), mbsdyn.MbsError),
    ]
    for call, kind in bad:
        with pytest.raises(kind):
            call()
    after = (s.counts(), s.time, s.node_output(b.node, "Position").tobytes(), s.sensor_records(sensor).tobytes())
    assert before == after


def arm_tree():
    t = mbsdyn.KinematicTree(gravity=[0.0, 0.0, -9.81])
    inertia = [[0.02, 0.001, 0.0], [0.001, 0.03, 0.002], [0.0, 0.002, 0.025]]
    parent = None
    for k, axis in enumerate([[0, 0, 1], [0, 1, 0], [0, 1, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]]):
        parent = t.add_link(parent, "revolute", 1.0 + 0.2 * k, inertia, axis=axis, position=[0.0, 0.1, 0.3 if k else 0.0], com=[0.05, 0.0, 0.1])
    return t


def test_tree_dynamics_on_numpy_vectors():
    t = arm_tree()
    rng = np.random.default_rng(7)
    q, v, tau = rng.normal(size=6), rng.normal(size=6), rng.normal(size=6)
    a = t.aba(q, v, tau)
    assert a.shape == (6,) and a.dtype == np.float64
    # RNEA of ABA's accelerations gives tau back; M a = tau - b with b = RNEA(q, v, 0).
    assert np.allclose(t.rnea(q, v, a), tau, rtol=0, atol=1e-12)
    m = t.crba(q)
    assert m.shape == (6, 6) and np.array_equal(m, m.T)
    assert np.all(np.linalg.eigvalsh(m) > 0)
    b = t.rnea(q, v, np.zeros(6))
    assert np.allclose(m @ a, tau - b, rtol=0, atol=1e-12)
    with pytest.raises(mbsdyn.MbsError):
        t.aba(q[:5], v, tau)
    with pytest.raises(mbsdyn.MbsError):
        t.aba(np.full(6, np.nan), v, tau)


def sweep_system(force):
    """The spring-damper pulled by `force` (N), with a displacement sensor (the Dask example's)."""
    return example("sweep_dask").system(force)


def test_solve_batch_equals_the_serial_loop():
    forces = np.linspace(10.0, 100.0, 8)
    systems = [sweep_system(f) for f in forces]
    out = mbsdyn.solve_batch(systems, end_time=0.5, number_of_steps=500)
    assert out.shape == (8, 501, 4) and out.dtype == np.float64
    for k, f in enumerate(forces):
        s = sweep_system(f)
        s.solve_dynamic(end_time=0.5, number_of_steps=500)
        assert out[k].tobytes() == s.sensor_records(0).tobytes()
    # The damped step response from rest: x = f/k (1 - e^(-s t) (cos(w t) + s/w sin(w t))),
    # s = d / (2 m), w = sqrt(k/m - s^2).
    t = out[0, :, 0]
    sigma = 8.0 / (2 * 1.6)
    w = math.sqrt(4000.0 / 1.6 - sigma**2)
    shape = 1 - np.exp(-sigma * t) * (np.cos(w * t) + sigma / w * np.sin(w * t))
    for k, f in enumerate(forces):
        assert np.max(np.abs(out[k, :, 1] - f / 4000.0 * shape)) < 2e-3 * f / 4000.0


def test_dask_sweep_on_a_local_cluster_equals_the_serial_loop():
    distributed = pytest.importorskip("dask.distributed")
    examples = str(ROOT / "python" / "examples")
    _sys.path.insert(0, examples)
    try:
        import sweep_dask  # noqa: PLC0415
    finally:
        _sys.path.pop(0)
    forces = np.linspace(10.0, 100.0, 12)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        with distributed.Client(cluster) as client:
            # The worker processes import the example's functions by name: ship the module.
            client.upload_file(sweep_dask.__file__)
            out = sweep_dask.sweep(client, forces, chunk=4)
    serial = np.stack([sweep_dask.run_chunk([f])[0] for f in forces])
    assert out.tobytes() == serial.tobytes()


def test_a_step_callback_sees_every_step_and_stops_the_run():
    seen = []

    def on_step(step, steps, t):
        seen.append((step, steps, t))
        return step == 300

    s, b, sensor = mini_example()
    r = s.solve_dynamic(end_time=1.0, number_of_steps=1000, solver="system_coupling", on_step=on_step)
    assert r["steps"] == 300 and len(seen) == 301 and seen[0] == (0, 1000, 0.0)
    shorter, b2, sensor2 = mini_example()
    shorter.solve_dynamic(end_time=0.3, number_of_steps=300, solver="system_coupling")
    assert s.time == shorter.time == 0.3
    assert s.node_output(b.node, "Position").tobytes() == shorter.node_output(b2.node, "Position").tobytes()
    assert s.sensor_records(sensor).tobytes() == shorter.sensor_records(sensor2).tobytes()

    def boom(step, steps, t):
        if step == 5:
            raise RuntimeError("stop here")

    with pytest.raises(RuntimeError, match="stop here"):
        s.solve_dynamic(end_time=1.0, number_of_steps=1000, solver="system_coupling", on_step=boom)


def test_a_run_recording_from_python():
    s, b, _ = mini_example()
    r = s.solve_dynamic(end_time=1.0, number_of_steps=100, solver="system_coupling", record_every=10, contour="Velocity")
    text = mbsdyn.record_header("mini example") + r["recording"]
    frames = [line for line in text.splitlines() if line.startswith("frame ")]
    assert text.startswith("mbs-run 1\ntitle mini example\n")
    # t_i = t_0 + i h, the last one end_time exactly.
    assert [float(f.split()[1]) for f in frames] == [0.01 * (10 * k) for k in range(10)] + [1.0]
    assert s.record_frame().startswith("frame 1.0\n")


def example(name):
    _sys.path.insert(0, str(ROOT / "python" / "examples"))
    try:
        return __import__(name)
    finally:
        _sys.path.pop(0)


def test_slider_crank_follows_its_loop_closure_at_every_step():
    sc = example("slider_crank")
    s, crank, slider = sc.slider_crank()
    report = s.solve_dynamic(end_time=1.0, number_of_steps=1000, spectral_radius=0.8)
    assert report["steps"] == 1000 and report["newton_iterations"] <= 3 * 1000
    phi = s.sensor_records(crank)[:, 3]
    x = s.sensor_records(slider)[:, 1]
    closure = 2 * sc.A0 * np.cos(phi) + np.sqrt((2 * sc.A1) ** 2 - (2 * sc.A0 * np.sin(phi)) ** 2)
    assert np.max(np.abs(x - closure)) < 1e-9  # the Newton tolerance
    assert phi[-1] > 0.05  # the torque turned the crank


def test_computed_torque_control_of_the_arm_tracks():
    first, last = example("arm_control").run()
    assert first > 0.09 and last < 1e-3


if __name__ == "__main__":
    raise SystemExit(pytest.main([__file__, "-q"]))
