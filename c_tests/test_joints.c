/* C tests of the 3D joint API: rigid markers with a frame, the generic, spherical, revolute
 * and prismatic joints, their reactions and residuals, with the bodies' rotations in Euler
 * parameters and on the Lie group (`alpha_rotations`). A body held by a fixed joint at an
 * oblique frame stays at rest and its joint carries its weight and the weight's moment; a body
 * on a revolute joint about an oblique axis swings about that axis only; then every refusal:
 * NULL pointers, NaN, a frame that is not a rotation, a flag that is not 0 or 1, no
 * constrained axis, both markers on one body, a revolute joint on a position marker, a joint
 * on a 2D mass point, redundant joints; a torsional spring-damper drives a revolute joint to a
 * target angle, and its refusals. After each refused call the outputs hold the sentinel
 * pattern and the system is unchanged (c_tests/system_snapshot.h: counts, time, settings,
 * every node state, every load and sensor). */
#include <stdint.h>
#include "mbs.h"
#include "check.h"
#include "system_snapshot.h"

static mbs_system sys;


static const double Z3[3] = {0, 0, 0}, Q1[4] = {1, 0, 0, 0}, G[3] = {0, -9.81, 0};
static const double E3[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};

/* A rotation about y by 0.3 rad (row-major): x stays horizontal. */
static void frame_y(double r[9]) {
    double c = cos(0.3), s = sin(0.3);
    double m[9] = {c, 0, s, 0, 1, 0, -s, 0, c};
    memcpy(r, m, sizeof m);
}

/* The rotation coordinates the tests below run with (main runs them with each). */
static MbsRotations rotations = MBS_ROTATIONS_EULER_PARAMETERS;

static void alpha(mbs_system *s) {
    mbs_system_settings st;
    CHECK_STATUS(mbs_system_settings_default(&st), MBS_OK);
    CHECK(st.alpha_rotations == MBS_ROTATIONS_EULER_PARAMETERS);
    st.scheme = MBS_SYSTEM_SCHEME_GENERALIZED_ALPHA;
    st.alpha_rotations = rotations;
    CHECK_STATUS(mbs_system_set_settings(s, &st), MBS_OK);
}

static mbs_mass_properties body_mp(void) {
    mbs_mass_properties mp;
    memset(&mp, 0, sizeof mp);
    mp.mass = 2;
    mp.inertia[0] = 0.02, mp.inertia[4] = 0.03, mp.inertia[8] = 0.04;
    mp.inertia[1] = mp.inertia[3] = 0.001;
    return mp;
}

/* A 2 kg body with its COM at c, welded to the ground at o by a fixed joint whose frame is
 * turned about y: at rest, the joint's force on the ground is the weight m g, its torque about
 * o the weight's moment (c - o) x m g, in the world and in the joint frame. */
