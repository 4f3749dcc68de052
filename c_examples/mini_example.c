/* Exudyn's mini example of ObjectMassPoint2D, through the C API:
 *
 *   node = NodePoint2D(referenceCoordinates=[1,1], initialCoordinates=[0.5,0],
 *                      initialVelocities=[0.5,0])
 *   MassPoint2D(physicsMass=1, nodeNumber=node);  SolveDynamic()   (1 s, 100 steps)
 *
 * No force acts, so x(t) = 1 + 0.5 + 0.5 t and x(1 s) = 2 (generalized-alpha is exact for a
 * constant acceleration). The same run is then repeated step by step with
 * mbs_mass_point_2d_step, the form a real-time loop uses. Exits non-zero on a wrong result. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "mbs.h"

static int check(mbs_status s, const char *what) {
    if (s != MBS_OK) {
        printf("%s failed: %s\n", what, mbs_status_str(s));
        return 1;
    }
    return 0;
}

int main(void) {
    const double reference[2] = {1.0, 1.0};
    const double q0[2] = {0.5, 0.0}, v0[2] = {0.5, 0.0};
    const double origin[3] = {0.0, 0.0, 0.0};
    mbs_mass_point_2d body;
    mbs_mass_point_2d_loads loads;
    mbs_simulation_settings settings;
    mbs_point2d_state end, state;
    double p[3], stepped[3];
    size_t n = 0;
    unsigned i;

    memset(&loads, 0, sizeof loads); /* no force, no gravity */
    if (check(mbs_mass_point_2d_init(&body, 1.0, reference), "init") ||
        check(mbs_simulation_settings_default(&settings), "settings") ||
        check(mbs_mass_point_2d_solve_dynamic(&body, &loads, &settings, q0, v0, &end), "solve") ||
        check(mbs_mass_point_2d_output(&body, &end, MBS_OUTPUT_POSITION, origin, p, 3, &n),
              "output")) {
        return 1;
    }
    printf("SolveDynamic: end time %g s, %u steps, spectral radius %g\n", settings.end_time,
           (unsigned)settings.number_of_steps, settings.spectral_radius);
    printf("final x = %.17g\n", p[0]);
    printf("final y = %.17g\n", p[1]);

    /* The same, one step at a time. */
    if (check(mbs_mass_point_2d_init_state(&body, &loads, &settings, q0, v0, &state), "start")) {
        return 1;
    }
    for (i = 0; i < settings.number_of_steps; i++) {
        if (check(mbs_mass_point_2d_step(&body, &loads, &settings, &state, 0.01, NULL), "step")) {
            return 1;
        }
    }
    if (check(mbs_mass_point_2d_output(&body, &state, MBS_OUTPUT_POSITION, origin, stepped, 3, &n),
              "output")) {
        return 1;
    }
    printf("stepped x = %.17g\n", stepped[0]);

    if (fabs(p[0] - 2.0) > 1e-12 || fabs(p[1] - 1.0) > 1e-12 || fabs(stepped[0] - 2.0) > 1e-12) {
        printf("WRONG: expected x = 2, y = 1\n");
        return 1;
    }
    return 0;
}
