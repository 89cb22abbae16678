// DiscreteContactJacobian: the optional side of DiscreteContactSystem (system/discrete_contact_system.h) through which
// a model offers the Jacobian of its discrete contact force contact by contact, so that the midpoint-type schemes
// solve their Newton systems with a sparse matrix instead of a dense forward-difference one (issue 19 item 4):
//
//   R(q₁) = (2M/h²)(q₁ − q_n − h v_n) + F̄(state_n, q₁),   F̄ = Σ_c P_cᵀ f̄_c(P_c q₁) − f_ext
//   J = ∂R/∂q₁ = 2M/h² + Σ_c P_cᵀ (∂f̄_c/∂x_c) P_c
//
// where contact c couples the coordinates x_c = P_c q₁ of at most two bodies (two spheres: 12 coordinates; a sphere
// and a wall: 6) and f̄_c is its algorithmic force on them (the same terms EvaluateDiscreteStep sums). Each block
// ∂f̄_c/∂x_c is dense and small; the model computes it (analytically, or by forward differences of f̄_c alone:
// system/contact_block_difference.h) and gives all of its entries, zeros included, in contact order, as a block
// layout and a value array (system/contact_blocks.h). So the assembled pattern is a function of the contact list
// only: while the list does not change, the scheme's BlockSparseAssembler (system/block_sparse_assembly.h) refills
// the matrix values straight from the blocks into the kept pattern and the linear solver keeps its symbolic
// analysis. Cost O(contacts) per Jacobian against O(n) evaluations of F̄ (O(n²)) for the dense forward
// difference, and O(nnz) memory against 8n² bytes.
//
// The scheme reaches it by dynamic_cast, as the other optional structures; a model without it keeps the dense
// forward-difference Jacobian (integrators/midpoint_family_integrator.h). The model knows nothing about the scheme
// beyond the DiscreteGradientForm; the scheme knows nothing about the model's contacts.
#pragma once

#include <Eigen/Core>

#include "contact/contact_law.h"
#include "state/mechanical_state.h"
#include "system/contact_blocks.h"
#include "system/sparse_assembly.h"

namespace impactlab {

class DiscreteContactJacobian {
 public:
  virtual ~DiscreteContactJacobian() = default;
  /// ∂F̄/∂q₁ at (before, q1, h, form) as blocks (layout and values replaced): one dense block per contact of the
  /// step (the contacts EvaluateDiscreteStep sums), in contact order. `motion` = ‖q₁ − q_n‖∞ + h‖v_n‖∞ [m] sets the
  /// forward-difference step where one is used (ContactBlockDifference). The inertia term 2M/h² is not included.
  virtual void DiscreteStepJacobianBlocks(const MechanicalState& before, const Eigen::VectorXd& q1, double h,
                                          DiscreteGradientForm form, double motion, ContactBlocks& blocks) const = 0;
  /// The same blocks appended as triplets (ContactBlocks::AppendTriplets order).
  void AppendDiscreteStepJacobian(const MechanicalState& before, const Eigen::VectorXd& q1, double h,
                                  DiscreteGradientForm form, double motion, SparseEntries& entries) const {
    ContactBlocks blocks;
    DiscreteStepJacobianBlocks(before, q1, h, form, motion, blocks);
    blocks.AppendTriplets(entries);
  }
};

}  // namespace impactlab