static void test_fixed_joint_reaction(void) {
    const double c[3] = {0.4, 0.1, -0.2}, o[3] = {0.1, 0.2, 0.05};
    double f[9], oc[3], out[3], want_t[3], local[3];
    uint32_t ground, m0, m1, joint, k;
    size_t n;
    const mbs_flag all[6] = {1, 1, 1, 1, 1, 1};
    mbs_mass_properties mp = body_mp();
    mbs_created_body b;
    mbs_rigid_state st;
    frame_y(f);
    CHECK_STATUS(mbs_system_init(&sys), MBS_OK);
    alpha(&sys);
    CHECK_STATUS(mbs_system_add_object_ground(&sys, Z3, &ground), MBS_OK);
    CHECK_STATUS(mbs_system_create_rigid_body(&sys, &mp, c, Q1, Z3, Z3, G, &b), MBS_OK);
    for (k = 0; k < 3; k++) oc[k] = o[k] - c[k];
    CHECK_STATUS(mbs_system_add_marker_body_rigid_frame(&sys, ground, o, f, &m0), MBS_OK);
    CHECK_STATUS(mbs_system_add_marker_body_rigid_frame(&sys, b.object, oc, f, &m1), MBS_OK);
    CHECK_STATUS(mbs_system_add_generic_joint(&sys, m0, m1, all, &joint), MBS_OK);
    CHECK_STATUS(mbs_system_assemble(&sys, NULL), MBS_OK);
    for (k = 0; k < 100; k++)
        CHECK_STATUS(mbs_system_step(&sys, 1e-3, NULL, NULL), MBS_OK);
    CHECK_STATUS(mbs_system_get_rigid_state(&sys, b.node, &st), MBS_OK);
    CHECK(fabs(st.position[0] - c[0]) + fabs(st.position[1] - c[1]) + fabs(st.position[2] - c[2]) < 1e-12);
    CHECK_STATUS(mbs_system_constraint_output(&sys, joint, MBS_OUTPUT_FORCE, out, 3, &n), MBS_OK);
    CHECK(n == 3 && fabs(out[0]) < 1e-9 && fabs(out[1] + 2 * 9.81) < 1e-9 && fabs(out[2]) < 1e-9);
    /* (c - o) x m g with m g = (0, -19.62, 0): (-(c-o)_z * -19.62 ..) */
    want_t[0] = -(c[2] - o[2]) * (-19.62), want_t[1] = 0, want_t[2] = (c[0] - o[0]) * (-19.62);
    CHECK_STATUS(mbs_system_constraint_output(&sys, joint, MBS_OUTPUT_TORQUE, out, 3, &n), MBS_OK);
    CHECK(fabs(out[0] - want_t[0]) + fabs(out[1] - want_t[1]) + fabs(out[2] - want_t[2]) < 1e-9);
    /* In the joint frame: F^T v (the frame's columns are its axes). */
    for (k = 0; k < 3; k++) local[k] = f[k] * want_t[0] + f[3 + k] * want_t[1] + f[6 + k] * want_t[2];
    CHECK_STATUS(mbs_system_constraint_output(&sys, joint, MBS_OUTPUT_TORQUE_LOCAL, out, 3, &n), MBS_OK);
    CHECK(fabs(out[0] - local[0]) + fabs(out[1] - local[1]) + fabs(out[2] - local[2]) < 1e-9);
    CHECK_STATUS(mbs_system_constraint_output(&sys, joint, MBS_OUTPUT_FORCE_LOCAL, out, 3, &n), MBS_OK);
    CHECK(fabs(out[0] - f[3] * -19.62) + fabs(out[1] - f[4] * -19.62) + fabs(out[2] - f[5] * -19.62) < 1e-9);
    CHECK_STATUS(mbs_system_constraint_output(&sys, joint, MBS_OUTPUT_CONSTRAINT_RESIDUAL, out, 3, &n), MBS_OK);
    CHECK(out[0] < 1e-12 && out[1] < 1e-12 && out[2] == 0);
}

/* A body on a revolute joint about the oblique axis a (through the origin), released from
 * rest off its lowest position: its COM keeps its distance from the axis and its position
 * along it (it swings about a only), and it moves. */
