/* C tests of the kinematic-tree API (mbs_tree_*, mbs_tree_*_f32): a two-link pendulum's mass
 * matrix, bias forces and accelerations agree with one another (M q_tt + b = tau) and with the
 * closed form of one link; the single-precision twin follows the double one; a step and a
 * link pose; a four-bar closed by a loop follows its closed-form kinematics; then every refusal: NULL pointers, an uninitialized or misaligned storage, NaN,
 * a parent that is not an earlier link, an unknown joint type, a zero axis, a placement that
 * is not a rotation, a mass that is not positive, an inertia that is not positive definite,
 * a full capacity, lengths that are not the tree's, a zero quaternion, a bad time step or
 * scheme, springs that do not fit the joint. After each refused call the outputs hold the
 * sentinel pattern and the tree's storage is byte for byte what it was. The four-bar again as
 * a tree in a system closed by a system joint (mbs_system_add_kinematic_tree and friends). */
#include <float.h>
#include <stdint.h>
#include "mbs.h"
#include "check.h"

static mbs_tree tree, before;

/* `call` returns `expected` and leaves the whole storage of `tree` as it was. */
#define REFUSE(call, expected)                                      \
    do {                                                            \
        STORAGE_COPY(before, tree);                      \
        CHECK_STATUS(call, expected);                               \
        CHECK(STORAGE_SAME(before, tree));          \
    } while (0)

static const double G[3] = {0, -9.81, 0};

/* A 1 m, 2 kg bar along +x of its link frame on a revolute z joint. */
static mbs_tree_link bar(uint32_t parent, double at_x) {
    mbs_tree_link l;
    memset(&l, 0, sizeof l);
    l.parent = parent;
    l.joint = MBS_JOINT_REVOLUTE;
    l.axis[2] = 1;
    l.rotation[0] = l.rotation[4] = l.rotation[8] = 1;
    l.position[0] = at_x;
    l.mass = 2;
    l.com[0] = 0.5;
    l.inertia[0] = 0.002, l.inertia[4] = l.inertia[8] = 2.0 / 12.0;
    return l;
}

static void build_pendulum(void) {
    uint32_t i;
    mbs_tree_link a = bar(MBS_NO_INDEX, 0), b = bar(0, 1.0);
    CHECK_STATUS(mbs_tree_init(&tree, G), MBS_OK);
    CHECK_STATUS(mbs_tree_add_link(&tree, &a, &i), MBS_OK);
    CHECK(i == 0);
    CHECK_STATUS(mbs_tree_add_link(&tree, &b, &i), MBS_OK);
    CHECK(i == 1);
}

static void test_dynamics_agree(void) {
    const double q[2] = {0.3, -0.7}, v[2] = {1.1, -0.4}, tau[2] = {2.0, -1.5};
    double m[4], b[2], acc[2], back[2], r[9], p[3], k, u;
    uint32_t nq, nv;
    build_pendulum();
    CHECK_STATUS(mbs_tree_counts(&tree, &nq, &nv), MBS_OK);
    CHECK(nq == 2 && nv == 2);
    CHECK_STATUS(mbs_tree_mass_matrix(&tree, q, 2, m, 2), MBS_OK);
    CHECK_STATUS(mbs_tree_bias_forces(&tree, q, 2, v, 2, b), MBS_OK);
    CHECK_STATUS(mbs_tree_aba(&tree, q, 2, v, tau, 2, acc), MBS_OK);
    CHECK(m[1] == m[2]);
    CHECK(fabs(m[0] * acc[0] + m[1] * acc[1] + b[0] - tau[0]) < 1e-12);
    CHECK(fabs(m[2] * acc[0] + m[3] * acc[1] + b[1] - tau[1]) < 1e-12);
    /* The outer joint's diagonal entry: the bar's inertia about its joint, m L^2 / 3. */
    CHECK(fabs(m[3] - 2.0 / 3.0) < 1e-14);
    CHECK_STATUS(mbs_tree_rnea(&tree, q, 2, v, acc, 2, back), MBS_OK);
    CHECK(fabs(back[0] - tau[0]) < 1e-12 && fabs(back[1] - tau[1]) < 1e-12);
    /* An output may be an input. */
    memcpy(back, acc, sizeof back);
    CHECK_STATUS(mbs_tree_rnea(&tree, q, 2, v, back, 2, back), MBS_OK);
    CHECK(fabs(back[0] - tau[0]) < 1e-12);
    /* The second link's frame: at the first bar's tip, turned by q0 + q1. */
    CHECK_STATUS(mbs_tree_link_pose(&tree, q, 2, 1, r, p), MBS_OK);
    CHECK(fabs(p[0] - cos(0.3)) < 1e-15 && fabs(p[1] - sin(0.3)) < 1e-15);
    CHECK(fabs(r[0] - cos(-0.4)) < 1e-15 && fabs(r[3] - sin(-0.4)) < 1e-15);
    CHECK_STATUS(mbs_tree_energy(&tree, q, 2, v, 2, &k, &u), MBS_OK);
    CHECK(fabs(k - 0.5 * (v[0] * (m[0] * v[0] + m[1] * v[1]) + v[1] * (m[2] * v[0] + m[3] * v[1]))) < 1e-13);
}

