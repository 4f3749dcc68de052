"""A parameter sweep that scales past one machine: the spring-damper (Exudyn's
tutorialSpringDamperCreate) pulled by each force of a list, solved in chunks, each chunk one
``mbsdyn.solve_batch`` call on a Dask worker (all its cores, the GIL released). Point the
client at a real cluster (``Client("tcp://scheduler:8786")``) and nothing else changes.

    python sweep_dask.py            # a LocalCluster on this machine
"""

import numpy as np

import mbsdyn

END_TIME, STEPS = 0.5, 500


def system(force):
    """A 1.6 kg mass on a 4000 N/m, 8 N s/m spring-damper to the ground, pulled by ``force`` (N)."""
    s = mbsdyn.System()
    g = s.create_ground()
    b = s.create_mass_point(mass=1.6, reference_position=[0.5, 0.0])
    m0, m1 = s.add_marker_body_position(g), s.add_marker_node_position(b.node)
    s.add_spring_damper(m0, m1, 4000.0, 8.0, 0.5)
    s.add_load_force(m1, [float(force), 0.0, 0.0])
    s.add_sensor_node(b.node, "Displacement")
    s.assemble()
    return s


def run_chunk(forces):
    """The sensor rows of one system per force: shape (len(forces), STEPS + 1, 4)."""
    return mbsdyn.solve_batch([system(f) for f in forces], end_time=END_TIME, number_of_steps=STEPS)


def sweep(client, forces, chunk=16):
    """Every force's rows, the chunks run on the cluster of ``client``, in the order of ``forces``."""
    parts = [forces[i : i + chunk] for i in range(0, len(forces), chunk)]
    futures = client.map(run_chunk, parts)
    return np.concatenate(client.gather(futures))


if __name__ == "__main__":
    from dask.distributed import Client, LocalCluster

    forces = np.linspace(10.0, 100.0, 64)
    with LocalCluster(n_workers=2, threads_per_worker=1, dashboard_address=None) as cluster, Client(cluster) as client:
        rows = sweep(client, forces)
    print(f"{len(forces)} runs of {STEPS} steps: rows {rows.shape}")
    print(f"static deflection at 100 N: {rows[-1, -1, 1]:.6f} m (f/k = {100.0 / 4000.0:.6f} m)")
