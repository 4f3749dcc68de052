/* A fixed-rate 1 kHz attitude controller on a rigid body, the way firmware runs it: every
 * tick the controller reads the state, computes a torque, and the plant is advanced one
 * period with that torque held (zero-order hold) by the per-item step, in single precision
 * (mbs_rigid_step_f32, the variant for a Cortex-M4F).
 *
 * Plant: a box-like body, inertia diag(0.02, 0.03, 0.04) kg m^2, starting at rest turned by
 * 60 deg about the oblique axis (1, 2, 2)/3. Target: the identity orientation.
 * Controller (quaternion PD, body frame): tau_i = -Kp_i sgn(q_w) q_vec,i - Kd_i w_i with
 * Kp_i = 2 I_i wn^2 and Kd_i = 2 zeta wn I_i: near the target (q_vec = theta/2 axis) each axis
 * is the critically damped (zeta = 1) oscillator theta'' + 2 wn theta' + wn^2 theta = 0,
 * wn = 5 rad/s, whose error falls to 1 % of its start at wn t = 6.64 (t = 1.33 s).
 * Prints the settling time and the settled error after 3 s; exits non-zero if they are off. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "mbs.h"

#define RATE_HZ 1000
#define SECONDS 3

static const float WN = 5.0f;   /* rad/s */
static const float ZETA = 1.0f; /* - */

/* Rotation angle (rad) from the identity of a unit quaternion [w, x, y, z]. */
static double angle_of(const float q[4]) {
    double v = sqrt((double)q[1] * q[1] + (double)q[2] * q[2] + (double)q[3] * q[3]);
    return 2.0 * atan2(v, fabs((double)q[0]));
}

int main(void) {
    const float inertia[9] = {0.02f, 0, 0, 0, 0.03f, 0, 0, 0, 0.04f};
    const float com[3] = {0, 0, 0}, zero[3] = {0, 0, 0};
    const float half = 0.5235987756f; /* 30 deg: half of the 60 deg start rotation */
    const float q0[4] = {cosf(half), sinf(half) / 3.0f, 2.0f * sinf(half) / 3.0f,
                         2.0f * sinf(half) / 3.0f};
    const float dt = 1.0f / RATE_HZ;
    mbs_rigid_body_f32 body;
    mbs_rigid_state_f32 state;
    mbs_rigid_loads_f32 loads;
    mbs_step_settings_f32 settings;
    float kp[3], kd[3];
    double err0, err = 0.0, t_settle = -1.0, max_tau = 0.0;
    int k, i;
    mbs_status s;

    if (mbs_rigid_body_init_f32(&body, 1.5f, inertia, com) != MBS_OK ||
        mbs_rigid_state_init_f32(&state, zero, q0, zero, zero) != MBS_OK ||
        mbs_step_settings_default_f32(&settings) != MBS_OK) {
        printf("setup failed\n");
        return 1;
    }
    memset(&loads, 0, sizeof loads);
    for (i = 0; i < 3; i++) {
        kp[i] = 2.0f * inertia[4 * i] * WN * WN;
        kd[i] = 2.0f * ZETA * WN * inertia[4 * i];
    }
    err0 = angle_of(state.orientation);

    for (k = 1; k <= RATE_HZ * SECONDS; k++) {
        /* Controller: sample, compute, hold for one period. */
        float sgn = state.orientation[0] < 0.0f ? -1.0f : 1.0f;
        for (i = 0; i < 3; i++) {
            loads.torque[i] = -kp[i] * sgn * state.orientation[i + 1] - kd[i] * state.angular_velocity[i];
            if (fabs(loads.torque[i]) > max_tau) max_tau = fabs(loads.torque[i]);
        }
        /* Plant: one period. */
        s = mbs_rigid_step_f32(&body, &loads, &settings, &state, dt, NULL);
        if (s != MBS_OK) {
            printf("step %d: %s\n", k, mbs_status_str(s));
            return 1;
        }
        err = angle_of(state.orientation);
        if (t_settle < 0.0 && err < 0.01 * err0) t_settle = k * (double)dt;
    }

    printf("control loop: %d Hz, %d s, wn %g rad/s, zeta %g, float\n", RATE_HZ, SECONDS, WN, ZETA);
    printf("initial error = %.9g rad\n", err0);
    printf("peak torque = %.6g N m\n", max_tau);
    printf("settling time (1%%) = %.4f s\n", t_settle);
    printf("settled error = %.3e rad\n", err);
    printf("final rate = %.3e %.3e %.3e rad/s\n", state.angular_velocity[0], state.angular_velocity[1],
           state.angular_velocity[2]);
    if (t_settle < 0.0 || !(err < 1e-3) || fabs(t_settle - 6.64 / WN) > 0.2 * 6.64 / WN) {
        printf("WRONG: did not settle as designed\n");
        return 1;
    }
    return 0;
}