static void test_step_and_forces(void) {
    double q[2] = {0.3, -0.7}, v[2] = {0, 0};
    const double tau[2] = {0, 0}, f[3] = {0, 2 * 9.81, 0}, at[3] = {0.5, 0, 0};
    double b[2], jac[12];
    const double pt[3] = {1, 0, 0};
    uint32_t sub = 0;
    build_pendulum();
    CHECK_STATUS(mbs_tree_step(&tree, q, 2, v, tau, 2, 1e-3, MBS_TREE_SEMI_IMPLICIT_EULER, &sub), MBS_OK);
    CHECK(sub == 1 && v[0] != 0.0);
    CHECK_STATUS(mbs_tree_step(&tree, q, 2, v, tau, 2, 1e-3, MBS_TREE_RUNGE_KUTTA_4, NULL), MBS_OK);
    /* Forces that carry each bar's weight at its centre of mass leave no bias at rest (the
     * forces are in link coordinates: at q = 0 the links are not turned). */
    {
        const double q0[2] = {0, 0}, v0[2] = {0, 0};
        CHECK_STATUS(mbs_tree_set_link_force(&tree, 0, f, at), MBS_OK);
        CHECK_STATUS(mbs_tree_set_link_force(&tree, 1, f, at), MBS_OK);
        CHECK_STATUS(mbs_tree_bias_forces(&tree, q0, 2, v0, 2, b), MBS_OK);
        CHECK(fabs(b[0]) < 1e-13 && fabs(b[1]) < 1e-13);
        CHECK_STATUS(mbs_tree_clear_link_forces(&tree), MBS_OK);
        CHECK_STATUS(mbs_tree_bias_forces(&tree, q0, 2, v0, 2, b), MBS_OK);
        CHECK(fabs(b[1] - 9.81) < 1e-12); /* m g L/2 = 2 * 9.81 * 0.5 */
        /* The tip of link 1 at q = 0 moves along y at 1 m/s per rad/s of joint 1, 2 of joint 0. */
        CHECK_STATUS(mbs_tree_point_jacobian(&tree, q0, 2, 1, pt, jac, 2), MBS_OK);
        CHECK(fabs(jac[2 * 4 + 0] - 2.0) < 1e-15 && fabs(jac[2 * 4 + 1] - 1.0) < 1e-15);
    }
}

static void test_f32_follows_f64(void) {
    static mbs_tree_f32 t32;
    const float g[3] = {0, -9.81f, 0};
    const float q[2] = {0.3f, -0.7f}, v[2] = {1.1f, -0.4f}, tau[2] = {2.0f, -1.5f};
    const double qd[2] = {0.3f, -0.7f}, vd[2] = {1.1f, -0.4f}, taud[2] = {2.0f, -1.5f};
    float acc[2];
    double accd[2];
    uint32_t i, k;
    build_pendulum();
    CHECK_STATUS(mbs_tree_init_f32(&t32, g), MBS_OK);
    for (k = 0; k < 2; k++) {
        mbs_tree_link d = bar(k == 0 ? MBS_NO_INDEX : 0, k == 0 ? 0.0 : 1.0);
        mbs_tree_link_f32 l;
        memset(&l, 0, sizeof l);
        l.parent = d.parent, l.joint = d.joint, l.mass = (float)d.mass;
        for (i = 0; i < 3; i++)
            l.axis[i] = (float)d.axis[i], l.position[i] = (float)d.position[i], l.com[i] = (float)d.com[i];
        for (i = 0; i < 9; i++) l.rotation[i] = (float)d.rotation[i], l.inertia[i] = (float)d.inertia[i];
        CHECK_STATUS(mbs_tree_add_link_f32(&t32, &l, &i), MBS_OK);
    }
    CHECK_STATUS(mbs_tree_aba_f32(&t32, q, 2, v, tau, 2, acc), MBS_OK);
    CHECK_STATUS(mbs_tree_aba(&tree, qd, 2, vd, taud, 2, accd), MBS_OK);
    CHECK(fabs(acc[0] - accd[0]) < 1e-4 * fabs(accd[0]) && fabs(acc[1] - accd[1]) < 1e-4 * fabs(accd[1]));
    CHECK_STATUS(mbs_tree_aba_f32(&t32, q, 3, v, tau, 2, acc), MBS_ERR_INVALID_COORDINATE);
    CHECK_STATUS(mbs_tree_deinit_f32(&t32), MBS_OK);
    CHECK_STATUS(mbs_tree_aba_f32(&t32, q, 2, v, tau, 2, acc), MBS_ERR_NOT_INITIALIZED);
}

