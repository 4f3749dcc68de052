/* Computed-torque control of a 6-DOF robot arm with mbs's kinematic tree, through the C API.
 *
 * The arm is a UR5-like chain of six revolute joints (link lengths and masses of the UR5,
 * inertia tensors with products of inertia, gravity -z): the arm of the firmware and the
 * benchmarks (firmware/rust/src/arm.rs). Two trees are built from the same numbers: the
 * controller's model and the plant.
 *
 * Controller, at 1 kHz, the joint torques held over each period:
 *   tau = RNEA(q, v, q_tt_d + Kp (q_d - q) + Kd (v_d - v))       (inverse dynamics)
 * which makes the error obey e'' + Kd e' + Kp e = 0 (critically damped, 20 rad/s).
 * Plant: the tree stepped by mbs_tree_step (ABA, RK4, 1 ms), started 0.05 rad off the path.
 * The path: q_d(t) = q0 + 0.4 sin(pi t + phase_i), 4 s.
 *
 * Prints the tracking error at the start, after 1 s and over the last 2 s, the largest torque,
 * and a check of ABA against RNEA at the final state. Exits non-zero if the arm does not
 * track. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "mbs.h"

#define N 6

static const double AXIS[N][3] = {{0, 0, 1}, {0, 1, 0}, {0, 1, 0}, {0, 1, 0}, {0, 0, 1}, {0, 1, 0}};
static const double OFFSET[N][3] = {{0, 0, 0.089159}, {0, 0.13585, 0}, {0, -0.1197, 0.425},
                                    {0, 0, 0.39225},  {0, 0.093, 0},   {0, 0, 0.09465}};
/* Joints 2 and 4 turned by +90 degrees about y in their parent (rotation vectors (0, pi/2, 0)). */
static const int TURNED[N] = {0, 1, 0, 1, 0, 0};
static const double MASS[N] = {3.7, 8.393, 2.275, 1.219, 1.219, 0.1879};
static const double COM[N][3] = {{0, -0.02, 0}, {0, 0, 0.28}, {0, 0, 0.25},
                                 {0, 0.01, 0},  {0, 0, 0.01}, {0, 0, -0.01}};
/* ixx, iyy, izz, ixy, ixz, iyz about the centre of mass (kg m^2). */
static const double INERTIA[N][6] = {
    {0.0103, 0.0103, 0.0067, 0.0001, 0.0, 0.0002}, {0.2269, 0.2269, 0.0151, 0.0, 0.001, 0.0},
    {0.0494, 0.0494, 0.0041, 0.0002, 0.0, 0.0},    {0.00212, 0.00212, 0.00365, 0.0001, 0.0, 0.0},
    {0.00212, 0.00212, 0.00365, 0.0, 0.0001, 0.0}, {0.0001, 0.0001, 0.00013, 0.0, 0.0, 0.0}};

static int ok(mbs_status s, const char *what) {
    if (s != MBS_OK) printf("%s failed: %s\n", what, mbs_status_str(s));
    return s == MBS_OK;
}

