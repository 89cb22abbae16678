#include "integrators/siconos/siconos_model_data.h"

#include <algorithm>

#include "core/errors.h"
#include "system/constant_mass_system.h"
#include "system/pair_potential_structure.h"

namespace impactlab {

std::string SiconosUnsupportedReason(const MechanicalSystem& system, const MechanicalState& state) {
  // (Built with append: GCC 12 -O3 warns a false -Wrestrict on "literal" + std::string + "literal".)
  std::string quoted(1, '"');
  quoted.append(system.name()).push_back('"');
  std::string reason;
  const auto* cms = dynamic_cast<const ConstantMassSystem*>(&system);
  const auto* structure = dynamic_cast<const PairPotentialStructure*>(&system);
  if (!cms || !structure) {
    reason = "Siconos needs the contacts declared as gap functions with Jacobians (PairPotentialStructure terms) "
             "on a constant-mass model; ";
    reason.append(quoted).append(" does not declare them");
    return reason;
  }
  if (state.q.size() != state.v.size()) return "q and v differ in size (rotation coordinates)";
  if (structure->ContactTerms().empty()) return reason.append(quoted).append(" declares no contact");
  Eigen::VectorXd g_model(state.q.size()), g_structure(state.q.size());
  cms->PotentialGradient(state.q, g_model);
  StructurePotentialGradient(*structure, state.q, g_structure);
  const double scale = std::max({g_model.lpNorm<Eigen::Infinity>(), g_structure.lpNorm<Eigen::Infinity>(), 1e-300});
  if ((g_model - g_structure).lpNorm<Eigen::Infinity>() > 1e-12 * scale)
    return reason.append(quoted).append(" has forces besides its declared contact terms (e.g. a spring), which a "
                                        "Siconos Lagrangian relation cannot carry");
  return "";
}

SiconosModelData ExtractSiconosModel(const MechanicalSystem& system, const MechanicalState& state) {
  if (const std::string why = SiconosUnsupportedReason(system, state); !why.empty())
    throw InvalidParameter("model", "\"" + system.name() + "\"", "a model Siconos can express: " + why);
  const auto& cms = dynamic_cast<const ConstantMassSystem&>(system);
  const auto& structure = dynamic_cast<const PairPotentialStructure&>(system);
  SiconosModelData d;
  d.t0 = state.t;
  d.q = state.q;
  d.v = state.v;
  d.mass = cms.MassDiagonal();
  d.force.resize(state.q.size());
  cms.ExternalForce(state.t, d.force);
  const Eigen::VectorXd b = structure.LinearPotentialCoefficients();
  if (b.size() == d.force.size()) d.force -= b;
  d.terms = structure.ContactTerms();
  return d;
}

double DiagonalKineticEnergy(const Eigen::VectorXd& mass, const Eigen::VectorXd& v) {
  return 0.5 * mass.dot(v.cwiseAbs2());
}

}  // namespace impactlab
