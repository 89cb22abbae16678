#include "integrators/siconos/siconos_model_data.h"

#include <algorithm>
#include <vector>

#include "core/errors.h"
#include "system/constant_mass_system.h"
#include "system/discrete_contact_system.h"
#include "system/frictional_contact_structure.h"
#include "system/rigid_rotation_system.h"
#include "system/pair_potential_structure.h"

namespace impactlab {

namespace {

// Indices of the unilateral contact terms: laws with no force and no energy when separated (δ = −1 m). A
// bilateral term (e.g. the harmonic oscillator's spring, contact/bilateral_linear_spring.h) is not a contact:
// it stays in the smooth dynamics (the linear part K q + c below), never becomes a constraint.
std::vector<int> UnilateralTerms(const PairPotentialStructure& structure) {
  std::vector<int> out;
  const auto& terms = structure.ContactTerms();
  for (int i = 0; i < static_cast<int>(terms.size()); ++i)
    if (terms[i].elastic && terms[i].elastic->Force(-1.0) == 0.0 && terms[i].elastic->Potential(-1.0) == 0.0)
      out.push_back(i);
  return out;
}

struct Residual {
  std::string why;  ///< empty when expressible
  Eigen::MatrixXd stiffness;
  Eigen::VectorXd offset;  ///< c
};

double Scale(const Eigen::VectorXd& a, const Eigen::VectorXd& b) {
  return std::max({a.lpNorm<Eigen::Infinity>(), b.lpNorm<Eigen::Infinity>(), 1e-300});
}

// r(q) = ∇V_model(q) − ∇V_contacts(q) = K q + c (V_contacts: the unilateral terms), or the reason it is not.
Residual AnalyseResidual(const ConstantMassSystem& cms, const PairPotentialStructure& structure,
                         const MechanicalState& state, const std::string& quoted) {
  Residual out;
  const Eigen::Index n = state.q.size();
  const std::vector<int> contacts = UnilateralTerms(structure);
  auto residual = [&](const Eigen::VectorXd& q, double& scale) {
    Eigen::VectorXd g_model(n), g_structure(n);
    cms.PotentialGradient(q, g_model);
    StructurePotentialGradient(structure, q, g_structure, &contacts);
    scale = Scale(g_model, g_structure);
    return Eigen::VectorXd(g_model - g_structure);
  };
  double scale0 = 0.0;
  const Eigen::VectorXd r0 = residual(state.q, scale0);
  const Eigen::MatrixXd k = Eigen::MatrixXd(cms.PotentialHessian(state.q)) -
                            Eigen::MatrixXd(StructurePotentialHessian(structure, state.q, &contacts));
  if (r0.lpNorm<Eigen::Infinity>() <= 1e-12 * scale0 && k.lpNorm<Eigen::Infinity>() == 0.0) return out;
  // A second point, displaced by 1e-3 of the coordinates' size, must follow r = K q + c.
  const double dq = 1e-3 * std::max(1.0, state.q.lpNorm<Eigen::Infinity>());
  const Eigen::VectorXd q1 = state.q + Eigen::VectorXd::LinSpaced(n, dq, 2.0 * dq);
  double scale1 = 0.0;
  const Eigen::VectorXd r1 = residual(q1, scale1);
  if ((r1 - r0 - k * (q1 - state.q)).lpNorm<Eigen::Infinity>() > 1e-8 * std::max(scale0, scale1)) {
    out.why = quoted;
    out.why.append(" has nonlinear forces besides its declared contact terms, which Siconos' linear Lagrangian "
                   "system cannot carry");
    return out;
  }
  out.stiffness = k;
  out.offset = r0 - k * state.q;
  return out;
}

}  // namespace

std::string SiconosUnsupportedReason(const MechanicalSystem& system, const MechanicalState& state) {
  // (Built with append: GCC 12 -O3 warns a false -Wrestrict on "literal" + std::string + "literal".)
  std::string quoted(1, '"');
  quoted.append(system.name()).push_back('"');
  std::string reason;
  if (const auto* frictional = dynamic_cast<const FrictionalContactStructure*>(&system)) {
    if (state.q.size() != state.v.size() || frictional->FrictionalMassDiagonal().size() != state.q.size())
      return reason.append(quoted).append(" declares frictional contacts but q, v and diag(M) differ in size");
    try {
      frictional->CheckFrictionalDeclaration();
    } catch (const InvalidParameter& e) {
      return e.what();
    }
    return "";
  }
  const auto* cms = dynamic_cast<const ConstantMassSystem*>(&system);
  const auto* structure = dynamic_cast<const PairPotentialStructure*>(&system);
  if (!cms || !structure) {
    // Say which structure the model declares instead (interfaces only: nothing model-specific here).
    reason = "Siconos needs the contacts declared as gap functions with Jacobians (PairPotentialStructure terms) "
             "on a constant-mass model; ";
    reason.append(quoted);
    if (dynamic_cast<const RigidRotationSystem*>(&system))
      reason.append(" rotates in 3-D on unit quaternions (no constant mass matrix, no declared contact)");
    else if (dynamic_cast<const DiscreteContactSystem*>(&system))
      reason.append(" declares its contacts as compliant-law kinematics for the discrete-gradient schemes "
                    "(DiscreteContactSystem: gap, tangential map, history-dependent friction), not as gap "
                    "functions with Jacobians");
    else if (cms)
      reason.append(" has its contact inside the potential V(q) (e.g. a volume law), with no gap function");
    else
      reason.append(" does not declare them");
    return reason;
  }
  if (state.q.size() != state.v.size()) return "q and v differ in size (rotation coordinates)";
  const Eigen::MatrixXd extra_damping = Eigen::MatrixXd(cms->DampingMatrix(state.q)) -
                                        Eigen::MatrixXd(StructureDampingMatrix(*structure, state.q));
  // (All terms' dampers: a damped bilateral term would be a dashpot the linear Lagrangian system does not carry.)
  if (extra_damping.lpNorm<Eigen::Infinity>() != 0.0)
    return reason.append(quoted).append(" has dampers besides those of its contact terms");
  return AnalyseResidual(*cms, *structure, state, quoted).why;
}

SiconosModelData ExtractSiconosModel(const std::string& integrator, const MechanicalSystem& system,
                                     const MechanicalState& state) {
  // A model's own limit is its own one-line error (parameter, value, valid range), not wrapped in `integrator`.
  if (const auto* frictional = dynamic_cast<const FrictionalContactStructure*>(&system))
    frictional->CheckFrictionalDeclaration();
  if (const std::string why = SiconosUnsupportedReason(system, state); !why.empty()) {
    std::string value(1, '"');
    value.append(integrator).append("\" on model \"").append(system.name()).push_back('"');
    throw InvalidParameter("integrator", value, "a model Siconos can express: " + why);
  }
  if (const auto* frictional = dynamic_cast<const FrictionalContactStructure*>(&system)) {
    SiconosModelData d;
    d.t0 = state.t;
    d.q = state.q;
    d.v = state.v;
    d.mass = frictional->FrictionalMassDiagonal();
    d.force = frictional->ConstantForce();
    d.frictional = frictional;
    d.calibrated_restitution = frictional->CalibratedRestitution();
    return d;
  }
  const auto& cms = dynamic_cast<const ConstantMassSystem&>(system);
  const auto& structure = dynamic_cast<const PairPotentialStructure&>(system);
  std::string quoted(1, '"');
  quoted.append(system.name()).push_back('"');
  const Residual residual = AnalyseResidual(cms, structure, state, quoted);
  SiconosModelData d;
  d.t0 = state.t;
  d.q = state.q;
  d.v = state.v;
  d.mass = cms.MassDiagonal();
  d.force.resize(state.q.size());
  cms.ExternalForce(state.t, d.force);
  const Eigen::VectorXd b = structure.LinearPotentialCoefficients();
  if (b.size() == d.force.size()) d.force -= b;
  if (residual.stiffness.size() != 0) {
    d.stiffness = residual.stiffness;
    d.force -= residual.offset;
  }
  for (int i : UnilateralTerms(structure)) d.terms.push_back(structure.ContactTerms()[static_cast<size_t>(i)]);
  return d;
}

EnergyTerms SiconosRigidEnergyBooks(const MechanicalSystem& system, const MechanicalState& s) {
  EnergyTerms e;
  e.damping_work = s.dissipated;
  if (const auto* frictional = dynamic_cast<const FrictionalContactStructure*>(&system)) {
    e.kinetic = DiagonalKineticEnergy(frictional->FrictionalMassDiagonal(), s.v);
    const Eigen::VectorXd f = frictional->ConstantForce();
    if (f.size() == s.q.size() && f.lpNorm<Eigen::Infinity>() != 0.0) e.stored = {{"external_potential", -f.dot(s.q)}};
    return e;
  }
  const auto* structure = dynamic_cast<const PairPotentialStructure*>(&system);
  e.kinetic = system.KineticEnergy(s);
  double potential = system.PotentialEnergy(s);
  if (structure) {
    const std::vector<int> contacts = UnilateralTerms(*structure);
    // StructurePotential = Σ W_k + bᵀq: remove the contact terms only.
    double contact_energy = StructurePotential(*structure, s.q, &contacts);
    const Eigen::VectorXd b = structure->LinearPotentialCoefficients();
    if (b.size() == s.q.size()) contact_energy -= b.dot(s.q);
    potential -= contact_energy;
  }
  e.stored = {{"potential", potential}};
  return e;
}

double NewtonRestitution(const std::optional<double>& scenario, const SiconosModelData& data) {
  return scenario.value_or(data.calibrated_restitution.value_or(1.0));
}

std::string RestitutionText(const std::optional<double>& scenario) {
  return scenario ? InvalidParameter::FormatNumber(*scenario) : "the model's calibrated e_n (1 if it has none)";
}

double DiagonalKineticEnergy(const Eigen::VectorXd& mass, const Eigen::VectorXd& v) {
  return 0.5 * mass.dot(v.cwiseAbs2());
}

}  // namespace impactlab