static void test_refusals(void) {
    static _Alignas(8) unsigned char raw[sizeof(mbs_tree) + 8];
    static mbs_tree blank;
    const double nan3[3] = {NAN, 0, 0};
    const double q[2] = {0.3, -0.7}, v[2] = {1.1, -0.4}, tau[2] = {2.0, -1.5};
    const double qnan[2] = {NAN, 0}, vinf[2] = {0, INFINITY};
    double out[2], m[4], r[9], p[3], k, u;
    uint32_t index, i;
    mbs_tree_link l;

    /* Storage. */
    CHECK_STATUS(mbs_tree_init(NULL, G), MBS_ERR_NULL_POINTER);
    CHECK_STATUS(mbs_tree_init((mbs_tree *)(void *)(raw + 4), G), MBS_ERR_STORAGE);
    CHECK_STATUS(mbs_tree_init(&blank, NULL), MBS_ERR_NULL_POINTER);
    CHECK_STATUS(mbs_tree_init(&blank, nan3), MBS_ERR_NOT_FINITE);
    POISON(out);
    CHECK_STATUS(mbs_tree_aba(&blank, q, 2, v, tau, 2, out), MBS_ERR_NOT_INITIALIZED);
    CHECK(UNTOUCHED(out));

    build_pendulum();
    /* Links. */
    l = bar(0, 1);
    POISON(index);
    REFUSE(mbs_tree_add_link(&tree, NULL, &index), MBS_ERR_NULL_POINTER);
    REFUSE(mbs_tree_add_link(&tree, &l, NULL), MBS_ERR_NULL_POINTER);
    l.parent = 2;
    REFUSE(mbs_tree_add_link(&tree, &l, &index), MBS_ERR_UNKNOWN_INDEX);
    l = bar(0, 1), l.joint = 9;
    REFUSE(mbs_tree_add_link(&tree, &l, &index), MBS_ERR_INVALID_ARGUMENT);
    l = bar(0, 1), l.axis[2] = 0;
    REFUSE(mbs_tree_add_link(&tree, &l, &index), MBS_ERR_INVALID_DIRECTION);
    l = bar(0, 1), l.axis[0] = NAN;
    REFUSE(mbs_tree_add_link(&tree, &l, &index), MBS_ERR_NOT_FINITE);
    l = bar(0, 1), l.rotation[1] = 0.1;
    REFUSE(mbs_tree_add_link(&tree, &l, &index), MBS_ERR_INVALID_ORIENTATION);
    l = bar(0, 1), l.rotation[8] = -1;
    REFUSE(mbs_tree_add_link(&tree, &l, &index), MBS_ERR_INVALID_ORIENTATION);
    l = bar(0, 1), l.mass = 0;
    REFUSE(mbs_tree_add_link(&tree, &l, &index), MBS_ERR_INVALID_MASS);
    l = bar(0, 1), l.mass = -2;
    REFUSE(mbs_tree_add_link(&tree, &l, &index), MBS_ERR_INVALID_MASS);
    l = bar(0, 1), l.inertia[0] = 0; /* a thin rod: not positive definite */
    REFUSE(mbs_tree_add_link(&tree, &l, &index), MBS_ERR_INVALID_INERTIA);
    l = bar(0, 1), l.inertia[1] = 0.05; /* not symmetric */
    REFUSE(mbs_tree_add_link(&tree, &l, &index), MBS_ERR_INVALID_INERTIA);
    CHECK(UNTOUCHED(index));
    /* Capacity: MBS_TREE_MAX_LINKS links. */
    for (i = 2; i < MBS_TREE_MAX_LINKS; i++) {
        l = bar(i - 1, 1);
        CHECK_STATUS(mbs_tree_add_link(&tree, &l, &index), MBS_OK);
    }
    l = bar(0, 1);
    REFUSE(mbs_tree_add_link(&tree, &l, &index), MBS_ERR_CAPACITY_FULL);

    /* Springs. */
    build_pendulum();
    REFUSE(mbs_tree_set_joint_spring(&tree, 5, 1, 1, 0, 0), MBS_ERR_UNKNOWN_INDEX);
    REFUSE(mbs_tree_set_joint_spring(&tree, 0, 1, -1, 0, 0), MBS_ERR_INVALID_STIFFNESS_DAMPING);
    REFUSE(mbs_tree_set_joint_spring(&tree, 0, NAN, 1, 0, 0), MBS_ERR_NOT_FINITE);

    /* Vectors: NULL, lengths, NaN/inf. */
    POISON(out);
    POISON(m);
    REFUSE(mbs_tree_aba(&tree, NULL, 2, v, tau, 2, out), MBS_ERR_NULL_POINTER);
    REFUSE(mbs_tree_aba(&tree, q, 2, v, tau, 2, NULL), MBS_ERR_NULL_POINTER);
    REFUSE(mbs_tree_aba(&tree, q, 1, v, tau, 2, out), MBS_ERR_INVALID_COORDINATE);
    REFUSE(mbs_tree_aba(&tree, q, 2, v, tau, 3, out), MBS_ERR_INVALID_COORDINATE);
    REFUSE(mbs_tree_aba(&tree, q, 1000, v, tau, 2, out), MBS_ERR_INVALID_COORDINATE);
    REFUSE(mbs_tree_aba(&tree, qnan, 2, v, tau, 2, out), MBS_ERR_NOT_FINITE);
    REFUSE(mbs_tree_aba(&tree, q, 2, vinf, tau, 2, out), MBS_ERR_NOT_FINITE);
    REFUSE(mbs_tree_aba(&tree, q, 2, v, qnan, 2, out), MBS_ERR_NOT_FINITE);
    REFUSE(mbs_tree_rnea(&tree, q, 2, v, qnan, 2, out), MBS_ERR_NOT_FINITE);
    REFUSE(mbs_tree_bias_forces(&tree, q, 2, v, 1, out), MBS_ERR_INVALID_COORDINATE);
    REFUSE(mbs_tree_mass_matrix(&tree, q, 2, m, 1), MBS_ERR_INVALID_COORDINATE);
    REFUSE(mbs_tree_mass_matrix(&tree, qnan, 2, m, 2), MBS_ERR_NOT_FINITE);
    CHECK(UNTOUCHED(out) && UNTOUCHED(m));
    POISON(r);
    POISON(p);
    REFUSE(mbs_tree_link_pose(&tree, q, 2, 2, r, p), MBS_ERR_UNKNOWN_INDEX);
    REFUSE(mbs_tree_link_pose(&tree, q, 2, 0, NULL, p), MBS_ERR_NULL_POINTER);
    CHECK(UNTOUCHED(r) && UNTOUCHED(p));
    POISON(k);
    POISON(u);
    REFUSE(mbs_tree_energy(&tree, q, 2, vinf, 2, &k, &u), MBS_ERR_NOT_FINITE);
    CHECK(UNTOUCHED(k) && UNTOUCHED(u));
    REFUSE(mbs_tree_set_link_force(&tree, 2, G, G), MBS_ERR_UNKNOWN_INDEX);
    REFUSE(mbs_tree_set_link_force(&tree, 0, nan3, G), MBS_ERR_NOT_FINITE);

    /* Steps: q and v untouched. */
    {
        double qs[2] = {0.3, -0.7}, vs[2] = {1.1, -0.4};
        uint32_t sub;
        POISON(sub);
        REFUSE(mbs_tree_step(&tree, qs, 2, vs, tau, 2, 0.0, MBS_TREE_RUNGE_KUTTA_4, &sub), MBS_ERR_INVALID_TIME_STEP);
        REFUSE(mbs_tree_step(&tree, qs, 2, vs, tau, 2, NAN, MBS_TREE_RUNGE_KUTTA_4, &sub), MBS_ERR_NOT_FINITE);
        REFUSE(mbs_tree_step(&tree, qs, 2, vs, tau, 2, 1e-3, 7, &sub), MBS_ERR_INVALID_SETTING);
        REFUSE(mbs_tree_step(&tree, qs, 2, vs, qnan, 2, 1e-3, 0, &sub), MBS_ERR_NOT_FINITE);
        vs[0] = 1e9; /* needs more than 64 sub-steps */
        REFUSE(mbs_tree_step(&tree, qs, 2, vs, tau, 2, 1e-3, 0, &sub), MBS_ERR_INVALID_VELOCITY);
        CHECK(qs[0] == 0.3 && qs[1] == -0.7 && vs[0] == 1e9 && vs[1] == -0.4 && UNTOUCHED(sub));
    }

    /* A spherical joint: a zero quaternion; no stiffness on it. */
    {
        const double zero_q[4] = {0, 0, 0, 0}, w[3] = {0, 0, 0}, t3[3] = {0, 0, 0};
        double a3[3];
        l = bar(MBS_NO_INDEX, 0), l.joint = MBS_JOINT_SPHERICAL;
        CHECK_STATUS(mbs_tree_init(&tree, G), MBS_OK);
        CHECK_STATUS(mbs_tree_add_link(&tree, &l, &index), MBS_OK);
        POISON(a3);
        REFUSE(mbs_tree_aba(&tree, zero_q, 4, w, t3, 3, a3), MBS_ERR_INVALID_ORIENTATION);
        CHECK(UNTOUCHED(a3));
        REFUSE(mbs_tree_set_joint_spring(&tree, 0, 1, 0, 0, 0), MBS_ERR_INVALID_STIFFNESS_DAMPING);
        CHECK_STATUS(mbs_tree_set_joint_spring(&tree, 0, 0, 0.1, 0, 0), MBS_OK);
    }

    /* With the tag but another layout (the header's second word): refused. */
    {
        const uint64_t layout = tree._opaque[1];
        tree._opaque[1] = layout ^ 0x10000u;
        REFUSE(mbs_tree_aba(&tree, q, 2, v, tau, 2, out), MBS_ERR_STORAGE);
        tree._opaque[1] = layout;
    }
    /* After deinit. */
    CHECK_STATUS(mbs_tree_deinit(&tree), MBS_OK);
    REFUSE(mbs_tree_aba(&tree, q, 2, v, tau, 2, out), MBS_ERR_NOT_INITIALIZED);
    REFUSE(mbs_tree_deinit(&tree), MBS_ERR_NOT_INITIALIZED);
}

