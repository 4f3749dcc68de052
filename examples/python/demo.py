"""mbs from Python (ctypes): the seed 002 mini example and a torque-free hollow cylinder.

    MBS_LIB=target/release/libmbs.so python3 examples/python/demo.py

Prints what it computed; exits non-zero on a wrong result or an error status.
"""

import math
import os
import sys
from ctypes import byref

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


def main():
    print(f"mbs {mbs.version()} via ctypes")
    ok = mini_example()
    ok = spinning_cylinder() and ok
    ok = refusal() and ok
    print("demo: ok" if ok else "demo: WRONG")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
