// Contact terms of a PairPotentialStructure written out for tests (system/pair_potential_structure.h): a wall term
// δ = offset + sign · q[coordinate] and a pair term δ = R − |q_b − q_a + o| along `dim` coordinates.
#pragma once

#include <memory>
#include <utility>

#include "system/pair_potential_structure.h"

namespace impactlab::testing {

inline ContactTerm WallTerm(Eigen::Index coordinate, double sign, double offset,
                            std::shared_ptr<const NormalContactLaw> elastic,
                            std::shared_ptr<const DampingLaw> damping) {
  ContactTerm t;
  t.kind = ContactTerm::Kind::kWall;
  t.wall_gradient = {{coordinate, sign}};
  t.wall_offset = offset;
  t.elastic = std::move(elastic);
  t.damping = std::move(damping);
  return t;
}

/// `offset` o_ab: empty for none (coordinates are positions), else of size `dim` (displacements from references).
inline ContactTerm PairTerm(Eigen::Index first_a, Eigen::Index first_b, int dim, double radius_sum,
                            std::shared_ptr<const NormalContactLaw> elastic, std::shared_ptr<const DampingLaw> damping,
                            Eigen::VectorXd offset = {}) {
  ContactTerm t;
  t.kind = ContactTerm::Kind::kPair;
  t.first_a = first_a;
  t.first_b = first_b;
  t.dim = dim;
  t.radius_sum = radius_sum;
  t.pair_offset = std::move(offset);
  t.elastic = std::move(elastic);
  t.damping = std::move(damping);
  return t;
}

}  // namespace impactlab::testing