/* A four-bar (crank 0.1 m, coupler 0.4 m, rocker 0.3 m, ground 0.35 m; the chain's third link
 * tip held on the ground pivot in x and y) stepped through the C API: the rocker follows the
 * closed form (the two circles' intersection) from the crank angle. */
static double closed_form_rocker(double t2, double *coupler_rel) {
    const double A = 0.1, B = 0.4, C = 0.3, D = 0.35;
    double ax = A * cos(t2), ay = A * sin(t2), dx = D - ax, dy = -ay;
    double dist = sqrt(dx * dx + dy * dy), along = (B * B - C * C + dist * dist) / (2 * dist);
    double h = sqrt(B * B - along * along), ux = dx / dist, uy = dy / dist;
    double bx = ax + along * ux - h * uy, by = ay + along * uy + h * ux;
    double t3 = atan2(by - ay, bx - ax), t4 = atan2(-by, D - bx);
    *coupler_rel = t3 - t2;
    return t4 - t3;
}

static double wrapped(double x) { return atan2(sin(x), cos(x)); }

/* The four-bar's open chain (crank 0.1 m, coupler 0.4 m, rocker 0.3 m steel bars on revolute z
 * joints) in `tree`. */
static void build_four_bar(void) {
    const double len[3] = {0.1, 0.4, 0.3};
    uint32_t i, index;
    CHECK_STATUS(mbs_tree_init(&tree, G), MBS_OK);
    for (i = 0; i < 3; i++) {
        mbs_tree_link l = bar(i == 0 ? MBS_NO_INDEX : i - 1, i == 0 ? 0 : len[i - 1]);
        l.mass = 7800 * 0.02 * 0.02 * len[i];
        l.com[0] = len[i] / 2;
        l.inertia[0] = l.mass * 0.0008 / 12, l.inertia[4] = l.inertia[8] = l.mass * len[i] * len[i] / 12;
        CHECK_STATUS(mbs_tree_add_link(&tree, &l, &index), MBS_OK);
    }
}

