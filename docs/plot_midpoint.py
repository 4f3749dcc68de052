"""Plots docs/midpoint_invariants.png from the CSV of the ignored test
`write_invariant_error_csv` (tests/rigid_midpoint_invariants.rs). Usage:
    python3 docs/plot_midpoint.py target/midpoint_invariants.csv docs/midpoint_invariants.png
"""
import csv
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt

src, dst = sys.argv[1], sys.argv[2]
with open(src) as f:
    rows = list(csv.reader(f))
head, data = rows[0], rows[1:]
t = [float(r[0]) for r in data]
names = [h[: -len(" dE/E")] for h in head[1::2]]
styles = {
    "default EndRate": dict(color="C0", lw=2.5),
    "MeanRate": dict(color="C1", ls="--", lw=1.2),
    "EndRate+Project": dict(color="C2", lw=1.5),
    "MeanRate+Project": dict(color="C3", ls="--", lw=1.0),
    "EndRate+Project (initial levels)": dict(color="C4", lw=1.2),
    "RK4 (baseline)": dict(color="0.5", lw=1.0),
    "symplectic Euler (baseline)": dict(color="k", ls=":", lw=1.2),
}
floor = 1e-17
fig, axes = plt.subplots(2, 1, figsize=(9, 8), sharex=True)
for k, name in enumerate(names):
    for ax, col in zip(axes, (1 + 2 * k, 2 + 2 * k)):
        y = [max(abs(float(r[col])), floor) for r in data]
        ax.semilogy(t, y, label=name, **styles.get(name, {}))
for ax, what in zip(axes, ("|E - E0| / E0", "| |L| - |L0| | / |L0|")):
    ax.set_ylabel(what)
    ax.axhline(1e-12, color="r", lw=0.6, ls="-.")
    ax.set_ylim(floor, 1e2)
    ax.grid(True, which="major", alpha=0.3)
axes[0].set_title(
    "Torque-free body diag(1, 2, 3), w0 = [0.1, 5, 0.1], dt = 1e-3 (500,000 steps)\n"
    "MeanRate curves lie on their EndRate twins (the rate does not depend on the pose); "
    "red: 1e-12",
    fontsize=9,
)
axes[1].set_xlabel("t (s)")
axes[0].legend(fontsize=7, loc="upper right", ncol=3)
fig.tight_layout()
fig.savefig(dst, dpi=110)
print("wrote", dst)
