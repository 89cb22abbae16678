#include "models/bead_chain.h"

#include "core/checks.h"

namespace impactlab {

void BeadChainParameters::Validate() const {
  if (num_beads < 2 || num_beads > 1'000'000) throw InvalidParameter("num_beads", num_beads, "[2, 1e6]");
  RequirePositive("m", mass);
  RequirePositive("R", radius);
  RequirePositive("v0", impact_velocity);
  RequireNonNegative("initial_gap", initial_gap);
}

namespace {

std::vector<std::pair<int, int>> NeighbourPairs(int n) {
  std::vector<std::pair<int, int>> pairs;
  for (int i = 0; i + 1 < n; ++i) pairs.emplace_back(i, i + 1);
  return pairs;
}

const BeadChainParameters& Validated(const BeadChainParameters& p) {
  p.Validate();
  return p;
}


// Reference positions X_i = 2R i: the touching lattice.
Eigen::VectorXd Lattice(int n, double radius) {
  Eigen::VectorXd x(n);
  for (int i = 0; i < n; ++i) x[i] = 2.0 * radius * i;
  return x;
}

}  // namespace

BeadChain::BeadChain(BeadChainParameters parameters, DampedNormalLaw law)
    : ParticleAssembly(1, std::vector<double>(Validated(parameters).num_beads, parameters.mass),
                       std::vector<double>(parameters.num_beads, parameters.radius),
                       Lattice(parameters.num_beads, parameters.radius), NeighbourPairs(parameters.num_beads),
                       std::move(law)),
      p_(parameters) {}

MechanicalState BeadChain::InitialState() const {
  MechanicalState s;
  s.q = Eigen::VectorXd::Zero(p_.num_beads);  // displacements from the touching lattice
  s.v = Eigen::VectorXd::Zero(p_.num_beads);
  s.q[0] = -p_.initial_gap;
  s.v[0] = p_.impact_velocity;
  s.z.resize(0);
  return s;
}

}  // namespace impactlab
