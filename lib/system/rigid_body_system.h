// RigidBodySystem: the optional extension of MechanicalSystem that the rotation scheme needs for ONE rigid body
// that translates, rotates and touches something (integrators/rigid_body_contact_step.h; docs/rotation.md §6), as
// RigidRotationSystem is for the torque-free top and ConstantMassSystem for the midpoint family.
//
//   q = (x_G [3], unit quaternion (w, x, y, z) [4])   centre of mass, body → world rotation R(q)
//   v = (v_G [3], Ω [3])                              world velocity [m/s], body-frame angular velocity [rad/s]
//   m v̇_G = F_c(x_G, R) + F_d,    I Ω̇ = (I Ω) × Ω + τ_c(x_G, R) + τ_d,    I = diag(I₁, I₂, I₃)
//   F_c = −∂V/∂x_G,   τ_c = −∂V/∂φ   (body frame: R → R(1 + φ̂)),   V(x_G, R) the potential energy [J]
//   (F_d, τ_d) = the non-conservative force [N] and body torque [N·m] at (x_G, R, v_G, Ω)
//   (F_t, τ_t) = Ḡᵀ f̄_t, a history-dependent tangential (friction) load of one step (DiscreteTangentialLoad)
//
// The tangential load of one step (friction at a contact point, from a TangentialLaw with history in z;
// contact/tangential/tangential_law.h). The scheme gives the step's increment ξ = (Δx, θ) (θ: body-frame Cayley
// coordinate, R_{n+1} = R_n cay(θ̂)) and its midpoint and end configurations; the model returns
//   Δs = Ḡ ξ,   Ḡ a linear map evaluated at the midpoint configuration (for a contact point at lever r_m from the
//               centre, Δs = P_t (Δx + (R_m θ) × r_m), P_t the tangential projector),
//   f̄_t         the law's algorithmic force (the trapezoidal ½(F_prev + F_t): contact/contact_law.h), and
//   Ḡᵀ f̄_t      = (F_t, τ_t) = (P_t f̄_t, R_mᵀ(r_m × P_t f̄_t)), so that F_t·Δx + τ_t·θ = f̄_t·Δs exactly (algebra),
// with the law's books f̄_t·Δs = U_prev − U_new − W_f + W_g (the work of the load on the body = spring energy
// released − friction work + generated work) written into z_next together with the law's new history
// [Mindlin & Deresiewicz 1953 via Seed002 eqs. 2–19; the discrete-gradient balance of Gonzalez 1996 in the step's
// Cayley coordinate, the rotation update of Simo & Wong 1991; docs/theory.md §6, §7; docs/rotation.md §7].
// The scheme commits z_next only with the accepted step. The stored energy U_t is part of PotentialEnergy (not of
// ConservativeLoad: it is no potential of the configuration alone), W_f and W_g are the model's EnergyBooks, so
// E + D + W_f − W_g is kept to round-off.
//
// The potential V must be the model's PotentialEnergy and (F_c, τ_c) its exact gradient (the scheme's energy
// balance is exact only for the pair it is given); E = ½ m|v_G|² + ½ Ωᵀ I Ω + V. PotentialEnergy(state) must
// be ConservativeLoad(x_G, R(q/|q|)).potential (+ the stored energy U_t of the tangential load's history) with
// q/|q| as Eigen's Quaterniond::normalized() computes it: the scheme evaluates V at the end of a step from the
// stored quaternion read back that way, so that the ΔV of successive steps telescope to round-off (docs/rotation.md §6, "A round-off finding"). Integrators reach this by
// dynamic_cast and know nothing else of the model [docs/architecture.md, "The seams"].
#pragma once

#include <Eigen/Core>

#include "system/mechanical_system.h"

