#include "models/disk_cloud.h"

#include <cmath>
#include <random>

#include "core/checks.h"

namespace impactlab {

std::string DiskCloudParameters::MaxDisksRange() {
  return "an integer in [2, " + std::to_string(kMaxDisks) +
         "] (the contact list is dense: N(N - 1)/2 pair terms, 1 999 000 at N = 2000, 0.44 GB)";
}

void DiskCloudParameters::Validate() const {
  if (num_disks < 2 || num_disks > kMaxDisks) throw InvalidParameter("num_disks", num_disks, MaxDisksRange());
  RequirePositive("m", mass);
  RequirePositive("R", radius);
  RequireInLeftOpen("spacing_gap", spacing_gap, 0.0, 10.0);
  RequireNonNegative("contraction_speed", contraction_speed);
  RequireNonNegative("random_speed", random_speed);
}

namespace {

std::vector<std::pair<int, int>> AllPairs(int n) {
  std::vector<std::pair<int, int>> pairs;
  for (int a = 0; a < n; ++a)
    for (int b = a + 1; b < n; ++b) pairs.emplace_back(a, b);
  return pairs;
}

// Reference positions: the square grid of spacing 2R(1 + gap) (the jitter goes into the displacements).
Eigen::VectorXd Grid(const DiskCloudParameters& p) {
  const int side = static_cast<int>(std::ceil(std::sqrt(static_cast<double>(p.num_disks))));
  const double spacing = 2.0 * p.radius * (1.0 + p.spacing_gap);
  Eigen::VectorXd x(2 * p.num_disks);
  for (int b = 0; b < p.num_disks; ++b) x.segment<2>(2 * b) = Eigen::Vector2d(spacing * (b % side), spacing * (b / side));
  return x;
}

const DiskCloudParameters& Validated(const DiskCloudParameters& p) {
  p.Validate();
  return p;
}

}  // namespace

DiskCloud::DiskCloud(DiskCloudParameters parameters, DampedNormalLaw law)
    : ParticleAssembly(2, std::vector<double>(Validated(parameters).num_disks, parameters.mass),
                       std::vector<double>(parameters.num_disks, parameters.radius), Grid(parameters),
                       AllPairs(parameters.num_disks), std::move(law)),
      p_(parameters) {
  const int n = p_.num_disks;
  const int side = static_cast<int>(std::ceil(std::sqrt(static_cast<double>(n))));
  const double spacing = 2.0 * p_.radius * (1.0 + p_.spacing_gap);
  const double jitter = 0.25 * 2.0 * p_.radius * p_.spacing_gap;
  const double half_width = 0.5 * spacing * (side - 1) + 1e-300;
  std::mt19937_64 rng(p_.seed);
  // Uniform in (−1, 1) from the raw 64-bit engine (std::uniform_real_distribution is not portable).
  auto uniform = [&]() { return 2.0 * (static_cast<double>(rng() >> 11) * 0x1.0p-53) - 1.0; };
  initial_.q.resize(2 * n);
  initial_.v.resize(2 * n);
  initial_.z.resize(0);
  Eigen::Vector2d centre(0.5 * spacing * (side - 1), 0.5 * spacing * (side - 1));
  for (int b = 0; b < n; ++b) {
    const Eigen::Vector2d x(spacing * (b % side) + jitter * uniform(), spacing * (b / side) + jitter * uniform());
    initial_.q.segment<2>(2 * b) = x - Eigen::Vector2d(spacing * (b % side), spacing * (b / side));
    initial_.v.segment<2>(2 * b) = -p_.contraction_speed * (x - centre) / half_width +
                                    p_.random_speed * Eigen::Vector2d(uniform(), uniform());
  }
  Eigen::Vector2d mean = Eigen::Vector2d::Zero();
  for (int b = 0; b < n; ++b) mean += initial_.v.segment<2>(2 * b);
  mean /= n;
  for (int b = 0; b < n; ++b) initial_.v.segment<2>(2 * b) -= mean;
}

}  // namespace impactlab
