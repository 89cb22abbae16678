#include "planar/contact_slots.h"

#include <algorithm>
#include <utility>

#include "geometry/verlet_list.h"

namespace impactlab {

ContactSlots::ContactSlots(int num_bodies, int num_walls) : num_bodies_(num_bodies), num_walls_(num_walls) {
  for (int w = 0; w < num_walls; ++w)
    for (int i = 0; i < num_bodies; ++i) slots_.push_back({w, -1, i});
  for (int i = 0; i < num_bodies; ++i)
    for (int j = i + 1; j < num_bodies; ++j) slots_.push_back({-1, i, j});
}

int ContactSlots::PairSlot(int i, int j) const {
  const int n = num_bodies_;
  return num_walls_ * n + i * n - i * (i + 1) / 2 + (j - i - 1);
}

void ContactSlots::Candidates(const std::vector<double>& radii, const std::vector<Wall>& walls,
                              const Eigen::VectorXd& q_a, const Eigen::VectorXd& q_b, std::vector<int>& out) const {
  const int n = num_bodies_;
  if (n < 2 || !q_a.allFinite() || !q_b.allFinite()) return CandidatesAllPairs(radii, walls, q_a, q_b, out);
  out.clear();
  auto centre = [](const Eigen::VectorXd& q, int i) { return Eigen::Vector2d(q[3 * i], q[3 * i + 1]); };
  // Wall slots: the same test as CandidatesAllPairs, in slot order.
  for (int s = 0; s < num_walls_ * n; ++s) {
    const SlotParticipants& p = slots_[static_cast<size_t>(s)];
    const Wall& w = walls[static_cast<size_t>(p.wall)];
    const double r = radii[static_cast<size_t>(p.body_b)];
    if (w.normal.dot(centre(q_a, p.body_b) - w.point) < r || w.normal.dot(centre(q_b, p.body_b) - w.point) < r)
      out.push_back(s);
  }
  // Pair slots: the cell list's pairs (through a neighbour list) at each configuration with the largest R_i + R_j
  // (+1e-6 relative), then the exact test of CandidatesAllPairs on those pairs only; sorted and deduplicated → the
  // same slots, ascending.
  const double r_max = *std::max_element(radii.begin(), radii.begin() + n);
  const double cutoff = 2.0 * r_max * (1.0 + 1e-6);
  // Per-thread storage (the slots are const and may be shared between threads): no allocation once sized. The
  // neighbour list gives exactly the cell list's pairs (geometry/verlet_list.h); its skin, 5 % of the cutoff, holds
  // for both configurations of a step as long as neither is half of it from the list's last build.
  thread_local std::vector<double> x;
  thread_local std::vector<std::pair<int, int>> near;
  thread_local VerletList neighbours;
  x.resize(static_cast<size_t>(2 * n));
  near.reserve(static_cast<size_t>(num_slots()));
  neighbours.Reserve(static_cast<size_t>(num_slots()));
  const size_t first_pair = out.size();
  for (const Eigen::VectorXd* q : {&q_a, &q_b}) {
    for (int i = 0; i < n; ++i) {
      x[static_cast<size_t>(2 * i)] = (*q)[3 * i];
      x[static_cast<size_t>(2 * i + 1)] = (*q)[3 * i + 1];
    }
    neighbours.Pairs(2, x, cutoff, 0.05 * cutoff, near);
    for (const auto& [i, j] : near) {
      const double r = radii[static_cast<size_t>(i)] + radii[static_cast<size_t>(j)];
      if ((centre(q_a, i) - centre(q_a, j)).squaredNorm() < r * r ||
          (centre(q_b, i) - centre(q_b, j)).squaredNorm() < r * r)
        out.push_back(PairSlot(i, j));
    }
  }
  std::sort(out.begin() + static_cast<std::ptrdiff_t>(first_pair), out.end());
  out.erase(std::unique(out.begin() + static_cast<std::ptrdiff_t>(first_pair), out.end()), out.end());
}

void ContactSlots::CandidatesAllPairs(const std::vector<double>& radii, const std::vector<Wall>& walls,
                                      const Eigen::VectorXd& q_a, const Eigen::VectorXd& q_b,
                                      std::vector<int>& out) const {
  out.clear();
  for (int s = 0; s < num_slots(); ++s)
    if (IsCandidate(s, radii, walls, q_a) || IsCandidate(s, radii, walls, q_b)) out.push_back(s);
}

bool ContactSlots::IsCandidate(int slot, const std::vector<double>& radii, const std::vector<Wall>& walls,
                               const Eigen::VectorXd& q) const {
  auto centre = [&q](int i) { return Eigen::Vector2d(q[3 * i], q[3 * i + 1]); };
  const SlotParticipants& p = slots_[static_cast<size_t>(slot)];
  if (p.wall >= 0) {
    const Wall& w = walls[static_cast<size_t>(p.wall)];
    return w.normal.dot(centre(p.body_b) - w.point) < radii[static_cast<size_t>(p.body_b)];
  }
  const double r = radii[static_cast<size_t>(p.body_a)] + radii[static_cast<size_t>(p.body_b)];
  return (centre(p.body_a) - centre(p.body_b)).squaredNorm() < r * r;
}

}  // namespace impactlab
