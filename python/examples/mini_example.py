"""Exudyn's mass point mini example in mbsdyn: a 1 kg mass point at (1, 1) m moving at
0.5 m/s along x, pulled by 1 N along x for 1 s: x(1 s) = 1 + 0.5 + 0.5 = 2 m."""

import mbsdyn

s = mbsdyn.System()
b = s.create_mass_point(mass=1.0, reference_position=[1.0, 1.0], initial_velocity=[0.5, 0.0])
s.add_load_force(s.add_marker_node_position(b.node), [1.0, 0.0, 0.0])
sensor = s.add_sensor_node(b.node, "Position")
s.assemble()
report = s.solve_dynamic(end_time=1.0, number_of_steps=1000, solver="system_scheme")
rows = s.sensor_records(sensor)
print(f"{report['steps']} steps; x(1 s) = {float(rows[-1, 1])!r} m (Exudyn: 2), y = {float(rows[-1, 2])!r} m")