namespace impactlab {

/// Conservative load at one configuration: V and its (negative) gradient.
struct RigidBodyLoad {
  double potential = 0.0;                                  ///< V [J]
  Eigen::Vector3d force = Eigen::Vector3d::Zero();         ///< F_c = −∂V/∂x_G, world frame [N]
  Eigen::Vector3d torque_body = Eigen::Vector3d::Zero();   ///< τ_c = −∂V/∂φ, body frame [N·m]
};

/// Non-conservative load (dampers) at one configuration and velocity.
struct RigidBodyDissipativeLoad {
  Eigen::Vector3d force = Eigen::Vector3d::Zero();         ///< F_d, world frame [N]
  Eigen::Vector3d torque_body = Eigen::Vector3d::Zero();   ///< τ_d, body frame [N·m]
};

/// The configurations of one step of the rotation scheme from (x_n, R_n) with increment ξ = (Δx, θ).
struct RigidBodyStepGeometry {
  Eigen::Vector3d dx = Eigen::Vector3d::Zero();          ///< Δx [m]
  Eigen::Vector3d theta = Eigen::Vector3d::Zero();       ///< θ, body frame [rad]: R_{n+1} = R_n cay(θ̂)
  Eigen::Vector3d centre_mid = Eigen::Vector3d::Zero();  ///< x_n + Δx/2 [m]
  Eigen::Matrix3d rotation_mid = Eigen::Matrix3d::Identity();  ///< R_m = R_n cay(θ̂/2)
  Eigen::Vector3d centre_end = Eigen::Vector3d::Zero();  ///< x_{n+1} [m], as the step stores it
  Eigen::Matrix3d rotation_end = Eigen::Matrix3d::Identity();  ///< R_{n+1} from the stored quaternion read back
  Eigen::Vector4d quaternion_end = Eigen::Vector4d(1.0, 0.0, 0.0, 0.0);  ///< (w, x, y, z) as the step stores it
};

/// The tangential load Ḡᵀ f̄_t of one step and the law's books (see the header).
struct RigidBodyTangentialLoad {
  Eigen::Vector3d force = Eigen::Vector3d::Zero();        ///< F_t = P_t f̄_t, world frame [N]
  Eigen::Vector3d torque_body = Eigen::Vector3d::Zero();  ///< τ_t, body frame [N·m]
  Eigen::Vector3d slip = Eigen::Vector3d::Zero();         ///< Δs = Ḡξ [m]
  double friction_work = 0.0;   ///< W_f of the step (cap removal, spring released at separation) [J]
  double generated_work = 0.0;  ///< W_g of the step (energy the law creates) [J], signed
};

class RigidBodySystem : public MechanicalSystem {
 public:
  /// m [kg] > 0.
  virtual double Mass() const = 0;
  /// Principal moments (I₁, I₂, I₃) [kg·m²], all > 0.
  virtual Eigen::Vector3d PrincipalMoments() const = 0;
  /// V, F_c, τ_c at centre x_G [m] and rotation R (orthogonal, body → world).
  virtual RigidBodyLoad ConservativeLoad(const Eigen::Vector3d& centre, const Eigen::Matrix3d& rotation) const = 0;
  /// F_d, τ_d at (x_G, R) with world velocity v_G [m/s] and body angular velocity Ω [rad/s].
  virtual RigidBodyDissipativeLoad DissipativeLoad(const Eigen::Vector3d& centre, const Eigen::Matrix3d& rotation,
                                                   const Eigen::Vector3d& velocity,
                                                   const Eigen::Vector3d& omega_body) const = 0;
  /// Ḡᵀ f̄_t of the step from the committed state `before` (its history z) with the configurations `step`, and
  /// the history after it into `z_next` (sized as before.z by the caller; the scheme keeps it only if the step is
  /// accepted). A body without a tangential contact keeps the default: no load, z unchanged.
  virtual RigidBodyTangentialLoad DiscreteTangentialLoad(const MechanicalState& before,
                                                         const RigidBodyStepGeometry& step,
                                                         Eigen::VectorXd& z_next) const {
    (void)step;
    z_next = before.z;
    return {};
  }
};

}  // namespace impactlab
