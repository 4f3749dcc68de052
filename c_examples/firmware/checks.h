/* What both C firmwares (main.c: the whole C API; loop.c: a control loop's calls) check and
 * print: the symmetric top's closed form for the spinning cylinder, the `result` line that
 * tests/firmware_qemu.rs parses, and the hashes of the states (FNV-1a over the bits, compared
 * with the same C API calls made on x86_64). The checks compute in double with their own
 * sin/cos/sqrt (no libm: the firmware's flash figures are libmbs.a's). */
#ifndef MBS_FW_CHECKS_H
#define MBS_FW_CHECKS_H

#include <stdint.h>

#include "fnv.h"

/* The spinning cylinder of both firmwares: 1000 midpoint steps of 1 ms, error tolerance. */
#define CYL_STEPS 1000u
#define CYL_DT 1e-3 /* s */
#define CYL_TOL 5e-5
/* The mini example's tolerance on x = 2 m, y = 1 m. */
#define MINI_TOL 1e-12

double fw_fabs(double x);
/* max(a, b), NaN if either is NaN (a NaN fails every tolerance). */
double fw_max(double a, double b);

/* Error of the final body rate w (rad/s, body frame) and quaternion q at t against the closed
 * form of the torque-free symmetric top (axial moment inertia[0], transverse inertia[4] =
 * inertia[8], about the COM, row-major 3x3): w1 constant, w2 + i w3 = (w2 + i w3)(0)
 * exp(-i lambda t), lambda = (I2 - I1)/I2 w1; and the relative changes of the kinetic energy
 * 1/2 w.Iw and of |L| = |I w|, and | |q| - 1 |. */
double top_error(const double inertia[9], const double w0[3], const double w[3],
                 const double q[4], double t);

/* Prints `result name=.. type=.. steps=.. value_bits=.. hash=.. error_bits=.. tol_bits=..`
 * and `ok` if error <= tol (not for NaN), `FAIL` otherwise. */
void print_outcome(const char *name, const char *type, uint32_t steps, double value,
                   uint64_t hash, double error, double tol);

/* Every state component of a mbs_rigid_state(_f32), in the order of the struct (floats
 * widened exactly). */
#define HASH_RIGID_STATE(h, s)                                                     \
    do {                                                                           \
        for (int i_ = 0; i_ < 3; i_++) h = mbs_fnv1a_f64(h, (s).position[i_]);     \
        for (int i_ = 0; i_ < 4; i_++) h = mbs_fnv1a_f64(h, (s).orientation[i_]);  \
        for (int i_ = 0; i_ < 3; i_++) h = mbs_fnv1a_f64(h, (s).velocity[i_]);     \
        for (int i_ = 0; i_ < 3; i_++) h = mbs_fnv1a_f64(h, (s).angular_velocity[i_]); \
        for (int i_ = 0; i_ < 3; i_++) h = mbs_fnv1a_f64(h, (s).acceleration[i_]); \
        for (int i_ = 0; i_ < 3; i_++) h = mbs_fnv1a_f64(h, (s).angular_acceleration[i_]); \
    } while (0)

/* q, q_t, q_tt, a of a mbs_point2d_state. */
#define HASH_POINT2D_STATE(h, s)                                           \
    do {                                                                   \
        for (int i_ = 0; i_ < 2; i_++) h = mbs_fnv1a_f64(h, (s).q[i_]);    \
        for (int i_ = 0; i_ < 2; i_++) h = mbs_fnv1a_f64(h, (s).q_t[i_]);  \
        for (int i_ = 0; i_ < 2; i_++) h = mbs_fnv1a_f64(h, (s).q_tt[i_]); \
        for (int i_ = 0; i_ < 2; i_++) h = mbs_fnv1a_f64(h, (s).a[i_]);    \
    } while (0)

#endif