static void test_revolute_swing(void) {
    const double c[3] = {0.3, -0.2, 0.1};
    double a[3], f[9], l[3], x[3], y[3], s, dist0, along0, dist, along;
    uint32_t ground, m0, m1, joint, k;
    mbs_mass_properties mp = body_mp();
    mbs_created_body b;
    mbs_rigid_state st;
    /* a = (0.3, 0.2, 1)/|.|; the frame's z along a (columns x, y, a, row-major). */
    s = sqrt(0.09 + 0.04 + 1), a[0] = 0.3 / s, a[1] = 0.2 / s, a[2] = 1 / s;
    x[0] = a[2], x[1] = 0, x[2] = -a[0];
    s = sqrt(x[0] * x[0] + x[2] * x[2]), x[0] /= s, x[2] /= s;
    y[0] = a[1] * x[2] - a[2] * x[1], y[1] = a[2] * x[0] - a[0] * x[2], y[2] = a[0] * x[1] - a[1] * x[0];
    for (k = 0; k < 3; k++) f[3 * k] = x[k], f[3 * k + 1] = y[k], f[3 * k + 2] = a[k];
    for (k = 0; k < 3; k++) l[k] = -c[k];
    CHECK_STATUS(mbs_system_init(&sys), MBS_OK);
    alpha(&sys);
    CHECK_STATUS(mbs_system_add_object_ground(&sys, Z3, &ground), MBS_OK);
    CHECK_STATUS(mbs_system_create_rigid_body(&sys, &mp, c, Q1, Z3, Z3, G, &b), MBS_OK);
    CHECK_STATUS(mbs_system_add_marker_body_rigid_frame(&sys, ground, Z3, f, &m0), MBS_OK);
    CHECK_STATUS(mbs_system_add_marker_body_rigid_frame(&sys, b.object, l, f, &m1), MBS_OK);
    CHECK_STATUS(mbs_system_add_revolute_joint(&sys, m0, m1, &joint), MBS_OK);
    CHECK_STATUS(mbs_system_assemble(&sys, NULL), MBS_OK);
    along0 = c[0] * a[0] + c[1] * a[1] + c[2] * a[2];
    dist0 = sqrt(c[0] * c[0] + c[1] * c[1] + c[2] * c[2] - along0 * along0);
    for (k = 0; k < 500; k++)
        CHECK_STATUS(mbs_system_step(&sys, 1e-3, NULL, NULL), MBS_OK);
    CHECK_STATUS(mbs_system_get_rigid_state(&sys, b.node, &st), MBS_OK);
    along = st.position[0] * a[0] + st.position[1] * a[1] + st.position[2] * a[2];
    dist = sqrt(st.position[0] * st.position[0] + st.position[1] * st.position[1] +
                st.position[2] * st.position[2] - along * along);
    CHECK(fabs(along - along0) < 1e-9 && fabs(dist - dist0) < 1e-9);
    CHECK(fabs(st.position[0] - c[0]) + fabs(st.position[1] - c[1]) > 1e-2);
}

/* A body on a revolute joint about world z through the origin (COM at (0.3, 0, 0)), driven by a
 * critically damped torsional spring-damper to a target of 0.5 rad: it settles there. Then
 * the spring-damper's refusals. */
