// Registration of model "free_rigid_body" (models/free_rigid_body.h): the torque-free asymmetric top, the exact
// test of the rotation schemes (issue 15; docs/rotation.md). Keys (SI units):
//   I1, I2, I3            principal moments [kg m^2] (> 0, triangle inequality)
//   omega_x, omega_y, omega_z   initial angular velocity in the BODY frame [rad/s]
//   quaternion            initial orientation [w, x, y, z] (non-zero; normalized)
// Summary keys: the elliptic-function reference (lib/exact/free_rigid_body_solution.h) — period_exact [s]
// (T = 4K(k)/λ), modulus_k — and, against it at the final time, omega_error_final [rad/s] (max-norm);
// energy_drift_relative |E − E₀|/E₀ and angular_momentum_drift_relative ‖L − L₀‖/‖L₀‖ at the end.
#include <cmath>

#include "core/errors.h"
#include "exact/free_rigid_body_solution.h"
#include "models/free_rigid_body.h"
#include "registry/registries.h"

namespace impactlab {

void RegisterFreeRigidBodyModel(Registry<ModelFactory>& r) {
  r.Add("free_rigid_body",
        "torque-free rigid body (quaternion + Euler equations, no contact); keys: I1, I2, I3 [kg m^2], omega_x, "
        "omega_y, omega_z (body frame) [rad/s], quaternion [w, x, y, z]",
        [](const ParameterSet& ps) {
          RejectInapplicableLaw(ps, "normal_law", "free_rigid_body", "it has no contact");
          RejectTangentialLaw(ps, "free_rigid_body", "it has no contact");
          FreeRigidBodyParameters p;
          p.inertia = Eigen::Vector3d(ps.GetDouble("I1", p.inertia[0]), ps.GetDouble("I2", p.inertia[1]),
                                      ps.GetDouble("I3", p.inertia[2]));
          p.angular_velocity =
              Eigen::Vector3d(ps.GetDouble("omega_x", p.angular_velocity[0]),
                              ps.GetDouble("omega_y", p.angular_velocity[1]),
                              ps.GetDouble("omega_z", p.angular_velocity[2]));
          const auto quat = ps.GetVector("quaternion", {1.0, 0.0, 0.0, 0.0});
          if (quat.size() != 4)
            throw InvalidParameter("quaternion", ParameterSet::ToString(quat), "four numbers (w, x, y, z)");
          p.quaternion = Eigen::Vector4d(quat[0], quat[1], quat[2], quat[3]);
          auto model = std::make_shared<FreeRigidBody>(p);
          ModelInstance mi;
          mi.system = model;
          mi.summarize = [model](const RunOutcome& o, nlohmann::json& out) {
            const MechanicalState s0 = model->InitialState();
            const MechanicalState& s1 = o.record.final_state;
            const double e0 = model->KineticEnergy(s0);
            const Eigen::Vector3d l0 = *model->AngularMomentum(s0);
            out["energy_drift_relative"] = std::abs(model->KineticEnergy(s1) - e0) / e0;
            out["angular_momentum_drift_relative"] = (*model->AngularMomentum(s1) - l0).norm() / l0.norm();
            try {
              const FreeRigidBodySolution exact(model->PrincipalMoments(), s0.v);
              out["period_exact"] = exact.Period();
              out["modulus_k"] = exact.modulus();
              out["omega_error_final"] =
                  (s1.v.head<3>() - exact.AngularVelocity(s1.t)).lpNorm<Eigen::Infinity>();
            } catch (const InvalidParameter&) {  // symmetric top or separatrix: no elliptic reference
              out["period_exact"] = out["modulus_k"] = out["omega_error_final"] = nlohmann::json(nullptr);
            }
          };
          return mi;
        });
}

}  // namespace impactlab
