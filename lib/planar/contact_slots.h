// ContactSlots: enumeration of the contact pairs of N bodies and W fixed walls, and the broad phase.
//   slots 0 .. W·N−1:       wall w, body i  → slot w·N + i
//   slots W·N .. W·N+N(N−1)/2−1: body pair (i, j), i < j, in lexicographic order
// Broad phase: bounding circles (radius R_i = max semi-axis): a wall slot is a candidate when
// n·(x_i − p) < R_i, a pair when |x_i − x_j| < R_i + R_j, at either of the two configurations. This is a
// superset of the slots in contact at either configuration. The pair tests run on the pairs that the
// cell list (lib/geometry/cell_list.h) finds within max (R_i + R_j) at each configuration, read from a neighbour
// list with a skin of 5 % of that cutoff (lib/geometry/verlet_list.h: the same pairs): cost O(W N + N)
// per call instead of O(W N + N²), the same slots in the same (ascending) order as the all-pairs loop
// (CandidatesAllPairs, kept as the reference and as the fallback for a non-finite configuration).
// The slot enumeration itself (num_slots = W N + N(N−1)/2) stays dense.
#pragma once

#include <Eigen/Core>
#include <vector>

#include "planar/wall.h"

namespace impactlab {

struct SlotParticipants {
  int wall = -1;    ///< wall index, or −1 for a body pair
  int body_a = -1;  ///< first body of a pair (−1 for a wall slot)
  int body_b = 0;   ///< the body (wall slot) or the second body of a pair
};

class ContactSlots {
 public:
  ContactSlots(int num_bodies, int num_walls);

  int num_slots() const { return static_cast<int>(slots_.size()); }
  const SlotParticipants& participants(int slot) const { return slots_[static_cast<size_t>(slot)]; }
  int WallSlot(int wall, int body) const { return wall * num_bodies_ + body; }

  /// Bounding-circle broad phase at q_a and q_b (union), appended sorted to `out` (cleared first).
  void Candidates(const std::vector<double>& radii, const std::vector<Wall>& walls, const Eigen::VectorXd& q_a,
                  const Eigen::VectorXd& q_b, std::vector<int>& out) const;
  /// The same candidates by testing every slot (O(W N + N²)): the reference for tests.
  void CandidatesAllPairs(const std::vector<double>& radii, const std::vector<Wall>& walls, const Eigen::VectorXd& q_a,
                          const Eigen::VectorXd& q_b, std::vector<int>& out) const;
  /// The broad phase's test for one slot at one configuration: what Candidates(q, q) decides for it, O(1).
  bool IsCandidate(int slot, const std::vector<double>& radii, const std::vector<Wall>& walls,
                   const Eigen::VectorXd& q) const;
  /// Slot of the body pair (i, j), i < j.
  int PairSlot(int i, int j) const;

 private:
  int num_bodies_ = 0, num_walls_ = 0;
  std::vector<SlotParticipants> slots_;
};

}  // namespace impactlab
