// Test helpers for the sparse Newton Jacobian of the contact seam (system/discrete_contact_jacobian.h): a model's
// DiscreteContactSystem with its blocks hidden (the scheme then takes the dense forward difference), and the dense
// forward difference of the whole step force F̄ column by column, with the step rule the scheme and the blocks use
// (system/contact_block_difference.h); a model's blocks compared with it, and one contact step solved both ways.
#pragma once

#include <Eigen/Core>
#include <Eigen/SparseCore>
#include <cstddef>

#include "system/contact_block_difference.h"
#include "system/discrete_contact_jacobian.h"
#include "system/discrete_contact_system.h"
#include "integrators/midpoint_family_integrator.h"

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

/// A model's blocks at (before, q1, h, form) against the dense forward difference of its whole step force.
struct BlocksAgainstDense {
  Eigen::MatrixXd blocks;     ///< the blocks assembled into a dense n × n matrix
  std::size_t entries = 0;    ///< how many block entries
  double largest = 0.0;       ///< max |∂F̄/∂q₁| of the dense difference
  double difference = 0.0;    ///< max |blocks − dense|
};

template <class Model>  // a DiscreteContactSystem with its DiscreteContactJacobian
BlocksAgainstDense CompareBlocksWithDense(const Model& model, const MechanicalState& before, const Eigen::VectorXd& q1,
                                          double h, DiscreteGradientForm form, double motion) {
  BlocksAgainstDense out;
  SparseEntries triplets;
  model.AppendDiscreteStepJacobian(before, q1, h, form, motion, triplets);
  out.entries = triplets.size();
  Eigen::SparseMatrix<double> blocks(q1.size(), q1.size());
  blocks.setFromTriplets(triplets.begin(), triplets.end());
  out.blocks = Eigen::MatrixXd(blocks);
  const Eigen::MatrixXd dense = DenseStepForceDifference(model, before, q1, h, form, motion);
  out.largest = dense.lpNorm<Eigen::Infinity>();
  out.difference = (out.blocks - dense).lpNorm<Eigen::Infinity>();
  return out;
}

/// One midpoint contact step from the same start q₁ solved twice: with the model's blocks and with the dense forward
/// difference (the model behind WithoutBlocks).
struct BlocksAndDenseStep {
  Eigen::VectorXd q_sparse, q_dense;
  DiscreteContactStep sparse_step, dense_step;
  NewtonReport sparse, dense;
  long sparse_evaluations = 0, dense_evaluations = 0;
};

template <class Model>
BlocksAndDenseStep SolveWithBlocksAndDense(const Model& model, const MechanicalState& before,
                                           const Eigen::VectorXd& q_start, double h, DiscreteGradientForm form,
                                           const NewtonOptions& options) {
  const WithoutBlocks<Model> dense_model(model);
  BlocksAndDenseStep out;
  out.q_sparse = out.q_dense = q_start;
  out.sparse = SolveDiscreteContactStep(model, before, out.q_sparse, h, form, options, out.sparse_step,
                                        out.sparse_evaluations);
  out.dense = SolveDiscreteContactStep(dense_model, before, out.q_dense, h, form, options, out.dense_step,
                                       out.dense_evaluations);
  return out;
}

}  // namespace impactlab::testing
