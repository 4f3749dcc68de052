"""mbs from Python (ctypes): the mini example of Exudyn's ObjectMassPoint2D, a torque-free hollow cylinder, a
spring-damper system (the system API, with a Python callback as the load), and Exudyn's ObjectKinematicTree mini
example (a pendulum link in joint coordinates).

    MBS_LIB=target/release/libmbs.so python3 examples/python/demo.py

Prints what it computed; exits non-zero on a wrong result or an error status.
"""

import math
import os
import sys
from ctypes import byref, c_double, c_size_t, c_uint32

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import mbs  # noqa: E402
from mbs import check, lib, vec2, vec3  # noqa: E402


def mini_example():
    """Exudyn's mini example: NodePoint2D(reference [1,1], initial [0.5,0], velocity [0.5,0]),
    MassPoint2D(mass 1), SolveDynamic(): x(1 s) = 1 + 0.5 + 0.5 = 2."""
    body = mbs.mbs_mass_point_2d()
    check(lib.mbs_mass_point_2d_init(byref(body), 1.0, vec2(1.0, 1.0)), "init")
    loads = mbs.mbs_mass_point_2d_loads()  # zero: no force, no gravity
    settings = mbs.mbs_simulation_settings()
    check(lib.mbs_simulation_settings_default(byref(settings)))
    end = mbs.mbs_point2d_state()
    check(
        lib.mbs_mass_point_2d_solve_dynamic(
            byref(body), byref(loads), byref(settings), vec2(0.5, 0.0), vec2(0.5, 0.0), byref(end)
        ),
        "solve",
    )
    p = mbs.mass_point_2d_output(body, end, mbs.MBS_OUTPUT_POSITION)
    print(f"mini example: final x = {p[0]!r}, y = {p[1]!r}")
    return abs(p[0] - 2.0) <= 1e-12 and abs(p[1] - 1.0) <= 1e-12


def spinning_cylinder(steps=10000, dt=1e-3):
    """A hollow steel cylinder (outer diameter 0.2 m, inner 0.16 m, length 0.1 m) spinning
    torque-free about an oblique axis, 10 s with the midpoint step: E and |L| are conserved."""
    cyl = mbs.mbs_cylinder()
    check(lib.mbs_cylinder_default(byref(cyl), vec3(0.1, 0.0, 0.0)))
    cyl.has_diameter = True
    cyl.diameter = 0.2
    cyl.inner_diameter = 0.16
    start = mbs.mbs_body_start()
    check(lib.mbs_body_start_default(byref(start)))
    start.angles_start[:] = [0.3, -0.2, 0.5]
    start.w_0_start[:] = [20.0, 6.0, -4.0]  # rad/s, world frame
    body, state = mbs.mbs_rigid_body(), mbs.mbs_rigid_state()
    check(lib.mbs_body_cylinder_init(byref(cyl), byref(start), byref(body), byref(state)), "body")
    loads = mbs.mbs_rigid_loads()  # zero: torque-free
    settings = mbs.mbs_step_settings()
    check(lib.mbs_step_settings_default(byref(settings)))

    def momentum(s):
        i, w = body.inertia, s.angular_velocity
        return math.sqrt(sum(sum(i[3 * r + c] * w[c] for c in range(3)) ** 2 for r in range(3)))

    e0 = mbs.rigid_output(body, state, mbs.MBS_OUTPUT_KINETIC_ENERGY)[0]
    l0 = momentum(state)
    info = mbs.mbs_step_info()
    for _ in range(steps):
        s = check(lib.mbs_rigid_step(byref(body), byref(loads), byref(settings), byref(state), dt, byref(info)))
        if s != mbs.MBS_OK:
            print("warning:", lib.mbs_status_str(s).decode())
            return False
    e1 = mbs.rigid_output(body, state, mbs.MBS_OUTPUT_KINETIC_ENERGY)[0]
    l1 = momentum(state)
    print(f"spinning cylinder: mass = {body.mass!r} kg, I11 = {body.inertia[0]!r}, I22 = {body.inertia[4]!r}")
    print(f"spinning cylinder: E0 = {e0!r} J, energy drift = {(e1 - e0) / e0:.3e}")
    print(f"spinning cylinder: L0 = {l0!r}, |L| drift = {(l1 - l0) / l0:.3e}")
    return abs(e1 - e0) < 1e-9 * e0 and abs(l1 - l0) < 1e-9 * l0