static void test_torsional_target(void) {
    const double c[3] = {0.3, 0, 0};
    const double l[3] = {-0.3, 0, 0};
    double d;
    uint32_t ground, m0, m1, joint, spring, out = 0xABABABABu, k, m_pos;
    mbs_mass_properties mp = body_mp();
    mbs_created_body b;
    mbs_rigid_state st;
    CHECK_STATUS(mbs_system_init(&sys), MBS_OK);
    alpha(&sys);
    CHECK_STATUS(mbs_system_add_object_ground(&sys, Z3, &ground), MBS_OK);
    CHECK_STATUS(mbs_system_create_rigid_body(&sys, &mp, c, Q1, Z3, Z3, NULL, &b), MBS_OK);
    CHECK_STATUS(mbs_system_add_marker_body_rigid(&sys, ground, Z3, &m0), MBS_OK);
    CHECK_STATUS(mbs_system_add_marker_body_rigid(&sys, b.object, l, &m1), MBS_OK);
    CHECK_STATUS(mbs_system_add_marker_body_position(&sys, b.object, l, &m_pos), MBS_OK);
    CHECK_STATUS(mbs_system_add_revolute_joint(&sys, m0, m1, &joint), MBS_OK);
    d = 2 * sqrt(40 * (0.04 + 2 * 0.3 * 0.3)); /* critical: I_zz about the axis */
    REFUSE(mbs_system_add_torsional_spring_damper(&sys, m0, m1, -1, d, 0, 0, &out), MBS_ERR_INVALID_STIFFNESS_DAMPING);
    REFUSE(mbs_system_add_torsional_spring_damper(&sys, m0, m1, 40, NAN, 0, 0, &out), MBS_ERR_NOT_FINITE);
    REFUSE(mbs_system_add_torsional_spring_damper(&sys, m0, m_pos, 40, d, 0, 0, &out), MBS_ERR_INVALID_MARKER);
    REFUSE(mbs_system_add_torsional_spring_damper(&sys, m0, m0, 40, d, 0, 0, &out), MBS_ERR_SAME_MARKER);
    REFUSE(mbs_system_add_torsional_spring_damper(&sys, m0, m1, 40, d, 0, 0, NULL), MBS_ERR_NULL_POINTER);
    CHECK(out == 0xABABABABu);
    CHECK_STATUS(mbs_system_add_torsional_spring_damper(&sys, m0, m1, 40, d, 0, 0, &spring), MBS_OK);
    CHECK_STATUS(mbs_system_assemble(&sys, NULL), MBS_OK);
    REFUSE(mbs_system_set_torsional_target(&sys, spring, NAN, 0), MBS_ERR_NOT_FINITE);
    REFUSE(mbs_system_set_torsional_target(&sys, spring + 1, 0.5, 0), MBS_ERR_UNKNOWN_INDEX);
    REFUSE(mbs_system_set_torsional_target(NULL, spring, 0.5, 0), MBS_ERR_NULL_POINTER);
    CHECK_STATUS(mbs_system_set_torsional_target(&sys, spring, 0.5, 0), MBS_OK);
    for (k = 0; k < 3000; k++)
        CHECK_STATUS(mbs_system_step(&sys, 1e-3, NULL, NULL), MBS_OK);
    CHECK_STATUS(mbs_system_get_rigid_state(&sys, b.node, &st), MBS_OK);
    CHECK(fabs(st.position[0] - 0.3 * cos(0.5)) < 1e-5 && fabs(st.position[1] - 0.3 * sin(0.5)) < 1e-5);
    /* The joint's own outputs: its angle about z (the body's, from its COM: atan2(y, x)) and
     * rate (the body's angular velocity about z), nothing about x and y, no offset. */
    {
        double angle[3], rate[3], d[3];
        size_t n = 0;
        CHECK_STATUS(mbs_system_constraint_output(&sys, joint, MBS_OUTPUT_ROTATION, angle, 3, &n), MBS_OK);
        CHECK(n == 3 && fabs(angle[2] - atan2(st.position[1], st.position[0])) < 1e-12);
        CHECK(fabs(angle[0]) + fabs(angle[1]) < 1e-12);
        CHECK_STATUS(mbs_system_constraint_output(&sys, joint, MBS_OUTPUT_ANGULAR_VELOCITY_LOCAL, rate, 3, &n), MBS_OK);
        CHECK(fabs(rate[2] - st.angular_velocity[2]) < 1e-12 && fabs(rate[0]) + fabs(rate[1]) < 1e-9);
        CHECK_STATUS(mbs_system_constraint_output(&sys, joint, MBS_OUTPUT_DISPLACEMENT_LOCAL, d, 3, &n), MBS_OK);
        CHECK(fabs(d[0]) + fabs(d[1]) + fabs(d[2]) < 1e-12);
        CHECK_STATUS(mbs_system_constraint_output(&sys, joint, MBS_OUTPUT_VELOCITY_LOCAL, d, 3, &n), MBS_OK);
        CHECK(fabs(d[0]) + fabs(d[1]) + fabs(d[2]) < 1e-8);
        CHECK_STATUS(mbs_system_constraint_output(&sys, joint, MBS_OUTPUT_KINETIC_ENERGY, d, 3, &n),
                     MBS_ERR_NOT_AVAILABLE);
    }
}

