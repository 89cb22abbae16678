// Test helpers for the sparse Newton Jacobian of the contact seam (system/discrete_contact_jacobian.h): a model's
// DiscreteContactSystem with its blocks hidden (the scheme then takes the dense forward difference), and the dense
// forward difference of the whole step force F̄ column by column, with the step rule the scheme and the blocks use
// (system/contact_block_difference.h), as the reference the blocks are compared with.
#pragma once

#include <Eigen/Core>
#include <Eigen/SparseCore>
#include <cstddef>

#include "system/contact_block_difference.h"
#include "system/discrete_contact_jacobian.h"
#include "system/discrete_contact_system.h"

namespace impactlab::testing {

/// `model`'s DiscreteContactSystem without its DiscreteContactJacobian.
template <class Model>
class WithoutBlocks final : public DiscreteContactSystem {
 public:
  explicit WithoutBlocks(const Model& model) : model_(model) {}
  Eigen::VectorXd DiscreteMassDiagonal() const override { return model_.DiscreteMassDiagonal(); }
  void EvaluateDiscreteStep(const MechanicalState& before, const Eigen::VectorXd& q1, double h,
                            DiscreteGradientForm form, DiscreteContactStep& out) const override {
    model_.EvaluateDiscreteStep(before, q1, h, form, out);
  }

 private:
  const Model& model_;
};

/// ∂F̄/∂q₁ at (before, q1, h, form) by forward differences over every coordinate (n + 1 evaluations of F̄).
inline Eigen::MatrixXd DenseStepForceDifference(const DiscreteContactSystem& model, const MechanicalState& before,
                                                const Eigen::VectorXd& q1, double h, DiscreteGradientForm form,
                                                double motion) {
  const Eigen::Index n = q1.size();
  DiscreteContactStep base, probe;
  model.EvaluateDiscreteStep(before, q1, h, form, base);
  Eigen::MatrixXd jd(n, n);
  Eigen::VectorXd qp = q1;
  for (Eigen::Index c = 0; c < n; ++c) {
    qp[c] = q1[c] + ForwardDifferenceStep(q1[c], motion);
    const double e = qp[c] - q1[c];
    model.EvaluateDiscreteStep(before, qp, h, form, probe);
    jd.col(c) = (probe.force - base.force) / e;
    qp[c] = q1[c];
  }
  return jd;
}

/// The model's blocks at (before, q1, h, form) assembled into a dense n × n matrix; `entries` = how many block entries.
inline Eigen::MatrixXd DenseFromBlocks(const DiscreteContactJacobian& model, const MechanicalState& before,
                                       const Eigen::VectorXd& q1, double h, DiscreteGradientForm form, double motion,
                                       std::size_t& entries) {
  SparseEntries triplets;
  model.AppendDiscreteStepJacobian(before, q1, h, form, motion, triplets);
  entries = triplets.size();
  Eigen::SparseMatrix<double> blocks(q1.size(), q1.size());
  blocks.setFromTriplets(triplets.begin(), triplets.end());
  return Eigen::MatrixXd(blocks);
}

}  // namespace impactlab::testing