/* The rocker tip held on the ground pivot (0.35, 0, 0) in x and y. */
static mbs_tree_loop four_bar_loop(void) {
    mbs_tree_loop lp;
    memset(&lp, 0, sizeof lp);
    lp.link_a = 2, lp.point_a[0] = 0.3, lp.link_b = MBS_NO_INDEX, lp.point_b[0] = 0.35;
    lp.axes[0] = lp.axes[1] = 1;
    return lp;
}

static void test_four_bar_loop(void) {
    double q[3], v[3] = {5, 0, 0}, f[2], rel, worst = 0;
    uint32_t i, index, rows;
    mbs_tree_loop lp = four_bar_loop();
    build_four_bar();
    /* Refusals first: nothing added. */
    lp.link_a = 3;
    REFUSE(mbs_tree_add_loop(&tree, &lp, &index), MBS_ERR_UNKNOWN_INDEX);
    lp.link_a = 2, lp.axes[2] = 2;
    REFUSE(mbs_tree_add_loop(&tree, &lp, &index), MBS_ERR_INVALID_ARGUMENT);
    lp.axes[2] = 0, lp.point_a[1] = NAN;
    REFUSE(mbs_tree_add_loop(&tree, &lp, &index), MBS_ERR_NOT_FINITE);
    lp.point_a[1] = 0;
    memset(lp.axes, 0, sizeof lp.axes);
    REFUSE(mbs_tree_add_loop(&tree, &lp, &index), MBS_ERR_INVALID_COORDINATE);
    lp.axes[0] = lp.axes[1] = 1;
    REFUSE(mbs_tree_add_loop(&tree, &lp, NULL), MBS_ERR_NULL_POINTER);
    CHECK_STATUS(mbs_tree_add_loop(&tree, &lp, &index), MBS_OK);
    CHECK(index == 0);
    CHECK_STATUS(mbs_tree_loop_forces(&tree, f, 2, &rows), MBS_OK);
    CHECK(rows == 0);
    /* A start near the loop, projected onto it. */
    q[0] = 1.0;
    q[2] = closed_form_rocker(1.0, &rel) + 0.01;
    q[1] = rel - 0.01;
    CHECK_STATUS(mbs_tree_project_loops(&tree, q, 3, v, 3), MBS_OK);
    /* Huge velocities: a finite projection, or, when the arithmetic overflows, a refusal
     * that says so (not singular loops) with q, v and the storage untouched; never a
     * non-finite result. */
    {
        const double huge[3] = {DBL_MAX, 1e300, -DBL_MAX};
        double q2[3], v2[3];
        int refused = 0;
        for (i = 0; i < 9; i++) {
            mbs_status s;
            memcpy(q2, q, sizeof q);
            memset(v2, 0, sizeof v2);
            v2[i % 3] = huge[i / 3];
            STORAGE_COPY(before, tree);
            s = mbs_tree_project_loops(&tree, q2, 3, v2, 3);
            if (s == MBS_OK) {
                CHECK(isfinite(v2[0]) && isfinite(v2[1]) && isfinite(v2[2]));
            } else {
                refused++;
                CHECK_STATUS(s, MBS_ERR_NON_FINITE_STATE);
                CHECK(STORAGE_SAME(before, tree));
                CHECK(memcmp(q2, q, sizeof q) == 0 && v2[i % 3] == huge[i / 3]);
            }
        }
        CHECK(refused > 0);
    }
    for (i = 0; i < 1000; i++) {
        const double tau[3] = {0, 0, 0};
        double rocker;
        CHECK_STATUS(mbs_tree_step(&tree, q, 3, v, tau, 3, 1e-3, MBS_TREE_RUNGE_KUTTA_4, NULL), MBS_OK);
        rocker = closed_form_rocker(q[0], &rel);
        worst = fmax(worst, fmax(fabs(wrapped(q[1] - rel)), fabs(wrapped(q[2] - rocker))));
    }
    CHECK(worst < 1e-8);
    CHECK_STATUS(mbs_tree_loop_forces(&tree, f, 2, &rows), MBS_OK);
    CHECK(rows == 2 && isfinite(f[0]) && isfinite(f[1]));
    CHECK_STATUS(mbs_tree_loop_forces(&tree, f, 1, &rows), MBS_ERR_INVALID_COORDINATE);
    /* A redundant row (z of a planar loop) is singular: the step is refused, q and v kept. */
    lp.axes[2] = 1;
    CHECK_STATUS(mbs_tree_add_loop(&tree, &lp, &index), MBS_OK);
    {
        double q2[3], v2[3];
        const double tau[3] = {0, 0, 0};
        memcpy(q2, q, sizeof q), memcpy(v2, v, sizeof v);
        CHECK_STATUS(mbs_tree_step(&tree, q2, 3, v2, tau, 3, 1e-3, 0, NULL), MBS_ERR_SINGULAR_MATRIX);
        CHECK(memcmp(q2, q, sizeof q) == 0 && memcmp(v2, v, sizeof v) == 0);
    }
}