static void test_refusals(void) {
    uint32_t ground, m0, m1, m2, m_pos, out = 0xABABABABu, joint, g2, p2, pm, gm;
    double bad[9], f[9];
    const mbs_flag none[6] = {0, 0, 0, 0, 0, 0}, two[6] = {1, 1, 1, 2, 0, 0};
    const mbs_flag rev[6] = {1, 1, 1, 1, 1, 0};
    const double nan3[3] = {NAN, 0, 0}, x1[3] = {1, 0, 0}, mx1[3] = {-1, 0, 0};
    mbs_mass_properties mp = body_mp();
    mbs_created_body b;
    mbs_item_ref failed;
    frame_y(f);
    CHECK_STATUS(mbs_system_init(&sys), MBS_OK);
    alpha(&sys);
    CHECK_STATUS(mbs_system_add_object_ground(&sys, Z3, &ground), MBS_OK);
    CHECK_STATUS(mbs_system_create_rigid_body(&sys, &mp, x1, Q1, Z3, Z3, NULL, &b), MBS_OK);
    /* frames */
    REFUSE(mbs_system_add_marker_body_rigid_frame(&sys, b.object, Z3, NULL, &out), MBS_ERR_NULL_POINTER);
    CHECK(out == 0xABABABABu);
    REFUSE(mbs_system_add_marker_body_rigid_frame(&sys, b.object, NULL, E3, &out), MBS_ERR_NULL_POINTER);
    REFUSE(mbs_system_add_marker_body_rigid_frame(&sys, b.object, nan3, E3, &out), MBS_ERR_NOT_FINITE);
    memcpy(bad, E3, sizeof bad), bad[4] = NAN;
    REFUSE(mbs_system_add_marker_body_rigid_frame(&sys, b.object, Z3, bad, &out), MBS_ERR_NOT_FINITE);
    memset(bad, 0, sizeof bad); /* a zero axis */
    REFUSE(mbs_system_add_marker_body_rigid_frame(&sys, b.object, Z3, bad, &out), MBS_ERR_INVALID_ORIENTATION);
    memcpy(bad, E3, sizeof bad), bad[8] = -1; /* a reflection */
    REFUSE(mbs_system_add_marker_body_rigid_frame(&sys, b.object, Z3, bad, &out), MBS_ERR_INVALID_ORIENTATION);
    REFUSE(mbs_system_add_marker_body_rigid_frame(&sys, 99, Z3, E3, &out), MBS_ERR_UNKNOWN_INDEX);
    CHECK(out == 0xABABABABu);
    CHECK_STATUS(mbs_system_add_marker_body_rigid_frame(&sys, ground, Z3, f, &m0), MBS_OK);
    CHECK_STATUS(mbs_system_add_marker_body_rigid_frame(&sys, b.object, mx1, f, &m1), MBS_OK);
    CHECK_STATUS(mbs_system_add_marker_body_rigid(&sys, b.object, Z3, &m2), MBS_OK);
    CHECK_STATUS(mbs_system_add_marker_body_position(&sys, b.object, mx1, &m_pos), MBS_OK);
    /* joints */
    REFUSE(mbs_system_add_generic_joint(&sys, m0, m1, NULL, &out), MBS_ERR_NULL_POINTER);
    REFUSE(mbs_system_add_generic_joint(&sys, m0, m1, rev, NULL), MBS_ERR_NULL_POINTER);
    REFUSE(mbs_system_add_generic_joint(&sys, m0, m1, two, &out), MBS_ERR_INVALID_ARGUMENT);
    REFUSE(mbs_system_add_generic_joint(&sys, m0, m1, none, &out), MBS_ERR_INVALID_SETTING);
    REFUSE(mbs_system_add_revolute_joint(&sys, m1, m2, &out), MBS_ERR_SAME_BODY);
    REFUSE(mbs_system_add_revolute_joint(&sys, m1, m1, &out), MBS_ERR_SAME_MARKER);
    REFUSE(mbs_system_add_revolute_joint(&sys, m0, m_pos, &out), MBS_ERR_INVALID_MARKER);
    REFUSE(mbs_system_add_prismatic_joint(&sys, m0, 99, &out), MBS_ERR_UNKNOWN_INDEX);
    REFUSE(mbs_system_add_spherical_joint(NULL, m0, m_pos, &out), MBS_ERR_NULL_POINTER);
    CHECK(untouched_bytes(&out, sizeof out));
    CHECK_STATUS(mbs_system_add_spherical_joint(&sys, m0, m_pos, &joint), MBS_OK);
    CHECK_STATUS(mbs_system_add_generic_joint(&sys, m0, m1, rev, &joint), MBS_OK);
    /* redundant: the spherical joint's equations again in the revolute joint */
    POISON(failed);
    REFUSE(mbs_system_assemble(&sys, &failed), MBS_ERR_SINGULAR_MATRIX);
    CHECK(failed.kind == MBS_ITEM_CONSTRAINT && failed.index == joint);
    /* a BodyCylinder's frame markers; another body has none */
    {
        mbs_cylinder cyl;
        mbs_body_start start;
        mbs_created_body rod;
        const double r[3] = {0.5, 0, 0};
        uint32_t frames[2] = {0xABABABABu, 0xABABABABu};
        CHECK_STATUS(mbs_cylinder_default(&cyl, r), MBS_OK);
        CHECK_STATUS(mbs_body_start_default(&start), MBS_OK);
        CHECK_STATUS(mbs_system_create_body_cylinder(&sys, &cyl, &start, NULL, &rod), MBS_OK);
        REFUSE(mbs_system_add_frame_markers(&sys, rod.object, NULL), MBS_ERR_NULL_POINTER);
        REFUSE(mbs_system_add_frame_markers(&sys, b.object, frames), MBS_ERR_WRONG_NODE_KIND);
        REFUSE(mbs_system_add_frame_markers(&sys, 99, frames), MBS_ERR_UNKNOWN_INDEX);
        CHECK(frames[0] == 0xABABABABu && frames[1] == 0xABABABABu);
        CHECK_STATUS(mbs_system_add_frame_markers(&sys, rod.object, frames), MBS_OK);
        CHECK(frames[1] == frames[0] + 1);
        {
            double p[3];
            size_t n;
            CHECK_STATUS(mbs_system_marker_output(&sys, frames[1], MBS_OUTPUT_POSITION, p, 3, &n), MBS_OK);
            CHECK(fabs(p[0] - 0.5) < 1e-15 && p[1] == 0 && p[2] == 0);
        }
    }
    /* a joint on a 2D mass point */
    CHECK_STATUS(mbs_system_init(&sys), MBS_OK);
    alpha(&sys);
    CHECK_STATUS(mbs_system_add_object_ground(&sys, Z3, &g2), MBS_OK);
    {
        const double r[2] = {1, 0}, z2[2] = {0, 0};
        uint32_t n2;
        CHECK_STATUS(mbs_system_add_node_point2d(&sys, r, z2, z2, &n2), MBS_OK);
        CHECK_STATUS(mbs_system_add_object_mass_point_2d(&sys, n2, 1.0, &p2), MBS_OK);
    }
    CHECK_STATUS(mbs_system_add_marker_body_position(&sys, p2, Z3, &pm), MBS_OK);
    CHECK_STATUS(mbs_system_add_marker_body_rigid(&sys, g2, Z3, &gm), MBS_OK);
    REFUSE(mbs_system_add_revolute_joint(&sys, gm, pm, &out), MBS_ERR_INVALID_MARKER);
    CHECK_STATUS(mbs_system_add_spherical_joint(&sys, gm, pm, &joint), MBS_OK);
    POISON(failed);
    REFUSE(mbs_system_assemble(&sys, &failed), MBS_ERR_INVALID_MARKER);
    CHECK(failed.kind == MBS_ITEM_CONSTRAINT && failed.index == joint);
}