def refusal():
    """A bad input raises MbsError with the library's status text and changes nothing."""
    body = mbs.mbs_mass_point_2d()
    try:
        check(lib.mbs_mass_point_2d_init(byref(body), -1.0, vec2(0.0, 0.0)), "init")
    except mbs.MbsError as e:
        print(f"refused: {e}")
        return e.status == mbs.MBS_ERR_INVALID_MASS and body.mass == 0.0
    return False


def spring_damper_system(steps=4000):
    """Exudyn's tutorialSpringDamperCreate as a system: a 1.6 kg mass on a spring (4000 N/m)
    and damper (8 N s/m) to the ground, pulled by 80 N from a Python callback, recorded by a
    sensor into a ctypes buffer, against the closed-form damped oscillation."""
    m, k, d, f, length, u0, v0 = 1.6, 4000.0, 8.0, 80.0, 0.5, -0.08, 1.0
    sys_ = mbs.mbs_system()
    check(lib.mbs_system_init(byref(sys_)), "init")
    ground, m0, m1, spring, load, sensor = (c_uint32() for _ in range(6))
    body = mbs.mbs_created_body()
    check(lib.mbs_system_create_ground(byref(sys_), vec3(0, 0, 0), byref(ground)))
    check(lib.mbs_system_create_mass_point(byref(sys_), m, vec2(length, 0), vec2(u0, 0), vec2(v0, 0), None, byref(body)))
    check(lib.mbs_system_add_marker_body_position(byref(sys_), ground, vec3(0, 0, 0), byref(m0)))
    check(lib.mbs_system_add_marker_node_position(byref(sys_), body.node, byref(m1)))
    check(lib.mbs_system_add_spring_damper(byref(sys_), m0, m1, k, d, length, 0.0, byref(spring)))

    def force(_ctx, _t, out):
        out[0] = f

    callback = mbs.mbs_load_fn(force)  # kept alive while the system runs
    check(lib.mbs_system_add_load_user(byref(sys_), m1, mbs.MBS_USER_LOAD_FORCE, callback, None, byref(load)))
    rows = (c_double * (4 * (steps + 1)))()
    spec = mbs.mbs_sensor_spec(mbs.MBS_SENSOR_NODE, body.node, mbs.MBS_OUTPUT_DISPLACEMENT)
    check(lib.mbs_system_add_sensor(byref(sys_), byref(spec), rows, steps + 1, byref(sensor)))
    # a connector from a marker to itself is refused, and nothing is added
    refused = lib.mbs_system_add_spring_damper(byref(sys_), m1, m1, k, d, length, 0.0, byref(spring))
    counts = mbs.mbs_system_counts()
    check(lib.mbs_system_get_counts(byref(sys_), byref(counts)))
    failed = mbs.mbs_item_ref()
    check(lib.mbs_system_assemble(byref(sys_), byref(failed)), "assemble")
    sim = mbs.mbs_simulation_settings()
    check(lib.mbs_simulation_settings_default(byref(sim)))
    sim.end_time, sim.number_of_steps = 1.0, steps
    sim.solver_type = mbs.MBS_DYNAMIC_SOLVER_SYSTEM_COUPLING  # kick-drift-kick
    report = mbs.mbs_system_solve_report()
    check(lib.mbs_system_solve_dynamic(byref(sys_), byref(sim), byref(report), byref(failed)), "solve")
    n = c_size_t()
    check(lib.mbs_system_sensor_rows(byref(sys_), sensor, byref(n)))

    # the same run with a step callback that stops it half way: the state of a run of half the steps
    seen = []

    # with MBS_RECORD set, a frame every 20 steps (the start is step 0) into that run recording (mbs-view page makes its page)
    record_path = os.environ.get("MBS_RECORD")
    recording = mbs.Recording(record_path, "spring-damper system from Python") if record_path else None
    vis = mbs.mbs_visualization_settings()
    check(lib.mbs_visualization_settings_default(byref(vis)))

    def on_step(ctx, s, p):
        seen.append(p.contents.time)
        if recording and p.contents.step % 20 == 0:
            recording.frame(sys_, vis)
        return mbs.MBS_RUN_STOP if p.contents.step == steps // 2 else mbs.MBS_RUN_CONTINUE

    step_callback = mbs.mbs_step_callback(on_step)  # kept alive over the call
    half = mbs.mbs_system_solve_report()
    check(lib.mbs_system_solve_dynamic_observed(byref(sys_), byref(sim), step_callback, None, byref(half), None))
    t_half = c_double()
    check(lib.mbs_system_time(byref(sys_), byref(t_half)))
    assert half.stopped == 1 and half.steps == steps // 2 and len(seen) == steps // 2 + 1, (half.steps, len(seen))
    print(f"spring-damper system: step callback stopped the run at step {half.steps}, t = {t_half.value!r} s")
    if recording:
        recording.signal("x displacement (m)")
        for i in range(half.steps + 1):
            recording.sample(rows[4 * i], [rows[4 * i + 1]])
        recording.close()
        print(f"spring-damper system: run recorded to {record_path}")
    check(lib.mbs_system_solve_dynamic(byref(sys_), byref(sim), byref(report), byref(failed)), "solve")

    w0 = math.sqrt(k / m)
    dr = d / (2.0 * math.sqrt(k * m))
    w = w0 * math.sqrt(1.0 - dr * dr)
    c1 = u0 - f / k
    c2 = (v0 + w0 * dr * c1) / w

    def exact(t):
        return math.exp(-w0 * dr * t) * (c1 * math.cos(w * t) + c2 * math.sin(w * t)) + f / k

    err = max(abs(rows[4 * i + 1] - exact(rows[4 * i])) for i in range(n.value))
    x = mbs.system_output(lib.mbs_system_node_output, sys_, body.node, mbs.MBS_OUTPUT_POSITION)[0]
    print(f"spring-damper system: {counts.connectors} connector, {n.value} sensor rows, {report.steps} steps")
    print(f"spring-damper system: final x = {x!r} m, closed form {length + exact(1.0)!r} m, max error = {err:.3e} m")
    print(f"spring-damper system: same marker refused with status {refused}: {lib.mbs_status_str(refused).decode()}")
    return err < 1e-5 and refused == mbs.MBS_ERR_SAME_MARKER and counts.connectors == 1