/* The same four-bar as a tree in a system, its loop carried into the system as a joint (a
 * generic joint from a ground object holding x and y): it follows the closed form; the tree's
 * calls refuse what they must. */
static void test_tree_in_system(void) {
    static mbs_system sys, snapshot;
    double q[3], v[3] = {5, 0, 0}, a[3], rel, worst = 0;
    uint32_t i, first, rocker;
    mbs_system_settings st;
    mbs_system_counts counts;
    mbs_tree_loop lp = four_bar_loop();
    build_four_bar();
    /* Consistent start values from the tree's own loop projection. */
    CHECK_STATUS(mbs_tree_add_loop(&tree, &lp, &i), MBS_OK);
    q[0] = 1.0, q[2] = closed_form_rocker(1.0, &rel), q[1] = rel;
    CHECK_STATUS(mbs_tree_project_loops(&tree, q, 3, v, 3), MBS_OK);
    CHECK_STATUS(mbs_system_init(&sys), MBS_OK);
    CHECK_STATUS(mbs_system_settings_default(&st), MBS_OK);
    st.scheme = MBS_SYSTEM_SCHEME_GENERALIZED_ALPHA;
    CHECK_STATUS(mbs_system_set_settings(&sys, &st), MBS_OK);
    /* Refusals: nothing added. */
    STORAGE_COPY(snapshot, sys);
    CHECK_STATUS(mbs_system_add_kinematic_tree(&sys, &tree, q, 2, v, 3, &first), MBS_ERR_INVALID_COORDINATE);
    CHECK_STATUS(mbs_system_add_kinematic_tree(&sys, &tree, q, 3, v, 3, NULL), MBS_ERR_NULL_POINTER);
    CHECK_STATUS(mbs_system_add_kinematic_tree(&sys, NULL, q, 3, v, 3, &first), MBS_ERR_NULL_POINTER);
    CHECK_STATUS(mbs_system_tree_state(&sys, q, v, a, 3), MBS_ERR_UNKNOWN_INDEX);
    CHECK(STORAGE_SAME(snapshot, sys));
    CHECK_STATUS(mbs_system_add_kinematic_tree(&sys, &tree, q, 3, v, 3, &first), MBS_OK);
    CHECK(first == 0);
    STORAGE_COPY(snapshot, sys);
    CHECK_STATUS(mbs_system_add_kinematic_tree(&sys, &tree, q, 3, v, 3, &first), MBS_ERR_CAPACITY_FULL);
    CHECK_STATUS(mbs_system_tree_link_object(&sys, 3, &rocker), MBS_ERR_UNKNOWN_INDEX);
    CHECK_STATUS(mbs_system_tree_state(&sys, q, v, a, 2), MBS_ERR_INVALID_COORDINATE);
    CHECK(STORAGE_SAME(snapshot, sys));
    CHECK_STATUS(mbs_system_tree_link_object(&sys, 2, &rocker), MBS_OK);
    CHECK(rocker == first + 2);
    /* The loop's joint: the ground object after the links', its two markers, one constraint. */
    CHECK_STATUS(mbs_system_get_counts(&sys, &counts), MBS_OK);
    CHECK(counts.objects == 4 && counts.markers == 2 && counts.constraints == 1);
    CHECK_STATUS(mbs_system_assemble(&sys, NULL), MBS_OK);
    for (i = 0; i < 1000; i++) {
        double rocker_angle;
        CHECK_STATUS(mbs_system_step(&sys, 1e-3, NULL, NULL), MBS_OK);
        CHECK_STATUS(mbs_system_tree_state(&sys, q, v, a, 3), MBS_OK);
        rocker_angle = closed_form_rocker(q[0], &rel);
        worst = fmax(worst, fmax(fabs(wrapped(q[1] - rel)), fabs(wrapped(q[2] - rocker_angle))));
    }
    CHECK(worst < 1e-8);
    /* A solve starts from the tree's initial state whatever steps came before it: the same
     * bits as a solve after a reset. */
    {
        mbs_simulation_settings sim;
        double q1[3], v1[3], a1[3];
        CHECK_STATUS(mbs_simulation_settings_default(&sim), MBS_OK);
        sim.number_of_steps = 50, sim.end_time = 0.05;
        CHECK_STATUS(mbs_system_solve_dynamic(&sys, &sim, NULL, NULL), MBS_OK);
        CHECK_STATUS(mbs_system_tree_state(&sys, q1, v1, a1, 3), MBS_OK);
        CHECK_STATUS(mbs_system_reset(&sys), MBS_OK);
        CHECK_STATUS(mbs_system_solve_dynamic(&sys, &sim, NULL, NULL), MBS_OK);
        CHECK_STATUS(mbs_system_tree_state(&sys, q, v, a, 3), MBS_OK);
        CHECK(memcmp(q, q1, sizeof q) == 0 && memcmp(v, v1, sizeof v) == 0);
    }
    /* Joint forces and joint set points: checked, then held until changed. */
    {
        const double tau[3] = {0.1, 0, 0}, bad[3] = {0, INFINITY, 0};
        STORAGE_COPY(snapshot, sys);
        CHECK_STATUS(mbs_system_set_tree_joint_forces(&sys, tau, 2), MBS_ERR_INVALID_COORDINATE);
        CHECK_STATUS(mbs_system_set_tree_joint_forces(&sys, bad, 3), MBS_ERR_NOT_FINITE);
        CHECK_STATUS(mbs_system_set_tree_joint_forces(&sys, NULL, 3), MBS_ERR_NULL_POINTER);
        CHECK_STATUS(mbs_system_set_tree_joint_spring(&sys, 3, 1, 1, 0, 0), MBS_ERR_UNKNOWN_INDEX);
        CHECK_STATUS(mbs_system_set_tree_joint_spring(&sys, 0, -1, 1, 0, 0), MBS_ERR_INVALID_STIFFNESS_DAMPING);
        CHECK_STATUS(mbs_system_set_tree_joint_spring(&sys, 0, 1, NAN, 0, 0), MBS_ERR_NOT_FINITE);
        CHECK(STORAGE_SAME(snapshot, sys));
        CHECK_STATUS(mbs_system_set_tree_joint_forces(&sys, tau, 3), MBS_OK);
        CHECK_STATUS(mbs_system_set_tree_joint_spring(&sys, 0, 1, 0.1, 0.5, 0), MBS_OK);
        CHECK_STATUS(mbs_system_step(&sys, 1e-3, NULL, NULL), MBS_OK);
    }
    /* Setting the state: checked lengths and values, then the links follow. */
    {
        const double bad[3] = {NAN, 0, 0};
        STORAGE_COPY(snapshot, sys);
        CHECK_STATUS(mbs_system_set_tree_state(&sys, bad, v, 3), MBS_ERR_NOT_FINITE);
        CHECK_STATUS(mbs_system_set_tree_state(&sys, q, v, 4), MBS_ERR_INVALID_COORDINATE);
        CHECK(STORAGE_SAME(snapshot, sys));
        CHECK_STATUS(mbs_system_set_tree_state(&sys, q, v, 3), MBS_OK);
    }
    /* A refused step changes no byte, also one that computed start values first (the state
     * was set: the step starts, then its Newton iteration fails). */
    {
        const double angles[2] = {1e15, 1e300};
        double huge[3];
        for (i = 0; i < 2; i++) {
            memcpy(huge, q, sizeof q);
            huge[0] = angles[i];
            CHECK_STATUS(mbs_system_set_tree_state(&sys, huge, v, 3), MBS_OK);
            STORAGE_COPY(snapshot, sys);
            CHECK_STATUS(mbs_system_step(&sys, 1e-3, NULL, NULL), MBS_ERR_CONSTRAINT_VIOLATED);
            CHECK(STORAGE_SAME(snapshot, sys));
        }
        CHECK_STATUS(mbs_system_set_tree_state(&sys, q, v, 3), MBS_OK);
        CHECK_STATUS(mbs_system_step(&sys, 1e-3, NULL, NULL), MBS_OK);
    }
    CHECK_STATUS(mbs_system_deinit(&sys), MBS_OK);
    /* A loop between two links that holds only some world axes has no joint in the system:
     * refused, nothing added. */
    build_four_bar();
    lp.link_b = 0, lp.axes[1] = 0;
    CHECK_STATUS(mbs_tree_add_loop(&tree, &lp, &i), MBS_OK);
    CHECK_STATUS(mbs_system_init(&sys), MBS_OK);
    STORAGE_COPY(snapshot, sys);
    CHECK_STATUS(mbs_system_add_kinematic_tree(&sys, &tree, q, 3, v, 3, &first),
                 MBS_ERR_NOT_SUPPORTED_BY_SCHEME);
    CHECK(STORAGE_SAME(snapshot, sys));
    CHECK_STATUS(mbs_system_deinit(&sys), MBS_OK);
}

