/* See checks.h. */
#include "checks.h"

#include "semihost.h"

double fw_fabs(double x) { return x < 0.0 ? -x : x; }

double fw_max(double a, double b) {
    if (a != a || b != b) {
        return 0.0 / 0.0;
    }
    return b > a ? b : a;
}

/* sin and cos: x reduced to [-pi, pi] (|x| < 100 here), then the Taylor series to 1e-17. */
static void fw_sincos(double x, double *s, double *c) {
    const double pi = 3.14159265358979323846, two_pi = 6.28318530717958647693;
    while (x > pi) x -= two_pi;
    while (x < -pi) x += two_pi;
    double term_s = x, term_c = 1.0, sum_s = x, sum_c = 1.0;
    for (int k = 1; k < 30; k++) {
        term_c *= -x * x / ((2.0 * k - 1.0) * (2.0 * k));
        term_s *= -x * x / ((2.0 * k) * (2.0 * k + 1.0));
        sum_c += term_c;
        sum_s += term_s;
    }
    *s = sum_s;
    *c = sum_c;
}

/* sqrt by Newton's iteration from a power-of-two start (x > 0), to the last bits. */
static double fw_sqrt(double x) {
    if (!(x > 0.0)) return x == 0.0 ? 0.0 : 0.0 / 0.0;
    double r = 1.0;
    while (r * r > 4.0 * x) r *= 0.5;
    while (r * r < 0.25 * x) r *= 2.0;
    for (int k = 0; k < 60; k++) r = 0.5 * (r + x / r);
    return r;
}

double top_error(const double inertia[9], const double w0[3], const double w[3],
                 const double q[4], double t) {
    const double i1 = inertia[0], i2 = inertia[4];
    const double lambda = (i2 - i1) / i2 * w0[0];
    double c, s;
    fw_sincos(lambda * t, &s, &c);
    const double ref[3] = {w0[0], w0[1] * c + w0[2] * s, w0[2] * c - w0[1] * s};
    double err = 0.0;
    for (int i = 0; i < 3; i++) err = fw_max(err, fw_fabs(w[i] - ref[i]));
    double e0 = 0.0, e1 = 0.0, l0 = 0.0, l1 = 0.0;
    for (int i = 0; i < 3; i++) {
        double a0 = 0.0, a1 = 0.0;
        for (int j = 0; j < 3; j++) {
            a0 += inertia[3 * i + j] * w0[j];
            a1 += inertia[3 * i + j] * w[j];
        }
        e0 += 0.5 * w0[i] * a0;
        e1 += 0.5 * w[i] * a1;
        l0 += a0 * a0;
        l1 += a1 * a1;
    }
    err = fw_max(err, fw_fabs(e1 - e0) / e0);
    err = fw_max(err, fw_fabs(fw_sqrt(l1) - fw_sqrt(l0)) / fw_sqrt(l0));
    const double qn = fw_sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
    return fw_max(err, fw_fabs(qn - 1.0));
}

void print_outcome(const char *name, const char *type, uint32_t steps, double value,
                   uint64_t hash, double error, double tol) {
    int ok = error <= tol; /* false for NaN */
    sh_write0("result name=");
    sh_write0(name);
    sh_write0(" type=");
    sh_write0(type);
    sh_write0(" steps=");
    sh_put_u32(steps);
    sh_write0(" value_bits=");
    sh_put_f64_bits(value);
    sh_write0(" hash=");
    sh_put_hex64(hash);
    sh_write0(" error_bits=");
    sh_put_f64_bits(error);
    sh_write0(" tol_bits=");
    sh_put_f64_bits(tol);
    sh_write0(ok ? " ok\n" : " FAIL\n");
}