def kinematic_tree():
    """Exudyn's ObjectKinematicTree mini example: a 1 m x 0.1 m x 0.1 m link (density 1000) on a
    revolute z joint at [0.5, 0, 0], released horizontally under g = [0, -9.81, 0]; the angle at
    1 s (RK4, 1000 steps). Exudyn 1.13.6 (RK67, 1000 steps) prints -3.134018551808591."""
    tree = mbs.mbs_tree()
    check(lib.mbs_tree_init(byref(tree), vec3(0.0, -9.81, 0.0)), "tree init")
    m = 1000.0 * 1.0 * 0.1 * 0.1
    link = mbs.mbs_tree_link(parent=mbs.MBS_NO_INDEX, joint=mbs.MBS_JOINT_REVOLUTE, mass=m)
    link.axis[2] = 1.0
    link.rotation[0] = link.rotation[4] = link.rotation[8] = 1.0
    link.position[0] = 0.5
    link.com[0] = 0.5
    link.inertia[0] = m * (0.01 + 0.01) / 12.0
    link.inertia[4] = link.inertia[8] = m * (1.0 + 0.01) / 12.0
    index = c_uint32()
    check(lib.mbs_tree_add_link(byref(tree), byref(link), byref(index)), "add link")
    q, v, tau = (c_double * 1)(0.0), (c_double * 1)(0.0), (c_double * 1)(0.0)
    for _ in range(1000):
        check(lib.mbs_tree_step(byref(tree), q, 1, v, tau, 1, 1e-3, mbs.MBS_TREE_RUNGE_KUTTA_4, None), "step")
    # Gravity compensation at 0.3 rad: m g (L/2) cos(0.3).
    b, zero = (c_double * 1)(), (c_double * 1)(0.0)
    check(lib.mbs_tree_bias_forces(byref(tree), (c_double * 1)(0.3), 1, zero, 1, b), "bias")
    hold = m * 9.81 * 0.5 * math.cos(0.3)
    print(f"kinematic tree: angle at 1 s = {q[0]!r} rad (Exudyn -3.134018551808591), holding torque = {b[0]!r} N m")
    return abs(q[0] + 3.134018551808591) < 1e-11 and abs(b[0] - hold) < 1e-12


def main():
    print(f"mbs {mbs.version()} via ctypes")
    ok = mini_example()
    ok = spinning_cylinder() and ok
    ok = refusal() and ok
    ok = spring_damper_system() and ok
    ok = kinematic_tree() and ok
    print("demo: ok" if ok else "demo: WRONG")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
