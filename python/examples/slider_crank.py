"""Exudyn's SliderCrank.py in mbsdyn: a crank (2D rigid body, 0.5 m, 2 kg) and a connecting
rod (1 m, 4 kg) on revolute joints, a slider (1 kg mass point) held on the x axis by a
coordinate constraint, a constant torque of 0.1 N m on the crank, no gravity; generalized-alpha
with Lagrange multipliers. Checks the slider's position against the loop closure
x = 2 a0 cos(phi) + sqrt((2 a1)^2 - (2 a0 sin(phi))^2) at the end, prints the Newton updates."""

import math

import mbsdyn

A0, A1, M0, M1, M2, TORQUE = 0.25, 0.5, 2.0, 4.0, 1.0, 0.1


def slider_crank():
    s = mbsdyn.System()
    s.set_scheme("generalized_alpha")
    ground_node = s.add_node_point_ground()
    ground = s.create_ground()

    def rigid(x, mass, inertia):
        n = s.add_node_rigid_body_2d([x, 0.0, 0.0])
        return n, s.add_object_rigid_body_2d(n, mass, inertia)

    crank_node, crank = rigid(A0, M0, M0 / 12 * (2 * A0) ** 2)
    rod_node, rod = rigid(2 * A0 + A1, M1, M1 / 12 * (2 * A1) ** 2)
    slider = s.create_mass_point(mass=M2, reference_position=[2 * A0 + 2 * A1, 0.0])
    at = lambda body, x: s.add_marker_body_rigid(body, [x, 0.0, 0.0])  # noqa: E731
    m_ground, m_crank0, m_crank1 = at(ground, 0.0), at(crank, -A0), at(crank, A0)
    m_rod0, m_rod1 = at(rod, -A1), at(rod, A1)
    m_slider = s.add_marker_node_position(slider.node)
    for a, b in [(m_ground, m_crank0), (m_crank1, m_rod0), (m_rod1, m_slider)]:
        s.add_revolute_joint_2d(a, b)
    s.add_coordinate_constraint(s.add_marker_node_coordinate(ground_node, 0), s.add_marker_node_coordinate(slider.node, 1))
    s.add_load_torque(m_crank0, [0.0, 0.0, TORQUE])
    crank_sensor = s.add_sensor_node(crank_node, "Coordinates")
    slider_sensor = s.add_sensor_node(slider.node, "Position")
    s.assemble()
    return s, crank_sensor, slider_sensor


if __name__ == "__main__":
    s, crank_sensor, slider_sensor = slider_crank()
    report = s.solve_dynamic(end_time=1.0, number_of_steps=1000, spectral_radius=0.8)
    phi = s.sensor_records(crank_sensor)[-1, 3]
    x = s.sensor_records(slider_sensor)[-1, 1]
    closure = 2 * A0 * math.cos(phi) + math.sqrt((2 * A1) ** 2 - (2 * A0 * math.sin(phi)) ** 2)
    print(f"crank angle {phi:.9f} rad, slider x = {x:.12f} m, loop closure {closure:.12f} m, |diff| = {abs(x - closure):.2e} m")
    print(f"{report['steps']} steps, {report['newton_iterations']} Newton updates")