/* The two-link pendulum as a tree in a system with no joint: a step from a set state first
 * computes start values; a step refused after that (its result not finite) changes no byte,
 * the start included. */
static void test_refused_step_after_a_start(void) {
    static mbs_system sys, snapshot;
    const double angles[2] = {1e15, 1e300}, v[2] = {0, 0};
    double q[2] = {0.3, 0.2}, qs[2], vs[2], as[2];
    uint32_t i, first;
    mbs_system_settings st;
    build_pendulum();
    CHECK_STATUS(mbs_system_init(&sys), MBS_OK);
    CHECK_STATUS(mbs_system_settings_default(&st), MBS_OK);
    st.scheme = MBS_SYSTEM_SCHEME_GENERALIZED_ALPHA;
    CHECK_STATUS(mbs_system_set_settings(&sys, &st), MBS_OK);
    CHECK_STATUS(mbs_system_add_kinematic_tree(&sys, &tree, q, 2, v, 2, &first), MBS_OK);
    CHECK_STATUS(mbs_system_assemble(&sys, NULL), MBS_OK);
    CHECK_STATUS(mbs_system_step(&sys, 1e-3, NULL, NULL), MBS_OK);
    for (i = 0; i < 2; i++) {
        q[0] = angles[i];
        CHECK_STATUS(mbs_system_set_tree_state(&sys, q, v, 2), MBS_OK);
        STORAGE_COPY(snapshot, sys);
        CHECK_STATUS(mbs_system_step(&sys, 1e100, NULL, NULL), MBS_ERR_NON_FINITE_STATE);
        CHECK(STORAGE_SAME(snapshot, sys));
        CHECK_STATUS(mbs_system_tree_state(&sys, qs, vs, as, 2), MBS_OK);
        CHECK(qs[0] == angles[i]);
    }
    /* A finite step too long for the state: its result overflows (not a bad argument). */
    q[0] = 0.3;
    CHECK_STATUS(mbs_system_set_tree_state(&sys, q, v, 2), MBS_OK);
    CHECK_STATUS(mbs_system_step(&sys, 1e-3, NULL, NULL), MBS_OK);
    STORAGE_COPY(snapshot, sys);
    CHECK_STATUS(mbs_system_step(&sys, 1e100, NULL, NULL), MBS_ERR_NON_FINITE_STATE);
    CHECK(STORAGE_SAME(snapshot, sys));
    CHECK_STATUS(mbs_system_deinit(&sys), MBS_OK);
}

int main(void) {
    test_refused_step_after_a_start();
    test_dynamics_agree();
    test_four_bar_loop();
    test_tree_in_system();
    test_step_and_forces();
    test_f32_follows_f64();
    test_refusals();
    printf("test_tree: %d failures\n", failures);
    return failures != 0;
}
