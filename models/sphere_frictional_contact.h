// The rows of a sphere in a rigid frictional contact (system/frictional_contact_structure.h), shared by sphere_wall,
// sphere_pair and sphere_assembly so that one sphere on a wall or one pair is the same declaration in each model
// [Moreau 1988; Acary & Brogliato 2008 §3.9 (local frame, Coulomb cone)].
//
// Contact frame: the normal n (from body A to body B) and the tangent basis (t₁, t₂) of ContactTangentBasis:
//   t₁ = P_t e_x / |P_t e_x|, or P_t e_y / |P_t e_y| when |P_t e_x|² < 3/4 (e_x within 60° of ±n),  t₂ = n × t₁,
// P_t = I − n nᵀ (for n = e_z: t₁ = e_x, t₂ = e_y).
// A sphere of radius R with velocity v and spin ω (q = (x, φ), φ̇ = ω, isotropic inertia) touches along ∓R n: body B
// at −R n, body A at +R n, so its share of the relative velocity u = (u_n, u_t1, u_t2) of B's point w.r.t. A's is
//   side · (n·v, t₁·v, t₂·v) + (0, −R (n × t₁)·ω, −R (n × t₂)·ω),     side = +1 for B, −1 for A
// (the spin term has the same sign for both: t·(ω × (−R n)) = −R (n × t)·ω for B, and −t·(ω × (R n)) for A).
// The normal row of a pair turns with n: Ḣ_n = [−ṅᵀ 0 ṅᵀ 0], ṅ = (ṙ − n (n·ṙ))/|r| for r = x_B − x_A.
#pragma once

#include <Eigen/Core>

namespace impactlab {

/// The orthonormal tangent basis (t₁, t₂) of the unit normal n above, n × t₁ = t₂.
void ContactTangentBasis(const Eigen::Vector3d& n, Eigen::Vector3d& t1, Eigen::Vector3d& t2);

/// Adds a sphere's columns (v at `at`, ω at `at + 3`) to the 3 × n Jacobian (rows n, t₁, t₂) of a contact with
/// normal n: side = +1 for body B, −1 for body A (above).
void AddSphereContactColumns(const Eigen::Vector3d& n, double radius, int at, double side, Eigen::MatrixXd& jacobian);

/// ṅ = (ṙ − n (n·ṙ))/|r| of n = r/|r| [1/s].
Eigen::Vector3d NormalRate(const Eigen::Vector3d& r, const Eigen::Vector3d& r_dot);

}  // namespace impactlab