/* A body on a revolute joint to the ground placed by a point and an axis (world z through
 * o), released from rest with its COM level with the axis: the joint's angle about z is the
 * COM's turn about o, its rate the body's angular velocity about z; a body on a prismatic
 * joint along world x placed the same way stays put (no gravity along x). Then the
 * refusals: nothing added, no byte of the storage changed. */
static void test_joints_at_a_world_point(void) {
    const double c[3] = {0.5, 0.2, 0.1}, o[3] = {0.2, 0.2, 0.1}, z[3] = {0, 0, 3}, x[3] = {2, 0, 0};
    const double nan3[3] = {NAN, 0, 0};
    double angle[3], rate[3], d[3];
    size_t n = 0;
    uint32_t ground, k;
    mbs_world_joint j, untouched_j, slide;
    mbs_mass_properties mp = body_mp();
    mbs_created_body b, p;
    mbs_rigid_state st;
    mbs_system_counts counts;
    CHECK_STATUS(mbs_system_init(&sys), MBS_OK);
    alpha(&sys);
    CHECK_STATUS(mbs_system_add_object_ground(&sys, Z3, &ground), MBS_OK);
    CHECK_STATUS(mbs_system_create_rigid_body(&sys, &mp, c, Q1, Z3, Z3, G, &b), MBS_OK);
    CHECK_STATUS(mbs_system_create_rigid_body(&sys, &mp, c, Q1, Z3, Z3, G, &p), MBS_OK);
    /* Refusals first, on the bodies alone. */
    POISON(untouched_j);
    REFUSE(mbs_system_add_revolute_joint_at(&sys, ground, b.object, o, Z3, &untouched_j), MBS_ERR_INVALID_DIRECTION);
    REFUSE(mbs_system_add_revolute_joint_at(&sys, ground, b.object, nan3, z, &untouched_j), MBS_ERR_NOT_FINITE);
    REFUSE(mbs_system_add_revolute_joint_at(&sys, ground, b.object, o, nan3, &untouched_j), MBS_ERR_NOT_FINITE);
    REFUSE(mbs_system_add_revolute_joint_at(&sys, ground, 99, o, z, &untouched_j), MBS_ERR_UNKNOWN_INDEX);
    REFUSE(mbs_system_add_revolute_joint_at(&sys, b.object, b.object, o, z, &untouched_j), MBS_ERR_SAME_BODY);
    REFUSE(mbs_system_add_prismatic_joint_at(&sys, ground, ground, o, x, &untouched_j), MBS_ERR_SAME_BODY);
    REFUSE(mbs_system_add_revolute_joint_at(&sys, ground, b.object, NULL, z, &untouched_j), MBS_ERR_NULL_POINTER);
    REFUSE(mbs_system_add_revolute_joint_at(&sys, ground, b.object, o, NULL, &untouched_j), MBS_ERR_NULL_POINTER);
    REFUSE(mbs_system_add_revolute_joint_at(&sys, ground, b.object, o, z, NULL), MBS_ERR_NULL_POINTER);
    CHECK(UNTOUCHED(untouched_j));
    CHECK_STATUS(mbs_system_add_revolute_joint_at(&sys, ground, b.object, o, z, &j), MBS_OK);
    CHECK_STATUS(mbs_system_add_prismatic_joint_at(&sys, ground, p.object, c, x, &slide), MBS_OK);
    CHECK_STATUS(mbs_system_get_counts(&sys, &counts), MBS_OK);
    /* Each body created with gravity has its mass marker (0, 1); the joints add two each. */
    CHECK(counts.markers == 6 && j.markers[0] == 2 && j.markers[1] == 3 && slide.markers[0] == 4);
    CHECK(slide.joint == j.joint + 1);
    CHECK_STATUS(mbs_system_assemble(&sys, NULL), MBS_OK);
    for (k = 0; k < 300; k++)
        CHECK_STATUS(mbs_system_step(&sys, 1e-3, NULL, NULL), MBS_OK);
    CHECK_STATUS(mbs_system_get_rigid_state(&sys, b.node, &st), MBS_OK);
    CHECK_STATUS(mbs_system_constraint_output(&sys, j.joint, MBS_OUTPUT_ROTATION, angle, 3, &n), MBS_OK);
    CHECK(fabs(angle[2] - atan2(st.position[1] - o[1], st.position[0] - o[0])) < 1e-9);
    CHECK(angle[2] < -0.1); /* it swung down */
    CHECK_STATUS(mbs_system_constraint_output(&sys, j.joint, MBS_OUTPUT_ANGULAR_VELOCITY_LOCAL, rate, 3, &n), MBS_OK);
    CHECK(fabs(rate[2] - st.angular_velocity[2]) < 1e-9);
    CHECK_STATUS(mbs_system_constraint_output(&sys, slide.joint, MBS_OUTPUT_DISPLACEMENT_LOCAL, d, 3, &n), MBS_OK);
    CHECK(fabs(d[0]) + fabs(d[1]) + fabs(d[2]) < 1e-12);
}

int main(void) {
    const MbsRotations both[2] = {MBS_ROTATIONS_EULER_PARAMETERS, MBS_ROTATIONS_LIE_GROUP};
    int r;
    for (r = 0; r < 2; r++) {
        rotations = both[r];
        test_fixed_joint_reaction();
        test_revolute_swing();
        test_torsional_target();
        test_refusals();
        test_joints_at_a_world_point();
    }
    printf("test_joints: %d failures\n", failures);
    return failures != 0;
}
