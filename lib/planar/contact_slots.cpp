#include "planar/contact_slots.h"

namespace impactlab {

ContactSlots::ContactSlots(int num_bodies, int num_walls) : num_bodies_(num_bodies) {
  for (int w = 0; w < num_walls; ++w)
    for (int i = 0; i < num_bodies; ++i) slots_.push_back({w, -1, i});
  for (int i = 0; i < num_bodies; ++i)
    for (int j = i + 1; j < num_bodies; ++j) slots_.push_back({-1, i, j});
}

void ContactSlots::Candidates(const std::vector<double>& radii, const std::vector<Wall>& walls,
                              const Eigen::VectorXd& q_a, const Eigen::VectorXd& q_b, std::vector<int>& out) const {
  out.clear();
  auto centre = [](const Eigen::VectorXd& q, int i) { return Eigen::Vector2d(q[3 * i], q[3 * i + 1]); };
  for (int s = 0; s < num_slots(); ++s) {
    const SlotParticipants& p = slots_[static_cast<size_t>(s)];
    bool candidate = false;
    for (const Eigen::VectorXd* q : {&q_a, &q_b}) {
      if (p.wall >= 0) {
        const Wall& w = walls[static_cast<size_t>(p.wall)];
        candidate = candidate || w.normal.dot(centre(*q, p.body_b) - w.point) < radii[static_cast<size_t>(p.body_b)];
      } else {
        const double r = radii[static_cast<size_t>(p.body_a)] + radii[static_cast<size_t>(p.body_b)];
        candidate = candidate || (centre(*q, p.body_a) - centre(*q, p.body_b)).squaredNorm() < r * r;
      }
    }
    if (candidate) out.push_back(s);
  }
}

}  // namespace impactlab
