/* C tests of the mass-property entry points: results against closed forms, and every
 * refusal (null pointers, NaN/inf, negative density, inner diameter not below the diameter,
 * zero length) returns its status and leaves the output untouched. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "mbs.h"

static int failures = 0;
#define CHECK(cond)                                                        \
    do {                                                                   \
        if (!(cond)) {                                                     \
            printf("FAIL %s:%d: %s\n", __FILE__, __LINE__, #cond);         \
            failures++;                                                    \
        }                                                                  \
    } while (0)

static const double PI = 3.14159265358979323846;

static int untouched(const mbs_mass_properties *mp) {
    const unsigned char *b = (const unsigned char *)mp;
    size_t i;
    for (i = 0; i < sizeof *mp; i++) {
        if (b[i] != 0xAB) return 0;
    }
    return 1;
}

int main(void) {
    const double r[3] = {1.0, 0.0, 0.0};
    mbs_cylinder c;
    mbs_mass_properties mp;
    mbs_status s;

    /* Modelica defaults: length 1, diameter 1/20, density 7700, along x. */
    CHECK(mbs_cylinder_default(&c, r) == MBS_OK);
    CHECK(mbs_cylinder_mass_properties(&c, &mp) == MBS_OK);
    {
        double rad = 0.025, m = 7700.0 * PI * 1.0 * rad * rad;
        CHECK(fabs(mp.mass - m) < 1e-12 * m);
        CHECK(fabs(mp.com[0] - 0.5) < 1e-15 && mp.com[1] == 0.0 && mp.com[2] == 0.0);
        CHECK(fabs(mp.inertia[0] - m * rad * rad / 2.0) < 1e-12 * m);
        CHECK(fabs(mp.inertia[4] - m * (1.0 + 3.0 * rad * rad) / 12.0) < 1e-12 * m);
        CHECK(fabs(mp.inertia[8] - mp.inertia[4]) < 1e-15);
    }

    /* Refusals leave the output untouched. */
    memset(&mp, 0xAB, sizeof mp);
    CHECK(mbs_cylinder_mass_properties(NULL, &mp) == MBS_ERR_NULL_POINTER && untouched(&mp));
    CHECK(mbs_cylinder_mass_properties(&c, NULL) == MBS_ERR_NULL_POINTER);
    CHECK(mbs_cylinder_default(NULL, r) == MBS_ERR_NULL_POINTER);
    CHECK(mbs_cylinder_default(&c, NULL) == MBS_ERR_NULL_POINTER);
    {
        mbs_cylinder bad = c;
        bad.density = NAN;
        CHECK(mbs_cylinder_mass_properties(&bad, &mp) == MBS_ERR_NOT_FINITE && untouched(&mp));
        bad = c;
        bad.r[1] = INFINITY;
        CHECK(mbs_cylinder_mass_properties(&bad, &mp) == MBS_ERR_NOT_FINITE && untouched(&mp));
        bad = c;
        bad.density = -1.0;
        CHECK(mbs_cylinder_mass_properties(&bad, &mp) == MBS_ERR_INVALID_DENSITY && untouched(&mp));
        bad = c;
        bad.has_diameter = true;
        bad.diameter = 0.1;
        bad.inner_diameter = 0.2;
        CHECK(mbs_cylinder_mass_properties(&bad, &mp) == MBS_ERR_INVALID_INNER_DIAMETER && untouched(&mp));
        bad.inner_diameter = 0.1; /* Modelica's assert is strict: innerDiameter < diameter */
        CHECK(mbs_cylinder_mass_properties(&bad, &mp) == MBS_ERR_INVALID_INNER_DIAMETER && untouched(&mp));
        bad = c;
        bad.has_length = 2; /* a flag is 0 or 1: a byte of 2 is refused, not undefined */
        CHECK(mbs_cylinder_mass_properties(&bad, &mp) == MBS_ERR_INVALID_ARGUMENT && untouched(&mp));
        bad.has_length = 0xAB; /* what an uninitialized field holds */
        CHECK(mbs_cylinder_mass_properties(&bad, &mp) == MBS_ERR_INVALID_ARGUMENT && untouched(&mp));
        bad = c;
        bad.has_length = true;
        bad.length = 0.0;
        CHECK(mbs_cylinder_mass_properties(&bad, &mp) == MBS_ERR_INVALID_LENGTH && untouched(&mp));
        bad = c;
        bad.r[0] = 0.0; /* r == r_shape: no default length direction */
        s = mbs_cylinder_mass_properties(&bad, &mp);
        CHECK(s != MBS_OK && untouched(&mp));
        bad = c;
        bad.has_diameter = true;
        bad.diameter = -0.1;
        CHECK(mbs_cylinder_mass_properties(&bad, &mp) == MBS_ERR_INVALID_DIAMETER && untouched(&mp));
    }

    /* Sphere, box, point masses and their combination (a dumbbell). */
    {
        const double o[3] = {0.0, 0.0, 0.0}, a[3] = {-1.0, 0.0, 0.0}, b[3] = {1.0, 0.0, 0.0};
        const double dims[3] = {1.0, 2.0, 3.0};
        mbs_mass_properties parts[2], dumbbell;
        double about[9];
        CHECK(mbs_sphere_mass_properties(2.0, 0.0, 1000.0, o, &mp) == MBS_OK);
        CHECK(fabs(mp.inertia[0] - 0.4 * mp.mass) < 1e-12 * mp.mass);
        CHECK(mbs_box_mass_properties(dims, 1.0, o, &mp) == MBS_OK);
        CHECK(fabs(mp.mass - 6.0) < 1e-15 && fabs(mp.inertia[0] - 6.0 * (4.0 + 9.0) / 12.0) < 1e-14);
        CHECK(mbs_point_mass_properties(2.0, a, &parts[0]) == MBS_OK);
        CHECK(mbs_point_mass_properties(2.0, b, &parts[1]) == MBS_OK);
        CHECK(mbs_mass_properties_combine(parts, 2, &dumbbell) == MBS_OK);
        CHECK(dumbbell.mass == 4.0 && fabs(dumbbell.com[0]) < 1e-15);
        CHECK(fabs(dumbbell.inertia[4] - 4.0) < 1e-14 && fabs(dumbbell.inertia[0]) < 1e-14);
        CHECK(mbs_mass_properties_inertia_about(&dumbbell, b, about) == MBS_OK);
        CHECK(fabs(about[4] - 8.0) < 1e-14); /* 4 + m d^2 = 4 + 4 */
        memset(&mp, 0xAB, sizeof mp);
        CHECK(mbs_mass_properties_combine(parts, 0, &mp) == MBS_ERR_INVALID_ARGUMENT && untouched(&mp));
        CHECK(mbs_mass_properties_combine(NULL, 2, &mp) == MBS_ERR_NULL_POINTER && untouched(&mp));
        CHECK(mbs_sphere_mass_properties(1.0, 2.0, 1.0, o, &mp) == MBS_ERR_INVALID_INNER_DIAMETER && untouched(&mp));
        CHECK(mbs_sphere_mass_properties(NAN, 0.0, 1.0, o, &mp) == MBS_ERR_NOT_FINITE && untouched(&mp));
        CHECK(mbs_box_mass_properties(dims, -1.0, o, &mp) == MBS_ERR_INVALID_DENSITY && untouched(&mp));
        CHECK(mbs_point_mass_properties(-1.0, o, &mp) == MBS_ERR_INVALID_MASS && untouched(&mp));
        /* Finite inputs whose results overflow are refused, not returned as inf. */
        {
            const double huge[3] = {1e200, 1e200, 1e200}, far[3] = {1e300, 0.0, 0.0};
            double about9[9];
            CHECK(mbs_box_mass_properties(huge, 1.0, o, &mp) == MBS_ERR_NON_FINITE_STATE && untouched(&mp));
            CHECK(mbs_sphere_mass_properties(1e150, 0.0, 1e10, o, &mp) == MBS_ERR_NON_FINITE_STATE && untouched(&mp));
            memset(about9, 0xAB, sizeof about9);
            CHECK(mbs_mass_properties_inertia_about(&dumbbell, far, about9) == MBS_ERR_NON_FINITE_STATE);
            CHECK(((unsigned char *)about9)[0] == 0xAB && ((unsigned char *)about9)[71] == 0xAB);
        }
    }

    printf("test_mass_properties: %d failures\n", failures);
    return failures == 0 ? 0 : 1;
}