static int build(mbs_tree *tree) {
    const double gravity[3] = {0.0, 0.0, -9.81};
    uint32_t i, index;
    if (!ok(mbs_tree_init(tree, gravity), "mbs_tree_init")) return 0;
    for (i = 0; i < N; i++) {
        mbs_tree_link l;
        const double *in = INERTIA[i];
        const double identity[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
        const double about_y[9] = {0, 0, 1, 0, 1, 0, -1, 0, 0}; /* +90 degrees about y */
        const double inertia[9] = {in[0], in[3], in[4], in[3], in[1], in[5], in[4], in[5], in[2]};
        memset(&l, 0, sizeof l);
        l.parent = i == 0 ? MBS_NO_INDEX : i - 1;
        l.joint = MBS_JOINT_REVOLUTE;
        memcpy(l.axis, AXIS[i], sizeof l.axis);
        memcpy(l.rotation, TURNED[i] ? about_y : identity, sizeof l.rotation);
        memcpy(l.position, OFFSET[i], sizeof l.position);
        l.mass = MASS[i];
        memcpy(l.com, COM[i], sizeof l.com);
        memcpy(l.inertia, inertia, sizeof l.inertia);
        if (!ok(mbs_tree_add_link(tree, &l, &index), "mbs_tree_add_link")) return 0;
    }
    return 1;
}

/* The desired path and its derivatives at time t. */
static void path(double t, double *q, double *v, double *a) {
    const double q0[N] = {0.3, -1.2, 1.4, -0.6, 0.9, 0.2};
    const double w = 3.14159265358979323846;
    int i;
    for (i = 0; i < N; i++) {
        double ph = 0.7 * i;
        q[i] = q0[i] + 0.4 * sin(w * t + ph);
        v[i] = 0.4 * w * cos(w * t + ph);
        a[i] = -0.4 * w * w * sin(w * t + ph);
    }
}

static double max_abs_diff(const double *a, const double *b) {
    double m = 0.0;
    int i;
    for (i = 0; i < N; i++) m = fmax(m, fabs(a[i] - b[i]));
    return m;
}

int main(void) {
    static mbs_tree model, plant; /* 2 x MBS_TREE_SIZE bytes, no malloc */
    const double h = 1e-3, kp = 400.0, kd = 40.0;
    const int steps = 4000;
    double q[N], v[N], qd[N], vd[N], ad[N], cmd[N], tau[N], acc[N], back[N];
    double err0, err1 = 0.0, err_late = 0.0, tau_max = 0.0, ke, pe;
    uint32_t nq, nv;
    int k, i;

    if (!build(&model) || !build(&plant)) return 1;
    if (!ok(mbs_tree_counts(&plant, &nq, &nv), "mbs_tree_counts")) return 1;
    path(0.0, qd, vd, ad);
    for (i = 0; i < N; i++) {
        q[i] = qd[i] + 0.05;
        v[i] = vd[i];
    }
    err0 = max_abs_diff(q, qd);
    for (k = 0; k < steps; k++) {
        double t = k * h;
        path(t, qd, vd, ad);
        for (i = 0; i < N; i++) cmd[i] = ad[i] + kp * (qd[i] - q[i]) + kd * (vd[i] - v[i]);
        /* The controller: inverse dynamics of its model. */
        if (!ok(mbs_tree_rnea(&model, q, N, v, cmd, N, tau), "mbs_tree_rnea")) return 1;
        for (i = 0; i < N; i++) tau_max = fmax(tau_max, fabs(tau[i]));
        /* The plant: one RK4 step of forward dynamics under the held torques. */
        if (!ok(mbs_tree_step(&plant, q, N, v, tau, N, h, MBS_TREE_RUNGE_KUTTA_4, NULL),
                "mbs_tree_step"))
            return 1;
        path(t + h, qd, vd, ad);
        if (k + 1 == 1000) err1 = max_abs_diff(q, qd);
        if (k + 1 >= 2000) err_late = fmax(err_late, max_abs_diff(q, qd));
    }
    /* ABA and RNEA are inverse to each other: RNEA(q, v, ABA(q, v, tau)) = tau. */
    if (!ok(mbs_tree_aba(&plant, q, N, v, tau, N, acc), "mbs_tree_aba") ||
        !ok(mbs_tree_rnea(&plant, q, N, v, acc, N, back), "mbs_tree_rnea") ||
        !ok(mbs_tree_energy(&plant, q, N, v, N, &ke, &pe), "mbs_tree_energy"))
        return 1;
    printf("computed-torque control of a 6-DOF arm (%u joints, RNEA in the controller, ABA + RK4 "
           "in the plant, 1 kHz, 4 s)\n", (unsigned)nv);
    printf("tracking error at start = %.3e rad\n", err0);
    printf("tracking error after 1 s = %.3e rad\n", err1);
    printf("tracking error over the last 2 s = %.3e rad\n", err_late);
    printf("largest joint torque = %.2f N m\n", tau_max);
    printf("final kinetic energy = %.4f J, potential energy = %.4f J\n", ke, pe);
    printf("RNEA(ABA(tau)) - tau = %.3e N m\n", max_abs_diff(back, tau));
    mbs_tree_deinit(&model);
    mbs_tree_deinit(&plant);
    /* The held torques track to the step's order: well below a milliradian. */
    return (err_late < 1e-3 && err1 < err0 && max_abs_diff(back, tau) < 1e-9) ? 0 : 1;
}
