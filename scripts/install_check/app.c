/* A program outside the source tree against the installed mbs: the header's version equals
 * the library's, and a one-link pendulum's gravity torque is m g (L/2) cos(q). Exits 0 on
 * success. Built by scripts/install-check.sh with pkg-config and with CMake. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <mbs.h>

int main(void) {
    static mbs_tree tree;
    const double g[3] = {0.0, -9.81, 0.0};
    const double q[1] = {0.3}, v[1] = {0.0};
    double b[1];
    uint32_t index;
    mbs_tree_link l;
    memset(&l, 0, sizeof l);
    l.parent = MBS_NO_INDEX;
    l.joint = MBS_JOINT_REVOLUTE;
    l.axis[2] = 1.0;
    l.rotation[0] = l.rotation[4] = l.rotation[8] = 1.0;
    l.mass = 2.0;
    l.com[0] = 0.5;
    l.inertia[0] = 0.001, l.inertia[4] = l.inertia[8] = 2.0 / 12.0;
    if (strcmp(mbs_version(), MBS_VERSION_STRING) != 0) {
        printf("header %s, library %s\n", MBS_VERSION_STRING, mbs_version());
        return 1;
    }
    if (mbs_tree_init(&tree, g) != MBS_OK || mbs_tree_add_link(&tree, &l, &index) != MBS_OK ||
        mbs_tree_bias_forces(&tree, q, 1, v, 1, b) != MBS_OK)
        return 1;
    printf("mbs %s: gravity torque %.12f N m\n", mbs_version(), b[0]);
    return fabs(b[0] - 2.0 * 9.81 * 0.5 * cos(0.3)) < 1e-12 ? 0 : 1;
}
