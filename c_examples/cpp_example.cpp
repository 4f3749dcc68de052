// C++17 use of the plain C header (no wrapper, no RAII): the mass properties of a solid steel
// cylinder and a box combined into one body, then a rigid body from them spun up by a
// constant torque about its symmetry axis for 1 s at 1 kHz. About a principal axis with the
// rate along it, the gyroscopic term vanishes and the midpoint step is exact:
// w(t) = tau / I11 t. Prints the mass properties and the rate; exits non-zero if they are off.
#include <array>
#include <cmath>
#include <cstdio>
#include <cstring>

#include "mbs.h"

namespace {

bool ok(mbs_status s, const char* what) {
    if (s != MBS_OK) {
        std::printf("%s: %s\n", what, mbs_status_str(s));
        return false;
    }
    return true;
}

}  // namespace

int main() {
    constexpr double kPi = 3.14159265358979323846;
    const double r[3] = {0.4, 0.0, 0.0};  // axis along x, length 0.4 m
    mbs_cylinder cyl{};
    std::array<mbs_mass_properties, 2> parts{};
    mbs_mass_properties total{};
    if (!ok(mbs_cylinder_default(&cyl, r), "cylinder")) return 1;
    cyl.has_diameter = true;
    cyl.diameter = 0.1;
    if (!ok(mbs_cylinder_mass_properties(&cyl, &parts[0]), "cylinder mass")) return 1;
    // A 0.1 m aluminium cube at the far end, centred on the axis at x = 0.45 m.
    const double dims[3] = {0.1, 0.1, 0.1};
    const double center[3] = {0.45, 0.0, 0.0};
    if (!ok(mbs_box_mass_properties(dims, 2700.0, center, &parts[1]), "box")) return 1;
    if (!ok(mbs_mass_properties_combine(parts.data(), parts.size(), &total), "combine")) return 1;

    const double m_cyl = 7700.0 * kPi * 0.4 * 0.05 * 0.05;
    const double m_box = 2700.0 * 1e-3;
    const double i11 = m_cyl * 0.05 * 0.05 / 2.0 + m_box * (0.01 + 0.01) / 12.0;
    std::printf("cylinder mass = %.17g kg\n", parts[0].mass);
    std::printf("total mass = %.17g kg, com x = %.17g m\n", total.mass, total.com[0]);
    std::printf("total I11 = %.17g kg m^2\n", total.inertia[0]);

    mbs_rigid_body body{};
    mbs_rigid_state state{};
    mbs_rigid_loads loads{};
    mbs_step_settings settings{};
    const double zero[3] = {0.0, 0.0, 0.0};
    const double identity[4] = {1.0, 0.0, 0.0, 0.0};
    // Reference point at the combined centre of mass, body axes = frame_a's axes.
    if (!ok(mbs_rigid_body_init(&body, total.mass, total.inertia, zero), "body") ||
        !ok(mbs_rigid_state_init(&state, total.com, identity, zero, zero), "state") ||
        !ok(mbs_step_settings_default(&settings), "settings")) {
        return 1;
    }
    loads.torque[0] = 0.05;  // N m about the body x axis
    const int steps = 1000;
    const double dt = 1e-3;
    for (int k = 0; k < steps; ++k) {
        if (!ok(mbs_rigid_step(&body, &loads, &settings, &state, dt, nullptr), "step")) return 1;
    }
    double w_world[3] = {0.0, 0.0, 0.0};
    size_t n = 0;
    if (!ok(mbs_rigid_output(&body, &state, MBS_OUTPUT_ANGULAR_VELOCITY, zero, w_world, 3, &n),
            "output")) {
        return 1;
    }
    const double expected = 0.05 / total.inertia[0] * (steps * dt);
    std::printf("w_x after 1 s = %.17g rad/s, tau/I11 t = %.17g rad/s\n", w_world[0], expected);
    if (std::fabs(total.mass - (m_cyl + m_box)) > 1e-12 * total.mass ||
        std::fabs(total.inertia[0] - i11) > 1e-12 * i11 ||
        std::fabs(w_world[0] - expected) > 1e-12 * expected || std::fabs(w_world[1]) > 1e-12) {
        std::printf("WRONG\n");
        return 1;
    }
    return 0;
}
