#include "models/sphere_assembly.h"

#include <Eigen/Geometry>
#include <algorithm>
#include <array>
#include <atomic>
#include <iterator>
#include <cmath>
#include <cstring>
#include <exception>
#include <random>
#include <string>

#include "core/checks.h"
#include "core/contact_threads.h"
#include "core/errors.h"
#include "state/same_bits.h"
#include "exact/critical_time_step.h"
#include "geometry/verlet_list.h"
#include "models/sphere_contact_model.h"
#include "models/sphere_frictional_contact.h"
#include "system/contact_block_difference.h"

namespace impactlab {

namespace {

constexpr int kMaxLawHistory = 16;
constexpr double kEmpty = -1.0;
/// Skin of the neighbour list (geometry/verlet_list.h) in radii: rebuilt when a sphere has moved 0.05 R.
constexpr double kSkinRadii = 0.1;

inline Eigen::Vector3d Tangential(const Eigen::Vector3d& a, const Eigen::Vector3d& n) { return a - a.dot(n) * n; }

Eigen::Vector3d At(const Eigen::VectorXd& x, int offset) { return x.segment<3>(offset); }

/// An active contact at (q, z): what every force evaluation needs besides v (Acceleration). The torques do not depend
/// on v: their per-sphere sums are formed once per cache build (BroadPhaseScratch::contact_spin, sphere_spin).
struct ContactForceTerms {
  int a, b;  ///< spheres i < j, or sphere i and b = −1 − w for wall w
  Eigen::Vector3d normal;
  double elastic_force, damping;  ///< W'(δ), C(δ)
  Eigen::Vector3d tangential_force;  ///< F_t on b
};

/// The cache entry of an active pair contact (i, j) / wall contact (i, w) evaluated as `c`: its force terms and the
/// angular accelerations τ/I its tangential force gives sphere a and sphere b (the wall: b only).
void PairTerms(const AssemblyContact& c, int i, int j, double inertia, ContactForceTerms& terms,
               std::array<Eigen::Vector3d, 2>& spin) {
  const Eigen::Vector3d torque_j = (-c.arm_b * c.normal).cross(c.tangential.force);
  const Eigen::Vector3d torque_i = (c.arm_a * c.normal).cross(-c.tangential.force);
  terms = {i, j, c.normal, c.normal_force_elastic, c.damping, c.tangential.force};
  spin = {torque_i / inertia, torque_j / inertia};
}
void WallTerms(const AssemblyContact& c, int i, int w, double inertia, ContactForceTerms& terms,
               std::array<Eigen::Vector3d, 2>& spin) {
  const Eigen::Vector3d torque = (-c.arm_b * c.normal).cross(c.tangential.force);
  terms = {i, -1 - w, c.normal, c.normal_force_elastic, c.damping, c.tangential.force};
  spin = {Eigen::Vector3d::Zero(), torque / inertia};
}

/// The part of z a state's contacts read (HistoryLayout): values = z[0, 6N) then each sphere's run of slots;
/// run_start[i] is where sphere i's run begins in values (run_start[N] = its size).
struct HistoryKey {
  std::vector<double> values;
  std::vector<size_t> run_start;
};

/// The contact threads for a loop over n items: one below kParallelContactThreshold (core/contact_threads.h).
int LoopThreads(long n) { return n >= kParallelContactThreshold ? ContactThreads() : 1; }

/// Contacts per chunk handed to a thread by ParallelContactLoop.
constexpr long kContactChunk = 512;

/// body(k) for k in [0, n): on the OpenMP threads when n >= kParallelContactThreshold, else serially. Each k must
/// write only its own slot. An exception is rethrown after the loop, the one of the smallest k (as a serial loop
/// would throw it), so the error does not depend on the thread count either.
/// Chunks of kContactChunk are handed out dynamically, not as one contiguous half per thread: the candidates are the
/// sphere pairs followed by the sphere-wall pairs, mostly separated and cheap, so a static split left the pair
/// evaluations on the first thread (measured: 75 % / 23 % of a 10⁵-sphere Verlet step's samples on the two threads).
/// Which thread evaluates k does not change what k writes: the results stay bitwise the same.
template <class Body>
void ParallelContactLoop(long n, const Body& body) {
  std::exception_ptr error;
  long error_k = n;
  const int threads = ContactThreads();
  (void)threads;  // used by the pragma only (unused without OpenMP)
#pragma omp parallel for schedule(dynamic, kContactChunk) num_threads(threads) if (threads > 1 && n >= kParallelContactThreshold)
  for (long k = 0; k < n; ++k) {
    try {
      body(k);
    } catch (...) {
#pragma omp critical(impactlab_contact_loop_error)
      if (k < error_k) {
        error_k = k;
        error = std::current_exception();
      }
    }
  }
  if (error) std::rethrow_exception(error);
}

/// body(b, begin, end) for the blocks [b·block, min(n, (b+1)·block)) of [0, n), handed out one at a time to the
/// contact threads when n >= kParallelContactThreshold (serially in block order otherwise). Each block must write
/// only its own entries, and body must not throw (an exception cannot leave an OpenMP region).
template <class Body>
void ParallelRanges(long n, long block, const Body& body) {
  const long blocks = (n + block - 1) / block;
  const int threads = ContactThreads();
  (void)threads;  // used by the pragma only (unused without OpenMP)
#pragma omp parallel for schedule(dynamic, 1) num_threads(threads) if (threads > 1 && n >= kParallelContactThreshold)
  for (long b = 0; b < blocks; ++b) body(b, b * block, std::min(n, (b + 1) * block));
}

/// One contact's share of the step force F̄ and of the step's books (EvaluateDiscreteStep), computed on the contact
/// threads and summed serially in contact order.
struct DiscreteStepSlot {
  Eigen::Vector3d force, torque;  ///< pair: F on i, the arm torque; wall: F and τ on the wall (−F, −τ on the sphere)
  double scale = 0.0, damping_work = 0.0, friction_work = 0.0, generated_work = 0.0;
  bool friction = false, generated = false;  ///< whether friction_work / generated_work enter the sums
};

/// Scratch of the broad phase and the contact cache, one per thread (the model is shared and const).
struct BroadPhaseScratch {
  // The normal law's values of every candidate (pairs and wall candidates by their index), each with the δ it
  // belongs to (NormalLawMemo, sphere_assembly.h): valid for the model `memo_owner` only (other laws).
  std::vector<NormalLawMemo> pair_memo, wall_memo;
  std::uint64_t memo_owner = 0;
  std::vector<ContactForceTerms> contacts;
  std::vector<std::array<Eigen::Vector3d, 2>> contact_spin;  ///< τ_a / I, τ_b / I of each cached contact
  std::vector<Eigen::Vector3d> sphere_spin;  ///< per sphere: Σ τ / I over its contacts in contact order
  std::vector<double> contacts_q;
  HistoryKey contacts_z;  ///< the part of z the contacts read (HistoryLayout::Key)
  std::uint64_t contacts_owner = 0;  ///< serial of the model the cached contacts belong to (0: none)
  VerletList verlet;
  std::vector<double> positions;
  std::vector<std::pair<int, int>> pairs;
  std::vector<double> cached_positions;            ///< centres of the cached pair list
  std::vector<std::pair<int, int>> cached_pairs;
  double cached_cutoff = -1.0;
  std::vector<std::pair<int, int>> wall_candidates;  ///< (sphere, wall) that can touch (SphereAssembly::WallCandidates)
  std::uint64_t wall_owner = 0;  ///< serial of the model the wall candidates belong to (0: none)
  long wall_builds = -1;         ///< verlet.builds() when they were built
  std::vector<long> wall_run_start;  ///< per sphere: its first wall candidate (PairRunStarts)
  std::vector<char> matched;  ///< per sphere and committed slot: 1 kept by a contact, 2 released at a separation
  std::vector<double> released;  ///< per sphere and committed slot: the energy a separation releases (when 2)
  std::vector<int> used;
  // Per-candidate results of the parallel contact loops (one slot per candidate pair / sphere–wall pair).
  std::vector<char> contact_slot_active;  ///< per candidate: in contact (Acceleration, UpdateHistory)
  std::vector<double> law_slots;  ///< the tangential law's new history, H values per candidate
  std::vector<double> work_slots;  ///< friction and generated work per candidate
  std::vector<long> block_offset;  ///< per block of candidates: where its active contacts start (compaction)
  std::vector<long> incidence_start, incidence, incidence_fill;  ///< per-sphere contact lists (CSR) of `contacts`
  std::vector<long> pair_run_start;  ///< per sphere: its first pair (i, j) in the candidate list (PairRunStarts)
  bool incidence_valid = false;  ///< the lists are those of the (a, b) sequence in `contacts` (cleared while rebuilt)
  std::vector<char> block_same;  ///< per block of candidates: its contacts have the (a, b) of the cached ones
  std::vector<std::exception_ptr> block_error;  ///< per block of candidates: the error its evaluation stopped at
  std::vector<Eigen::Vector3d> contact_acceleration;  ///< F/m of every cached contact, F on b (GatherContactForces)
  std::vector<double> power_terms;  ///< C δ̇² of every cached contact (DissipationPower)
  std::vector<DiscreteStepSlot> step_slots;  ///< per step contact (EvaluateDiscreteStep)
  std::vector<int> step_target;              ///< per step contact: its history slot's index in z, or −1
};
BroadPhaseScratch& Scratch() {
  thread_local BroadPhaseScratch scratch;
  return scratch;
}

/// The layout of z (sphere_assembly.h) and the part of it that the contacts of a state read: the committed
/// positions z[0, 6N) and, for each sphere, its slots up to and including the first empty one (FindHistory stops
/// there; the slots after it and the two work books are never read by a force evaluation). The key is that part
/// copied in this order; two z with bitwise the same key give bitwise the same contacts. In the dense packings
/// about 4 of the K = 12 slots are read: the key is ≈ 40 % of z, and so is the traffic of the compare.
struct HistoryLayout {
  int n = 0, slots = 0, slot_size = 0, slots_at = 0, z_size = 0;
  size_t At(int i, int k) const {
    return static_cast<size_t>(slots_at) + (static_cast<size_t>(i) * slots + k) * static_cast<size_t>(slot_size);
  }
  void Key(const Eigen::VectorXd& z, HistoryKey& key) const {
    if (z.size() != z_size) {  // not a state of this model: a key that SameKey never matches
      key.values.clear();
      key.run_start.clear();
      return;
    }
    // Per sphere the length of its run (in parallel), the runs' offsets, then the copies (in parallel).
    const size_t head = 6 * static_cast<size_t>(n);
    key.run_start.resize(static_cast<size_t>(n) + 1);
    key.run_start[0] = head;
    ParallelContactLoop(n, [&](long i) {
      size_t length = 0;
      for (int k = 0; k < slots; ++k) {
        length += static_cast<size_t>(slot_size);
        if (z[static_cast<Eigen::Index>(At(static_cast<int>(i), k))] == kEmpty) break;
      }
      key.run_start[static_cast<size_t>(i) + 1] = length;
    });
    for (size_t i = 0; i < static_cast<size_t>(n); ++i) key.run_start[i + 1] += key.run_start[i];
    key.values.resize(key.run_start.back());
    ParallelCopy(z.data(), key.values.data(), static_cast<long>(head));
    ParallelContactLoop(n, [&](long i) {
      const size_t from = key.run_start[static_cast<size_t>(i)], to = key.run_start[static_cast<size_t>(i) + 1];
      std::copy_n(z.data() + At(static_cast<int>(i), 0), to - from, key.values.data() + from);
    });
  }
  /// Bitwise, one memcmp for the positions and one per sphere for its run of slots (in parallel for large N: the
  /// answer is the same for any thread count). Equal bits of a sphere's run mean z has its first empty slot where
  /// the key's copy had it, so this reads exactly the slots that a slot-by-slot compare up to z's first empty slot
  /// would.
  bool SameKey(const Eigen::VectorXd& z, const HistoryKey& key) const {
    const size_t head = 6 * static_cast<size_t>(n);
    if (z.size() != z_size || key.values.size() < head || key.run_start.size() != static_cast<size_t>(n) + 1)
      return false;
    const double* zd = z.data();
    const double* kd = key.values.data();
    return ParallelAllOf(n, LoopThreads(n), [&](long begin, long end) {
      const size_t h0 = 6 * static_cast<size_t>(begin), h1 = 6 * static_cast<size_t>(end);
      if (h1 > h0 && std::memcmp(zd + h0, kd + h0, (h1 - h0) * sizeof(double)) != 0) return false;
      for (long i = begin; i < end; ++i) {
        const size_t from = key.run_start[static_cast<size_t>(i)], to = key.run_start[static_cast<size_t>(i) + 1];
        if (std::memcmp(zd + At(static_cast<int>(i), 0), kd + from, (to - from) * sizeof(double)) != 0) return false;
      }
      return true;
    });
  }
};

/// Whether the cached active contacts of `scratch` are those of model `owner` at (s.q, s.z), compared bitwise
/// (memcmp: vectorised; z through the HistoryLayout key). `layout` null: at s.q only — enough for what depends on
/// q alone (which contacts are active, their normals and C(δ); not the tangential forces, which depend on z).
bool ContactCacheHolds(const BroadPhaseScratch& scratch, std::uint64_t owner, const MechanicalState& s,
                       const HistoryLayout* layout) {
  const auto same = [](const Eigen::VectorXd& a, const std::vector<double>& b) {
    if (static_cast<size_t>(a.size()) != b.size()) return false;
    const long size = static_cast<long>(b.size());
    return ParallelAllOf(size, LoopThreads(size / 6), [&](long begin, long end) {  // 6 coordinates per sphere
      return end <= begin || std::memcmp(a.data() + begin, b.data() + begin,
                                         static_cast<size_t>(end - begin) * sizeof(double)) == 0;
    });
  };
  return scratch.contacts_owner == owner && same(s.q, scratch.contacts_q) &&
         (layout == nullptr || layout->SameKey(s.z, scratch.contacts_z));
}

/// The incidence lists (CSR) of scratch.contacts over n spheres: for sphere i, 2k (it is a of contact k) or 2k + 1 (it
/// is b, or the sphere of a wall contact), in contact order. On one thread a counting sort in contact order; on more,
/// counted and filled with atomic counters (the counts do not depend on the order) and each sphere's list then
/// sorted, which is contact order: the same lists for any thread count.
void BuildIncidenceLists(BroadPhaseScratch& scratch, int n) {
  const std::vector<ContactForceTerms>& contacts = scratch.contacts;
  std::vector<long>& start = scratch.incidence_start;
  std::vector<long>& incidence = scratch.incidence;
  const long n_contacts = static_cast<long>(contacts.size());
  start.assign(static_cast<size_t>(n) + 1, 0);
  const bool parallel = LoopThreads(n_contacts) > 1;
  auto count = [&](int sphere) {
    long& c = start[static_cast<size_t>(sphere) + 1];
    if (parallel)
      std::atomic_ref<long>(c).fetch_add(1, std::memory_order_relaxed);
    else
      ++c;
  };
  ParallelContactLoop(n_contacts, [&](long k) {
    const ContactForceTerms& c = contacts[static_cast<size_t>(k)];
    count(c.a);
    if (c.b >= 0) count(c.b);
  });
  for (int i = 0; i < n; ++i) start[static_cast<size_t>(i) + 1] += start[static_cast<size_t>(i)];
  incidence.resize(static_cast<size_t>(start.back()));
  std::vector<long>& fill = scratch.incidence_fill;
  fill.assign(start.begin(), start.end() - 1);
  auto put = [&](int sphere, long code) {
    long& f = fill[static_cast<size_t>(sphere)];
    const long at = parallel ? std::atomic_ref<long>(f).fetch_add(1, std::memory_order_relaxed) : f++;
    incidence[static_cast<size_t>(at)] = code;
  };
  ParallelContactLoop(n_contacts, [&](long k) {
    const ContactForceTerms& c = contacts[static_cast<size_t>(k)];
    if (c.b >= 0) {
      put(c.a, 2 * k);
      put(c.b, 2 * k + 1);
    } else {
      put(c.a, 2 * k + 1);
    }
  });
  if (parallel)
    ParallelContactLoop(n, [&](long i) {
      std::sort(incidence.begin() + start[static_cast<size_t>(i)],
                incidence.begin() + start[static_cast<size_t>(i) + 1]);
    });
}

/// The contact cache of `scratch` (contacts, contact_spin, the incidence lists and sphere_spin) from the touching
/// ones of n_candidates candidates, in candidate order. touches(k) is the δ > 0 test EvaluatePair and EvaluateWall begin
/// with; evaluate(k, terms, spin) fills a touching candidate's entry and may throw (the error of the smallest
/// candidate is rethrown, as a serial loop would throw it). The candidates are counted per block, then each block's
/// touching ones are evaluated straight into their place (in parallel for large N): the same operations in the same
/// order for any thread count (core/contact_threads.h). Leaves the cache invalid (contacts_owner = 0): the caller
/// sets its key.
template <class Touches, class Evaluate>
void FillContactCache(BroadPhaseScratch& scratch, int n_spheres, long n_candidates, const Touches& touches,
                      const Evaluate& evaluate) {
  scratch.contacts_owner = 0;  // invalid while rebuilt (an evaluation may throw)
  std::vector<ContactForceTerms>& contacts = scratch.contacts;
  constexpr long kBlock = 8192;
  const size_t blocks = static_cast<size_t>((n_candidates + kBlock - 1) / kBlock);
  std::vector<char>& touching = scratch.contact_slot_active;
  touching.resize(static_cast<size_t>(n_candidates));
  std::vector<long>& offset = scratch.block_offset;
  offset.assign(blocks + 1, 0);
  ParallelRanges(n_candidates, kBlock, [&](long b, long begin, long end) {
    long count = 0;
    for (long k = begin; k < end; ++k) {
      const bool t = touches(k);
      touching[static_cast<size_t>(k)] = t;
      count += t;
    }
    offset[static_cast<size_t>(b) + 1] = count;
  });
  for (size_t b = 1; b < offset.size(); ++b) offset[b] += offset[b - 1];
  // The incidence lists depend only on N and the (a, b) of the contacts in order. In a packing the contact set
  // persists for many steps, so each contact's (a, b) is compared with that of the cached contact at its place (read
  // before it is overwritten); if all are the same, the lists are kept.
  std::vector<long>& start = scratch.incidence_start;
  const bool lists_may_hold = scratch.incidence_valid && start.size() == static_cast<size_t>(n_spheres) + 1 &&
                              contacts.size() == static_cast<size_t>(offset.back());
  scratch.incidence_valid = false;  // invalid until the lists match `contacts` again
  std::vector<char>& block_same = scratch.block_same;
  block_same.assign(blocks, 0);
  std::vector<std::exception_ptr>& block_error = scratch.block_error;
  block_error.assign(blocks, nullptr);
  contacts.resize(static_cast<size_t>(offset.back()));
  scratch.contact_spin.resize(static_cast<size_t>(offset.back()));
  ParallelRanges(n_candidates, kBlock, [&](long b, long begin, long end) {
    size_t to = static_cast<size_t>(offset[static_cast<size_t>(b)]);
    bool same = lists_may_hold;
    try {
      for (long k = begin; k < end; ++k) {
        if (!touching[static_cast<size_t>(k)]) continue;
        ContactForceTerms terms;
        std::array<Eigen::Vector3d, 2> spin;  // τ_a / I, τ_b / I
        evaluate(k, terms, spin);
        same = same && contacts[to].a == terms.a && contacts[to].b == terms.b;
        contacts[to] = terms;
        scratch.contact_spin[to++] = spin;
      }
    } catch (...) {  // the block stops at its first error, as a serial loop would
      block_error[static_cast<size_t>(b)] = std::current_exception();
      same = false;
    }
    block_same[static_cast<size_t>(b)] = same;
  });
  for (const std::exception_ptr& error : block_error)  // the error of the smallest candidate, for any thread count
    if (error) std::rethrow_exception(error);
  const bool lists_hold =
      lists_may_hold && std::all_of(block_same.begin(), block_same.end(), [](char same) { return same != 0; });
  if (!lists_hold) BuildIncidenceLists(scratch, n_spheres);  // rebuilt only when a contact changed
  scratch.incidence_valid = true;
  // Angular accelerations: per sphere the torques of its contacts summed in contact order (τ_a for sphere a of a
  // pair, τ_b for b and for the sphere of a wall contact, i.e. entry code & 1 of contact_spin), once per cache build
  // (they do not depend on v).
  scratch.sphere_spin.resize(static_cast<size_t>(n_spheres));
  ParallelContactLoop(n_spheres, [&](long i) {
    Eigen::Vector3d angular = Eigen::Vector3d::Zero();
    for (long e = start[static_cast<size_t>(i)]; e < start[static_cast<size_t>(i) + 1]; ++e) {
      const long code = scratch.incidence[static_cast<size_t>(e)];
      angular += scratch.contact_spin[static_cast<size_t>(code >> 1)][static_cast<size_t>(code & 1)];
    }
    scratch.sphere_spin[static_cast<size_t>(i)] = angular;
  });
}

/// Where each sphere's run begins in a list of (sphere, partner) sorted by sphere (the candidate pairs (i, j > i), the
/// wall candidates (i, w)): start[i] = the first k with pairs[k].first >= i, start[n] = pairs.size() (one pass over
/// the list in blocks, each writing its own entries, instead of a binary search per sphere).
const std::vector<long>& PairRunStarts(const std::vector<std::pair<int, int>>& pairs, int n, std::vector<long>& start) {
  const long n_pairs = static_cast<long>(pairs.size());
  start.resize(static_cast<size_t>(n) + 1);
  const auto first = [&](long k) { return k < n_pairs ? pairs[static_cast<size_t>(k)].first : n; };
  // The spheres (first(k − 1), first(k)] begin at k; k = n_pairs closes the spheres after the last pair's.
  ParallelRanges(n_pairs + 1, 1L << 16, [&](long, long begin, long end) {
    for (long k = begin; k < end; ++k)
      for (int i = k == 0 ? 0 : first(k - 1) + 1; i <= first(k); ++i) start[static_cast<size_t>(i)] = k;
  });
  return start;
}

/// The memos of `pairs` candidate pairs and `walls` sphere–wall pairs of model `owner` (emptied when they belonged to
/// another model; kept entries only ever answer for bitwise the same δ, so a changed candidate list costs misses,
/// never a wrong value).
void PrepareMemo(BroadPhaseScratch& scratch, std::uint64_t owner, size_t pairs, size_t walls) {
  if (scratch.memo_owner != owner) {
    scratch.pair_memo.clear();
    scratch.wall_memo.clear();
    scratch.memo_owner = owner;
  }
  scratch.pair_memo.resize(pairs);
  scratch.wall_memo.resize(walls);
}


}  // namespace

void SphereAssemblyConfiguration::Validate() const {
  RequirePositive("radius", radius);
  RequirePositive("density", density);
  RequireNonNegative("gravity", gravity);
  if (positions.empty()) throw InvalidParameter("number of spheres", 0.0, ">= 1");
  if (velocities.size() != positions.size())
    throw InvalidParameter("velocities", static_cast<double>(velocities.size()), "one per sphere");
  if (!spins.empty() && spins.size() != positions.size())
    throw InvalidParameter("spins", static_cast<double>(spins.size()), "one per sphere or none");
  if (!(history_slots >= 1 && history_slots <= 64))
    throw InvalidParameter("history_slots", history_slots, "an integer in [1, 64]");
  for (const AssemblyWall& w : walls)
    if (!(std::abs(w.normal.norm() - 1.0) < 1e-12)) throw InvalidParameter("wall normal |n|", w.normal.norm(), "1");
}

void SphereAssemblyParameters::Validate() const {
  const auto count = [](const char* key, int value) {
    if (!(value >= 1 && value <= 1000)) throw InvalidParameter(key, value, "an integer in [1, 1000]");
  };
  count("nx", nx);
  count("ny", ny);
  count("nz", nz);
  if (static_cast<long>(nx) * ny * nz > 2000000)
    throw InvalidParameter("nx*ny*nz", static_cast<double>(static_cast<long>(nx) * ny * nz), "<= 2e6 spheres");
  RequirePositive("radius", radius);
  RequirePositive("density", density);
  RequirePositive("E", E);
  RequireInRightOpen("poisson", poisson, 0.0, 0.5);
  RequirePositive("E_wall", E_wall);
  RequireInRightOpen("nu_wall", nu_wall, 0.0, 0.5);
  RequireInLeftOpen("e_n", e_n, 0.0, 1.0);
  RequireNonNegative("gravity", gravity);
  if (!(std::isfinite(gap) && gap > -0.1 * radius))
    throw InvalidParameter("gap", gap, "> -0.1 radius (a negative gap starts the lattice with that overlap)");
  RequireInRightOpen("jitter", jitter, 0.0, 1.0);
  RequireNonNegative("random_speed", random_speed);
  if (!(history_slots >= 1 && history_slots <= 64))
    throw InvalidParameter("history_slots", history_slots, "an integer in [1, 64]");
}

double SphereAssemblyParameters::mass() const { return SphereMass(density, radius); }
double SphereAssemblyParameters::pair_effective_modulus() const { return 1.0 / (2.0 * NormalCompliance(E, poisson)); }
double SphereAssemblyParameters::pair_effective_shear_modulus() const {
  return 1.0 / (2.0 * ShearCompliance(E, poisson));
}
double SphereAssemblyParameters::wall_effective_modulus() const {
  return 1.0 / (NormalCompliance(E, poisson) + NormalCompliance(E_wall, nu_wall));
}
double SphereAssemblyParameters::wall_effective_shear_modulus() const {
  return 1.0 / (ShearCompliance(E, poisson) + ShearCompliance(E_wall, nu_wall));
}

SphereAssemblyConfiguration SphereAssemblyParameters::Configuration() const {
  Validate();
  SphereAssemblyConfiguration c;
  c.radius = radius;
  c.density = density;
  c.gravity = gravity;
  c.history_slots = history_slots;
  c.e_n = e_n;
  c.shear_modulus_star = pair_effective_shear_modulus();
  const double s = spacing();
  std::mt19937_64 rng(seed);
  // Uniform in (−1, 1) from the raw 64-bit engine (std::uniform_real_distribution is not portable).
  auto uniform = [&]() { return 2.0 * (static_cast<double>(rng() >> 11) * 0x1.0p-53) - 1.0; };
  // < |gap|/2: with gap > 0 no initial overlap with a sphere or a wall.
  const double amplitude = 0.5 * jitter * std::abs(gap);
  c.positions.reserve(static_cast<size_t>(num_spheres()));
  c.velocities.reserve(static_cast<size_t>(num_spheres()));
  for (int iz = 0; iz < nz; ++iz)
    for (int iy = 0; iy < ny; ++iy)
      for (int ix = 0; ix < nx; ++ix) {
        const Eigen::Vector3d lattice(0.5 * s + ix * s, 0.5 * s + iy * s, 0.5 * s + iz * s);
        const double jx = uniform(), jy = uniform(), jz = uniform();
        c.positions.push_back(lattice + amplitude * Eigen::Vector3d(jx, jy, jz));
        const double ux = uniform(), uy = uniform(), uz = uniform();
        c.velocities.push_back(random_speed * Eigen::Vector3d(ux, uy, uz));
      }
  const double lx = nx * s, ly = ny * s;
  c.walls = {{Eigen::Vector3d::Zero(), Eigen::Vector3d::UnitZ()},
             {Eigen::Vector3d::Zero(), Eigen::Vector3d::UnitX()},
             {Eigen::Vector3d(lx, 0.0, 0.0), -Eigen::Vector3d::UnitX()},
             {Eigen::Vector3d::Zero(), Eigen::Vector3d::UnitY()},
             {Eigen::Vector3d(0.0, ly, 0.0), -Eigen::Vector3d::UnitY()}};
  return c;
}

SphereAssembly::SphereAssembly(SphereAssemblyConfiguration configuration, ContactLaw sphere_law, ContactLaw wall_law)
    : config_(std::move(configuration)),
      sphere_law_(std::make_shared<ContactLaw>(std::move(sphere_law))),
      wall_law_(std::make_shared<ContactLaw>(std::move(wall_law))) {
  config_.Validate();
  RequireTangentialLaw(*sphere_law_, kMaxLawHistory);
  RequireTangentialLaw(*wall_law_, kMaxLawHistory);
  if (sphere_law_->history_size() != wall_law_->history_size())
    throw InvalidParameter("tangential_law", sphere_law_->tangential()->name() + " / " + wall_law_->tangential()->name(),
                           "the same law for sphere-sphere and sphere-wall contacts");
  n_ = static_cast<int>(config_.positions.size());
  slots_ = config_.history_slots;
  history_ = sphere_law_->history_size();
  slot_size_ = 1 + history_;
  books_ = 6 * n_;
  slots_at_ = books_ + 2;
  z_size_ = slots_at_ + n_ * slots_ * slot_size_;
  radius_ = config_.radius;
  mass_ = SphereMass(config_.density, radius_);
  inertia_ = SphereInertia(mass_, radius_);
  cutoff_ = 2.0 * radius_ * (1.0 + 1e-9);
  damped_ = sphere_law_->damped() || wall_law_->damped();
  static std::atomic<std::uint64_t> next_serial{1};
  serial_ = next_serial++;
  e0_ = TotalEnergy(InitialState());
}

MechanicalState SphereAssembly::InitialState() const {
  MechanicalState s;
  s.q = Eigen::VectorXd::Zero(6 * n_);
  s.v = Eigen::VectorXd::Zero(6 * n_);
  for (int i = 0; i < n_; ++i) {
    s.q.segment<3>(6 * i) = config_.positions[static_cast<size_t>(i)];
    s.v.segment<3>(6 * i) = config_.velocities[static_cast<size_t>(i)];
    if (!config_.spins.empty()) s.v.segment<3>(6 * i + 3) = config_.spins[static_cast<size_t>(i)];
  }
  s.z = Eigen::VectorXd::Zero(z_size_);
  s.z.head(6 * n_) = s.q;
  for (int i = 0; i < n_; ++i)
    for (int k = 0; k < slots_; ++k) s.z[SlotAt(i, k)] = kEmpty;
  return s;
}

// --- geometry ---------------------------------------------------------------------------------------

void SphereAssembly::CandidatePairs(const Eigen::VectorXd& q, std::vector<std::pair<int, int>>& pairs) const {
  pairs.clear();
  if (!broad_phase_) {
    for (int i = 0; i < n_; ++i)
      for (int j = i + 1; j < n_; ++j) pairs.emplace_back(i, j);
    return;
  }
  // The pairs are a function of (centres, cutoff) only: the last list is reused while they are bitwise unchanged
  // (velocity Verlet's end-velocity iterations, the ledger and the observers evaluate at the same positions).
  BroadPhaseScratch& scratch = Scratch();
  scratch.positions.resize(3 * static_cast<size_t>(n_));
  for (int i = 0; i < n_; ++i)
    for (int d = 0; d < 3; ++d) scratch.positions[3 * static_cast<size_t>(i) + d] = q[6 * i + d];
  const bool same_positions = scratch.positions.size() == scratch.cached_positions.size() &&
                              std::memcmp(scratch.positions.data(), scratch.cached_positions.data(),
                                          scratch.positions.size() * sizeof(double)) == 0;
  if (!(scratch.cached_cutoff == cutoff_ && same_positions)) {
    scratch.cached_cutoff = -1.0;  // invalid while the list is rebuilt (Pairs may throw)
    scratch.verlet.Pairs(3, scratch.positions, cutoff_, kSkinRadii * radius_, scratch.cached_pairs);
    scratch.cached_positions.swap(scratch.positions);
    scratch.cached_cutoff = cutoff_;
  }
  if (&pairs != &scratch.cached_pairs) pairs.assign(scratch.cached_pairs.begin(), scratch.cached_pairs.end());
}

const std::vector<std::pair<int, int>>& SphereAssembly::WallCandidates(const Eigen::VectorXd& q) const {
  BroadPhaseScratch& scratch = Scratch();
  std::vector<std::pair<int, int>>& list = scratch.wall_candidates;
  const long builds = broad_phase_ ? scratch.verlet.builds() : -2;
  if (scratch.wall_owner == serial_ && scratch.wall_builds == builds) return list;
  // Margin: the skin. A sphere is less than skin/2 from the Verlet list's build positions until its next build, and
  // these positions are within skin/2 of them too, so |x − x_now| < skin and WallOverlap(x) < WallOverlap(x_now) +
  // skin: a candidate left out here (WallOverlap ≤ −skin) cannot touch before the list is rebuilt.
  const double margin = broad_phase_ ? kSkinRadii * radius_ : std::numeric_limits<double>::infinity();
  const int walls = static_cast<int>(config_.walls.size());
  scratch.wall_owner = 0;  // invalid while rebuilt
  list.clear();
  for (int i = 0; i < n_; ++i)
    for (int w = 0; w < walls; ++w)
      if (WallOverlap(q, 0, i, w) > -margin) list.emplace_back(i, w);
  scratch.wall_owner = serial_;
  scratch.wall_builds = builds;
  return list;
}

double SphereAssembly::PairOverlap(const Eigen::VectorXd& x, int offset, int i, int j) const {
  return 2.0 * radius_ - (At(x, offset + 6 * j) - At(x, offset + 6 * i)).norm();
}
double SphereAssembly::WallOverlap(const Eigen::VectorXd& x, int offset, int i, int w) const {
  const AssemblyWall& wall = config_.walls[static_cast<size_t>(w)];
  return radius_ - wall.normal.dot(At(x, offset + 6 * i) - wall.point);
}

std::span<const double> SphereAssembly::FindHistory(const Eigen::VectorXd& z, int i, double code, int* slot) const {
  for (int k = 0; k < slots_; ++k) {
    const int at = SlotAt(i, k);
    if (z[at] == kEmpty) break;  // slots are filled from 0
    if (z[at] == code) {
      if (slot) *slot = k;
      return {z.data() + at + 1, static_cast<size_t>(history_)};
    }
  }
  return {};
}

namespace {

/// The tangential step of a contact whose δ, δ̇ and normal are set (SphereContactModel::EvaluateContactLaw with the
/// committed δ⁰ and W'(δ⁰) recomputed from the committed positions). W'(δ), C(δ) and W'(δ⁰) are taken from `memo`
/// when it holds bitwise the same δ (NormalLawMemo), else computed and kept there (`memo` may be null).
/// `at_commit`: the contact is at the configuration its history was committed at (Δs = 0, δ = δ⁰, the same normal),
/// where the step is the identity: an evaluation (no `law_out`, no `start`) then takes the committed spring force
/// (CommittedTangentialResponse) instead of the step.
void EvaluateLaw(const ContactLaw& law, const Eigen::Vector3d& ds, double delta_prev, std::span<const double> history,
                 std::span<double> law_out, int history_size, AssemblyContact& c, const TangentialStartRates* start,
                 NormalLawMemo* memo, bool at_commit) {
  static constexpr std::array<double, kMaxLawHistory> kZero{};
  c.active = true;
  const double normal_force_prev =
      delta_prev > 0.0 ? (memo ? memo->Force(law.elastic(), delta_prev) : law.elastic().Force(delta_prev)) : 0.0;
  c.normal_force_elastic = memo ? memo->Force(law.elastic(), c.delta) : law.elastic().Force(c.delta);
  c.damping = memo ? memo->Coefficient(law.damping(), c.delta) : law.damping().Coefficient(c.delta);
  c.normal_force = c.normal_force_elastic + c.damping * c.delta_dot;
  const size_t h = static_cast<size_t>(history_size);
  const std::span<const double> z_prev = history.empty() ? std::span<const double>(kZero).subspan(0, h) : history;
  if (at_commit && law_out.empty() && start == nullptr) {
    c.tangential = CommittedTangentialResponse(*law.tangential(), z_prev, c.delta);
    return;
  }
  TangentialKinematics k;
  k.normal = c.normal;
  k.delta_n = c.delta;
  k.normal_force = c.normal_force_elastic;
  if (start != nullptr) k.start = *start;
  std::array<double, kMaxLawHistory> scratch;  // zeroed only when it is the law's output (an evaluation)
  if (law_out.empty()) std::fill_n(scratch.begin(), h, 0.0);
  const std::span<double> z_next = law_out.empty() ? std::span<double>(scratch).subspan(0, h) : law_out;
  c.tangential = EvaluateTangentialStep(*law.tangential(), k, ds, delta_prev, normal_force_prev, z_prev, z_next);
}

}  // namespace

AssemblyContact SphereAssembly::EvaluatePair(const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                                             const Eigen::VectorXd& z, int i, int j, std::span<double> law_out,
                                             const TangentialStartRates* start, NormalLawMemo* memo) const {
  AssemblyContact c;
  const Eigen::Vector3d r = At(q, 6 * j) - At(q, 6 * i);
  const double d = r.norm();  // one square root for δ and n (sqrt is correctly rounded: the same d both times)
  c.delta = 2.0 * radius_ - d;
  if (!(c.delta > 0.0)) return c;
  if (!(d > 0.0)) throw InvalidParameter("sphere centre distance", d, "> 0 (coincident centres)");
  c.normal = r / d;
  c.delta_dot = -(At(v, 6 * j) - At(v, 6 * i)).dot(c.normal);
  c.arm_a = c.arm_b = radius_ - 0.5 * c.delta;
  // Committed geometry (SpherePairImpact::EvaluateContact).
  const Eigen::Vector3d r_prev = At(z, 6 * j) - At(z, 6 * i);
  const Eigen::Vector3d dphi_i = At(q, 6 * i + 3) - At(z, 6 * i + 3);
  const Eigen::Vector3d dphi_j = At(q, 6 * j + 3) - At(z, 6 * j + 3);
  const std::span<const double> history = FindHistory(z, i, static_cast<double>(j));
  // An evaluation at the committed configuration (Δs = 0, δ⁰ = δ, the same normal) takes the committed spring force.
  const bool at_commit = r == r_prev && (dphi_i.array() == 0.0).all() && (dphi_j.array() == 0.0).all();
  if (at_commit && law_out.empty() && start == nullptr) {
    EvaluateLaw(*sphere_law_, Eigen::Vector3d::Zero(), c.delta, history, law_out, history_, c, start, memo, true);
    return c;
  }
  const double d_prev = r_prev.norm();
  const double delta_prev = 2.0 * radius_ - d_prev;
  Eigen::Vector3d n_mid = c.normal + r_prev / d_prev;
  n_mid /= n_mid.norm();
  const double quarter = 0.25 * (c.delta + std::max(delta_prev, 0.0));
  const Eigen::Vector3d spin = (radius_ - quarter) * dphi_i + (radius_ - quarter) * dphi_j;
  const Eigen::Vector3d ds = Tangential((r - r_prev) - spin.cross(n_mid), c.normal);
  EvaluateLaw(*sphere_law_, ds, delta_prev, history, law_out, history_, c, start, memo, false);
  return c;
}

AssemblyContact SphereAssembly::EvaluateWall(const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                                             const Eigen::VectorXd& z, int i, int w, std::span<double> law_out,
                                             const TangentialStartRates* start, NormalLawMemo* memo) const {
  AssemblyContact c;
  c.delta = WallOverlap(q, 0, i, w);
  if (!(c.delta > 0.0)) return c;
  const Eigen::Vector3d& n = config_.walls[static_cast<size_t>(w)].normal;
  c.normal = n;
  c.delta_dot = -n.dot(At(v, 6 * i));
  c.arm_a = 0.0;
  c.arm_b = radius_;
  const double delta_prev = WallOverlap(z, 0, i, w);
  const Eigen::Vector3d dx = At(q, 6 * i) - At(z, 6 * i);
  const Eigen::Vector3d dphi = At(q, 6 * i + 3) - At(z, 6 * i + 3);
  // At the committed configuration Δs = 0 and δ⁰ = δ (the wall's normal is fixed): EvaluateLaw's `at_commit`.
  const bool at_commit = (dx.array() == 0.0).all() && (dphi.array() == 0.0).all();
  const Eigen::Vector3d ds = Tangential(dx - radius_ * dphi.cross(n), n);
  EvaluateLaw(*wall_law_, ds, delta_prev, FindHistory(z, i, WallCode(w)), law_out, history_, c, start, memo,
              at_commit);
  return c;
}

TangentialStartRates SphereAssembly::PairStartRates(const MechanicalState& before, int i, int j, double step) const {
  TangentialStartRates r;
  const Eigen::Vector3d rel = At(before.q, 6 * j) - At(before.q, 6 * i);
  const double d = rel.norm();
  const double delta = 2.0 * radius_ - d;
  if (!(delta > 0.0) || !(d > 0.0)) return r;  // not in contact at the start: the law does not use the rates
  const Eigen::Vector3d n = rel / d;
  const Eigen::Vector3d dv = At(before.v, 6 * j) - At(before.v, 6 * i);
  const Eigen::Vector3d spin = (radius_ - 0.5 * delta) * (At(before.v, 6 * i + 3) + At(before.v, 6 * j + 3));
  r.slip_velocity = Tangential(dv - spin.cross(n), n);  // the rate of EvaluatePair's Δs at the start
  r.overlap_rate = -dv.dot(n);
  r.normal_force_rate = sphere_law_->elastic().Stiffness(delta) * r.overlap_rate;
  r.step = step;
  return r;
}

TangentialStartRates SphereAssembly::WallStartRates(const MechanicalState& before, int i, int w, double step) const {
  TangentialStartRates r;
  const double delta = WallOverlap(before.q, 0, i, w);
  if (!(delta > 0.0)) return r;
  const Eigen::Vector3d& n = config_.walls[static_cast<size_t>(w)].normal;
  r.slip_velocity = Tangential(At(before.v, 6 * i) - radius_ * At(before.v, 6 * i + 3).cross(n), n);
  r.overlap_rate = -n.dot(At(before.v, 6 * i));
  r.normal_force_rate = wall_law_->elastic().Stiffness(delta) * r.overlap_rate;
  r.step = step;
  return r;
}

// --- dynamics ---------------------------------------------------------------------------------------

void SphereAssembly::Acceleration(const MechanicalState& s, Eigen::Ref<Eigen::VectorXd> v_dot) const {
  // Everything but the dashpot term C(δ) δ̇ is a function of (q, z): the active contacts with their normal, elastic
  // force, damping coefficient, tangential force and angular accelerations are kept while q and the part of z they
  // read (HistoryLayout) are bitwise unchanged (velocity Verlet's end-velocity fixed point calls this ~7 times per
  // step at the same q, z), and only
  // F_n = W'(δ) + C(δ) δ̇ is recomputed from v — the same operations in the same order: bitwise the same result.
  // UpdateHistory fills the cache for the state it commits (bitwise what the rebuild below would give there), so an
  // explicit scheme's acceleration after a committed step evaluates no contact again.
  BroadPhaseScratch& scratch = Scratch();
  const HistoryLayout layout{n_, slots_, slot_size_, slots_at_, z_size_};
  if (!ContactCacheHolds(scratch, serial_, s, &layout)) {
    std::vector<std::pair<int, int>>& pairs = scratch.pairs;
    CandidatePairs(s.q, pairs);
    const std::vector<std::pair<int, int>>& wall_pairs = WallCandidates(s.q);
    const long n_pairs = static_cast<long>(pairs.size());
    const long n_walls = static_cast<long>(wall_pairs.size());
    PrepareMemo(scratch, serial_, static_cast<size_t>(n_pairs), static_cast<size_t>(n_walls));
    const auto touches = [&](long k) {
      const std::pair<int, int>& c =
          k < n_pairs ? pairs[static_cast<size_t>(k)] : wall_pairs[static_cast<size_t>(k - n_pairs)];
      return (k < n_pairs ? PairOverlap(s.q, 0, c.first, c.second) : WallOverlap(s.q, 0, c.first, c.second)) > 0.0;
    };
    const auto evaluate = [&](long k, ContactForceTerms& terms, std::array<Eigen::Vector3d, 2>& spin) {
      if (k < n_pairs) {
        const int i = pairs[static_cast<size_t>(k)].first, j = pairs[static_cast<size_t>(k)].second;
        const AssemblyContact c =
            EvaluatePair(s.q, s.v, s.z, i, j, {}, nullptr, &scratch.pair_memo[static_cast<size_t>(k)]);
        PairTerms(c, i, j, inertia_, terms, spin);
      } else {
        const auto [i, w] = wall_pairs[static_cast<size_t>(k - n_pairs)];
        const AssemblyContact c =
            EvaluateWall(s.q, s.v, s.z, i, w, {}, nullptr, &scratch.wall_memo[static_cast<size_t>(k - n_pairs)]);
        WallTerms(c, i, w, inertia_, terms, spin);
      }
    };
    FillContactCache(scratch, n_, n_pairs + n_walls, touches, evaluate);
    scratch.contacts_q.resize(static_cast<size_t>(s.q.size()));
    ParallelCopy(s.q.data(), scratch.contacts_q.data(), static_cast<long>(s.q.size()));
    layout.Key(s.z, scratch.contacts_z);
    scratch.contacts_owner = serial_;
  }
  GatherContactForces(s, v_dot);
}

void SphereAssembly::AccelerationAtNewVelocity(const MechanicalState& s, Eigen::Ref<Eigen::VectorXd> v_dot) const {
  const BroadPhaseScratch& scratch = Scratch();
  // The caller guarantees (t, q, z) are those of this thread's last Acceleration call of this model; the size checks
  // only catch a state that cannot be one of this model's.
  if (scratch.contacts_owner == serial_ && static_cast<size_t>(s.q.size()) == scratch.contacts_q.size() &&
      s.v.size() == 6 * static_cast<Eigen::Index>(n_)) {
    GatherContactForces(s, v_dot);
  } else {
    Acceleration(s, v_dot);
  }
}

void SphereAssembly::GatherContactForces(const MechanicalState& s, Eigen::Ref<Eigen::VectorXd> v_dot) const {
  BroadPhaseScratch& scratch = Scratch();
  const std::vector<ContactForceTerms>& contacts = scratch.contacts;
  // Per contact its acceleration share F/m, then per sphere the sum over its contacts in contact order (a gather
  // over the incidence lists built with the cache): for each sphere the same additions in the same order as a serial
  // scatter over the contacts, so any thread count gives the same bits. F/m is formed once per contact: both of a
  // pair's spheres add the same quotient (one division instead of one per sphere).
  const long n_contacts = static_cast<long>(contacts.size());
  std::vector<Eigen::Vector3d>& share = scratch.contact_acceleration;
  share.resize(contacts.size());
  ParallelContactLoop(n_contacts, [&](long k) {
    const ContactForceTerms& c = contacts[static_cast<size_t>(k)];
    const double delta_dot = c.b >= 0 ? -(At(s.v, 6 * c.b) - At(s.v, 6 * c.a)).dot(c.normal)
                                      : -c.normal.dot(At(s.v, 6 * c.a));
    const double normal_force = c.elastic_force + c.damping * delta_dot;
    const Eigen::Vector3d force = normal_force * c.normal + c.tangential_force;  // on b (on the sphere: wall)
    share[static_cast<size_t>(k)] = force / mass_;  // divisions as in SpherePairImpact (bitwise the same pair)
  });
  const std::vector<long>& start = scratch.incidence_start;
  const std::vector<long>& incidence = scratch.incidence;
  const std::vector<Eigen::Vector3d>& spin = scratch.sphere_spin;
  ParallelContactLoop(n_, [&](long i_long) {
    const int i = static_cast<int>(i_long);
    Eigen::Vector3d linear(0.0, 0.0, -config_.gravity);
    for (long e = start[static_cast<size_t>(i)]; e < start[static_cast<size_t>(i) + 1]; ++e) {
      const long code = incidence[static_cast<size_t>(e)];
      const Eigen::Vector3d& a = share[static_cast<size_t>(code >> 1)];
      if ((code & 1) == 0) {  // sphere a of a pair (a wall contact's code is always odd): −F/m
        linear -= a;
      } else {  // sphere b of a pair, or the sphere of a wall contact: +F/m
        linear += a;
      }
    }
    v_dot.segment<3>(6 * i) = linear;
    v_dot.segment<3>(6 * i + 3) = spin[static_cast<size_t>(i)];
  });
}

void SphereAssembly::UpdateHistory(const MechanicalState& before, MechanicalState& after) const {
  if (&before == &after) {  // in place: keep the committed history readable
    const MechanicalState copy = before;
    UpdateHistory(copy, after);
    return;
  }
  // A pure function of (before, after.q, after.t): contacts are evaluated at after.q with before.v (only F_n uses
  // it) and the committed history of before.z, the tangential law with before's rates over after.t − before.t;
  // after.z is overwritten, never read.
  const Eigen::VectorXd& z0 = before.z;
  Eigen::VectorXd& z = after.z;  // written in place (no allocation per step), every entry overwritten
  if (z.size() != z_size_) z.resize(z_size_);
  ParallelCopy(after.q.data(), z.data(), 6L * n_);
  double friction_work = z0[books_], generated_work = z0[books_ + 1];
  BroadPhaseScratch& scratch = Scratch();
  const size_t slots = static_cast<size_t>(slots_);
  scratch.matched.resize(static_cast<size_t>(n_) * slots);
  scratch.released.resize(static_cast<size_t>(n_) * slots);
  std::vector<std::pair<int, int>>& pairs = scratch.pairs;
  CandidatePairs(after.q, pairs);
  const std::vector<std::pair<int, int>>& wall_pairs = WallCandidates(after.q);
  // Each touching candidate's tangential step into its own slot (in parallel for large N). The slots are then taken
  // per sphere (in parallel: a sphere owns its pairs (i, j > i), a contiguous run of the sorted candidate list, then
  // its walls, a run of the sorted wall candidates, and takes slots in that order, as a serial pass in candidate order
  // would) and the works summed in candidate order: bitwise the same for any thread count (core/contact_threads.h).
  // The same pass fills the contact cache of Acceleration at `after` (any v): at the committed configuration a
  // contact's entry is its geometry at after.q, W'(δ), C(δ) and the committed spring force of the history it just
  // wrote (CommittedTangentialResponse), bitwise what Acceleration(after) would build (the geometry and the memo
  // are those of after.q; the slot it reads in after.z is this law_out). Keyed to (after.q, after.z) at the end.
  const long n_pairs = static_cast<long>(pairs.size());
  const long n_candidates = n_pairs + static_cast<long>(wall_pairs.size());
  const size_t h = static_cast<size_t>(history_);
  scratch.law_slots.resize(static_cast<size_t>(n_candidates) * h);
  scratch.work_slots.resize(2 * static_cast<size_t>(n_candidates));
  PrepareMemo(scratch, serial_, static_cast<size_t>(n_pairs), static_cast<size_t>(n_candidates - n_pairs));
  const auto touches = [&](long k) {
    const std::pair<int, int>& c =
        k < n_pairs ? pairs[static_cast<size_t>(k)] : wall_pairs[static_cast<size_t>(k - n_pairs)];
    return (k < n_pairs ? PairOverlap(after.q, 0, c.first, c.second) : WallOverlap(after.q, 0, c.first, c.second)) >
           0.0;
  };
  const auto step = [&](long k, ContactForceTerms& terms, std::array<Eigen::Vector3d, 2>& spin) {
    const std::span<double> law_out(scratch.law_slots.data() + static_cast<size_t>(k) * h, h);
    if (k < n_pairs) {
      const int i = pairs[static_cast<size_t>(k)].first, j = pairs[static_cast<size_t>(k)].second;
      const TangentialStartRates start = PairStartRates(before, i, j, after.t - before.t);
      AssemblyContact c =
          EvaluatePair(after.q, before.v, z0, i, j, law_out, &start, &scratch.pair_memo[static_cast<size_t>(k)]);
      scratch.work_slots[2 * static_cast<size_t>(k)] = c.tangential.friction_work;
      scratch.work_slots[2 * static_cast<size_t>(k) + 1] = c.tangential.generated_work;
      c.tangential.force = sphere_law_->tangential()->SpringForce(law_out, c.delta);  // CommittedTangentialResponse's force
      PairTerms(c, i, j, inertia_, terms, spin);
    } else {
      const auto [i, w] = wall_pairs[static_cast<size_t>(k - n_pairs)];
      const TangentialStartRates start = WallStartRates(before, i, w, after.t - before.t);
      AssemblyContact c = EvaluateWall(after.q, before.v, z0, i, w, law_out, &start,
                                       &scratch.wall_memo[static_cast<size_t>(k - n_pairs)]);
      scratch.work_slots[2 * static_cast<size_t>(k)] = c.tangential.friction_work;
      scratch.work_slots[2 * static_cast<size_t>(k) + 1] = c.tangential.generated_work;
      c.tangential.force = wall_law_->tangential()->SpringForce(law_out, c.delta);  // CommittedTangentialResponse's force
      WallTerms(c, i, w, inertia_, terms, spin);
    }
  };
  FillContactCache(scratch, n_, n_candidates, touches, step);
  // Per sphere: its slots cleared and refilled, the committed slots it kept marked, and what a dropped spring still
  // stores at δ⁰ computed (released at a separation, SphereContactModel::BookStep); summed below in sphere, slot order.
  const std::vector<long>& owned = PairRunStarts(pairs, n_, scratch.pair_run_start);
  const std::vector<long>& owned_walls = PairRunStarts(wall_pairs, n_, scratch.wall_run_start);
  ParallelContactLoop(n_, [&](long sphere) {
    const int i = static_cast<int>(sphere);
    char* matched = scratch.matched.data() + static_cast<size_t>(i) * slots;
    for (size_t k = 0; k < slots; ++k) matched[k] = 0;
    int used = 0;
    auto take = [&](long k, double code) {
      if (used == slots_)
        throw InvalidParameter("history_slots", slots_,
                               "at least the number of contacts one sphere owns; sphere " + std::to_string(i) +
                                   " has more at t = " + InvalidParameter::FormatNumber(after.t));
      const int slot = used++;
      const int at = SlotAt(i, slot);
      z[at] = code;
      // The committed slot of this contact: a sphere's codes are distinct and its slots are filled from 0 without
      // gaps, so a slot holding `code` is the one FindHistory returns. While the contact set persists it is this very
      // slot (the contacts are taken in the same order every step): checked first, FindHistory's scan otherwise.
      int old = -1;
      if (z0[at] == code)
        old = slot;
      else
        FindHistory(z0, i, code, &old);
      if (old >= 0) matched[old] = 1;
      std::copy_n(scratch.law_slots.data() + static_cast<size_t>(k) * h, h, z.data() + at + 1);
    };
    for (long k = owned[static_cast<size_t>(i)]; k < owned[static_cast<size_t>(i) + 1]; ++k)
      if (scratch.contact_slot_active[static_cast<size_t>(k)])
        take(k, static_cast<double>(pairs[static_cast<size_t>(k)].second));
    for (long m = owned_walls[static_cast<size_t>(i)]; m < owned_walls[static_cast<size_t>(i) + 1]; ++m)
      if (scratch.contact_slot_active[static_cast<size_t>(n_pairs + m)])
        take(n_pairs + m, WallCode(wall_pairs[static_cast<size_t>(m)].second));
    for (int k = used; k < slots_; ++k) {  // the slots left empty (every entry of z is written)
      const int at = SlotAt(i, k);
      z[at] = kEmpty;
      for (int e = 1; e < slot_size_; ++e) z[at + e] = 0.0;
    }
    for (int k = 0; k < slots_; ++k) {
      const int at = SlotAt(i, k);
      const double code = z0[at];
      if (code == kEmpty) break;
      if (matched[k]) continue;
      const bool wall = code < 0.0;
      const double delta_prev = wall ? WallOverlap(z0, 0, i, static_cast<int>(-2.0 - code))
                                     : PairOverlap(z0, 0, i, static_cast<int>(code));
      const ContactLaw& law = wall ? *wall_law_ : *sphere_law_;
      if (delta_prev > 0.0) {
        matched[k] = 2;  // released
        scratch.released[static_cast<size_t>(i) * slots + static_cast<size_t>(k)] =
            law.tangential()->StoredEnergy({z0.data() + at + 1, static_cast<size_t>(history_)}, delta_prev);
      }
    }
  });
  for (long k = 0; k < n_candidates; ++k) {
    if (!scratch.contact_slot_active[static_cast<size_t>(k)]) continue;
    friction_work += scratch.work_slots[2 * static_cast<size_t>(k)];
    generated_work += scratch.work_slots[2 * static_cast<size_t>(k) + 1];
  }
  for (size_t at = 0; at < scratch.matched.size(); ++at)
    if (scratch.matched[at] == 2) friction_work += scratch.released[at];
  z[books_] = friction_work;
  z[books_ + 1] = generated_work;
  scratch.contacts_q.resize(static_cast<size_t>(after.q.size()));
  ParallelCopy(after.q.data(), scratch.contacts_q.data(), static_cast<long>(after.q.size()));
  HistoryLayout{n_, slots_, slot_size_, slots_at_, z_size_}.Key(z, scratch.contacts_z);
  scratch.contacts_owner = serial_;
}

// --- rigid frictional contacts (nonsmooth schemes) ----------------------------------------------------

void SphereAssembly::CheckFrictionalDeclaration() const {
  if (n_ <= kMaxFrictionalSpheres) return;
  const long pairs = static_cast<long>(n_) * (n_ - 1) / 2, walls = static_cast<long>(n_) * static_cast<long>(config_.walls.size());
  throw InvalidParameter(
      "nx*ny*nz (number of spheres)", n_,
      "[1, " + std::to_string(kMaxFrictionalSpheres) +
          "] for the rigid frictional contacts of the nonsmooth schemes: every sphere pair and sphere-wall pair is "
          "declared up front as a Siconos interaction (here " +
          std::to_string(pairs) + " + " + std::to_string(walls) +
          "), all on the one dynamical system, so Siconos links every two of them: memory and set-up time grow as "
          "N^4");
}

int SphereAssembly::num_frictional_contacts() const {
  CheckFrictionalDeclaration();  // N ≤ 64: the count below fits an int
  return n_ * (n_ - 1) / 2 + n_ * static_cast<int>(config_.walls.size());
}

std::pair<int, int> SphereAssembly::FrictionalContactBodies(int contact) const {
  IMPACTLAB_DEMAND(contact >= 0 && contact < num_frictional_contacts());
  const int pairs = n_ * (n_ - 1) / 2;
  if (contact >= pairs) {
    const int walls = static_cast<int>(config_.walls.size());
    return {(contact - pairs) / walls, -1 - (contact - pairs) % walls};
  }
  // Row i holds the pairs (i, i+1 … N−1): N − 1 − i of them.
  int i = 0, first = 0;
  while (contact >= first + (n_ - 1 - i)) first += n_ - 1 - i++;
  return {i, i + 1 + (contact - first)};
}

Eigen::VectorXd SphereAssembly::ConstantForce() const {
  Eigen::VectorXd f = Eigen::VectorXd::Zero(6 * n_);
  for (int i = 0; i < n_; ++i) f[6 * i + 2] = -mass_ * config_.gravity;
  return f;
}

double SphereAssembly::FrictionCoefficient(int contact) const {
  const ContactLaw& law = FrictionalContactBodies(contact).second >= 0 ? *sphere_law_ : *wall_law_;
  return law.tangential() ? law.tangential()->friction_coefficient() : 0.0;
}

void SphereAssembly::DeclareFrictionalContact(int contact, const Eigen::VectorXd& q, double& gap,
                                              Eigen::MatrixXd& jacobian) const {
  const auto [i, j] = FrictionalContactBodies(contact);
  jacobian = Eigen::MatrixXd::Zero(3, 6 * n_);
  if (j >= 0) {  // as SpherePairImpact, sphere 1 = i, sphere 2 = j
    const Eigen::Vector3d r = At(q, 6 * j) - At(q, 6 * i);
    const double d = r.norm();
    if (!(d > 0.0)) throw InvalidParameter("sphere centre distance", d, "> 0 (coincident centres)");
    const Eigen::Vector3d n = r / d;
    gap = d - 2.0 * radius_;
    AddSphereContactColumns(n, radius_, 6 * i, -1.0, jacobian);
    AddSphereContactColumns(n, radius_, 6 * j, 1.0, jacobian);
    return;
  }
  // As SphereWallImpact, with the wall's normal n (into the box) and point p: g = n·(x − p) − R.
  const int w = -1 - j;
  gap = -WallOverlap(q, 0, i, w);
  AddSphereContactColumns(config_.walls[static_cast<size_t>(w)].normal, radius_, 6 * i, 1.0, jacobian);
}

Eigen::VectorXd SphereAssembly::NormalJacobianRate(int contact, const Eigen::VectorXd& q,
                                                   const Eigen::VectorXd& v) const {
  const auto [i, j] = FrictionalContactBodies(contact);
  Eigen::VectorXd rate = Eigen::VectorXd::Zero(6 * n_);
  if (j < 0) return rate;  // a plane: constant normal
  const Eigen::Vector3d n_dot = NormalRate(At(q, 6 * j) - At(q, 6 * i), At(v, 6 * j) - At(v, 6 * i));
  rate.segment<3>(6 * i) = -n_dot;
  rate.segment<3>(6 * j) = n_dot;
  return rate;
}

// --- energy-consistent schemes ----------------------------------------------------------------------

Eigen::VectorXd SphereAssembly::DiscreteMassDiagonal() const {
  Eigen::VectorXd m;
  WriteDiscreteMassDiagonal(m);
  return m;
}

void SphereAssembly::WriteDiscreteMassDiagonal(Eigen::VectorXd& m) const {
  if (m.size() != 6 * n_) m.resize(6 * n_);
  for (int i = 0; i < n_; ++i) m.segment<6>(6 * i) << mass_, mass_, mass_, inertia_, inertia_, inertia_;
}

void SphereAssembly::EvaluateDiscreteStep(const MechanicalState& before, const Eigen::VectorXd& q1, double h,
                                          DiscreteGradientForm form, DiscreteContactStep& out) const {
  static constexpr std::array<double, kMaxLawHistory> kZero{};
  const Eigen::VectorXd& z0 = before.z;
  const Eigen::VectorXd& q0 = before.q;
  Eigen::VectorXd& z = out.z_next;
  if (z.size() != z_size_) z.resize(z_size_);
  z.head(6 * n_) = q1;
  for (int i = 0; i < n_; ++i)
    for (int k = 0; k < slots_; ++k) {
      const int at = SlotAt(i, k);
      z[at] = kEmpty;
      for (int hh = 1; hh < slot_size_; ++hh) z[at + hh] = 0.0;
    }
  out.force = Eigen::VectorXd::Zero(6 * n_);
  double scale = 0.0, damping_work = 0.0, friction_work = 0.0, generated_work = 0.0;
  for (int i = 0; i < n_; ++i) out.force[6 * i + 2] = mass_ * config_.gravity;  // −f_ext
  scale += n_ * mass_ * config_.gravity;
  BroadPhaseScratch& scratch = Scratch();
  std::vector<int>& used = scratch.used;
  used.assign(static_cast<size_t>(n_), 0);
  const size_t h_size = static_cast<size_t>(history_);
  auto previous = [&](int i, double code) {
    const std::span<const double> found = FindHistory(z0, i, code);
    return found.empty() ? std::span<const double>(kZero).subspan(0, h_size) : found;
  };
  std::vector<StepContact> contacts;
  DiscreteStepContacts(q0, z0, q1, contacts);
  const long count = static_cast<long>(contacts.size());
  // 1. Serially, in contact order: the history slot of every contact active at q1 (a new slot of sphere i, its
  //    code written), −1 for the others (their law history goes to scratch).
  std::vector<int>& slot_at = scratch.step_target;
  slot_at.resize(contacts.size());
  for (size_t k = 0; k < contacts.size(); ++k) {
    const StepContact& sc = contacts[k];
    const double code = sc.wall ? WallCode(sc.other) : static_cast<double>(sc.other);
    const double overlap = sc.wall ? WallOverlap(q1, 0, sc.i, sc.other) : PairOverlap(q1, 0, sc.i, sc.other);
    if (!(overlap > 0.0)) {
      slot_at[k] = -1;
      continue;
    }
    int& used_i = used[static_cast<size_t>(sc.i)];
    if (used_i == slots_)
      throw InvalidParameter("history_slots", slots_,
                             "at least the number of contacts one sphere owns; sphere " + std::to_string(sc.i) +
                                 " has more at t = " + InvalidParameter::FormatNumber(before.t + h));
    slot_at[k] = SlotAt(sc.i, used_i++);
    z[slot_at[k]] = code;
  }
  // 2. Every contact into its own slot (on the contact threads): its force, torque, scale and book terms; its law
  //    history into its own range of z.
  std::vector<DiscreteStepSlot>& slots = scratch.step_slots;
  slots.resize(contacts.size());
  const double r_sum = 2.0 * radius_;
  ParallelContactLoop(count, [&](long k_long) {
    const size_t k = static_cast<size_t>(k_long);
    const StepContact& sc = contacts[k];
    const int i = sc.i;
    std::array<double, kMaxLawHistory> sink{};
    const std::span<double> target = slot_at[k] < 0 ? std::span<double>(sink).subspan(0, h_size)
                                                    : std::span<double>(z.data() + slot_at[k] + 1, h_size);
    DiscreteStepSlot& out_k = slots[k];
    const ContactLaw& law = sc.wall ? *wall_law_ : *sphere_law_;
    double delta_prev, overlap;
    std::span<const double> history_prev;
    DiscreteContactResponse c;
    if (!sc.wall) {
      const int j = sc.other;
      delta_prev = PairOverlap(z0, 0, i, j);
      overlap = PairOverlap(q1, 0, i, j);
      history_prev = previous(i, static_cast<double>(j));
      PairCoordinates x1;
      x1 << At(q1, 6 * i), At(q1, 6 * i + 3), At(q1, 6 * j), At(q1, 6 * j + 3);
      c = DiscretePairStep(q0, z0, x1, i, j, h, form, PairStartRates(before, i, j, h), history_prev, target,
                           out_k.force, out_k.torque);
      out_k.scale = out_k.force.norm() + (1.0 + r_sum) * c.tangential_force.norm();
    } else {
      const int w = sc.other;
      delta_prev = WallOverlap(z0, 0, i, w);
      overlap = WallOverlap(q1, 0, i, w);
      history_prev = previous(i, WallCode(w));
      WallCoordinates x1;
      x1 << At(q1, 6 * i), At(q1, 6 * i + 3);
      c = DiscreteWallStep(q0, z0, x1, i, w, h, form, WallStartRates(before, i, w, h), history_prev, target,
                           out_k.force, out_k.torque);
      out_k.scale = std::abs(c.normal_force) + (1.0 + radius_) * c.tangential_force.norm();
    }
    // The books of one contact (SphereContactModel::BookDiscreteStep / BookStep).
    out_k.damping_work = c.damping_work;
    out_k.friction = out_k.generated = false;
    if (overlap > 0.0) {
      out_k.friction = out_k.generated = true;
      out_k.friction_work = c.tangential.friction_work;
      out_k.generated_work = c.tangential.generated_work;
    } else if (delta_prev > 0.0) {
      out_k.friction = true;
      out_k.friction_work = law.tangential()->StoredEnergy(history_prev, delta_prev);
    }
  });
  // 3. Serially, in contact order: the force, the scale and the books summed as the serial loop summed them.
  for (size_t k = 0; k < contacts.size(); ++k) {
    const StepContact& sc = contacts[k];
    const DiscreteStepSlot& c = slots[k];
    const int i = sc.i;
    if (!sc.wall) {
      const int j = sc.other;
      out.force.segment<3>(6 * i) += c.force;
      out.force.segment<3>(6 * j) -= c.force;
      out.force.segment<3>(6 * i + 3) += c.torque;
      out.force.segment<3>(6 * j + 3) += c.torque;
    } else {
      out.force.segment<3>(6 * i) -= c.force;
      out.force.segment<3>(6 * i + 3) -= c.torque;
    }
    scale += c.scale;
    damping_work += c.damping_work;
    if (c.friction) friction_work += c.friction_work;
    if (c.generated) generated_work += c.generated_work;
  }
  z[books_] = z0[books_] + friction_work;
  z[books_ + 1] = z0[books_ + 1] + generated_work;
  out.scale = scale;
  out.damping_work = damping_work;
  out.dissipated = damping_work;  // friction and generated work are booked in z
  out.friction_work = friction_work;
  out.generated_work = generated_work;
}

void SphereAssembly::DiscreteStepContacts(const Eigen::VectorXd& q0, const Eigen::VectorXd& z0,
                                          const Eigen::VectorXd& q1, std::vector<StepContact>& contacts) const {
  contacts.clear();
  // Pairs within reach at q0 or q1 (ascending, unique).
  std::vector<std::pair<int, int>> pairs;
  CandidatePairs(q0, pairs);
  std::vector<std::pair<int, int>> pairs1;
  CandidatePairs(q1, pairs1);
  std::vector<std::pair<int, int>> merged;
  std::set_union(pairs.begin(), pairs.end(), pairs1.begin(), pairs1.end(), std::back_inserter(merged));
  for (const std::pair<int, int>& p : merged) {
    const double delta0 = PairOverlap(q0, 0, p.first, p.second), delta1 = PairOverlap(q1, 0, p.first, p.second);
    const double delta_prev = PairOverlap(z0, 0, p.first, p.second);
    if (!(delta0 > 0.0) && !(delta1 > 0.0) && !(delta_prev > 0.0)) continue;
    contacts.push_back({p.first, p.second, false});
  }
  const int walls = static_cast<int>(config_.walls.size());
  for (int i = 0; i < n_; ++i)
    for (int w = 0; w < walls; ++w) {
      const double delta_prev = WallOverlap(z0, 0, i, w);
      const double delta0 = WallOverlap(q0, 0, i, w), delta1 = WallOverlap(q1, 0, i, w);
      if (!(delta0 > 0.0) && !(delta1 > 0.0) && !(delta_prev > 0.0)) continue;
      contacts.push_back({i, w, true});
    }
}

DiscreteContactResponse SphereAssembly::DiscretePairStep(const Eigen::VectorXd& q0, const Eigen::VectorXd& z0,
                                                         const PairCoordinates& x1, int i, int j, double h,
                                                         DiscreteGradientForm form, const TangentialStartRates& start,
                                                         std::span<const double> history_prev,
                                                         std::span<double> target, Eigen::Vector3d& force_j,
                                                         Eigen::Vector3d& arm_torque, DiscreteNormalMemo* memo) const {
  // SpherePairImpact::EvaluateDiscreteStep.
  const double r_sum = 2.0 * radius_;
  const Eigen::Vector3d r0 = At(q0, 6 * j) - At(q0, 6 * i);
  const Eigen::Vector3d r1 = Eigen::Vector3d(x1.segment<3>(6)) - Eigen::Vector3d(x1.segment<3>(0));
  const double delta_prev = PairOverlap(z0, 0, i, j);
  const double d0 = r0.norm(), d1 = r1.norm();
  const Eigen::Vector3d rm = 0.5 * (r0 + r1), dr = r1 - r0;
  const double dm = rm.norm(), r_bar = 0.5 * (d0 + d1);
  if (!(dm > 0.0)) throw InvalidParameter("sphere centre distance", dm, "> 0 (coincident centres)");
  const Eigen::Vector3d nm = rm / dm;
  const Eigen::Matrix3d pt = Eigen::Matrix3d::Identity() - nm * nm.transpose();
  const double half_overlap = 0.5 * (r_sum - dm);
  const double a = radius_ - half_overlap;
  const Eigen::Vector3d dphi_i = Eigen::Vector3d(x1.segment<3>(3)) - At(q0, 6 * i + 3);
  const Eigen::Vector3d dphi_j = Eigen::Vector3d(x1.segment<3>(9)) - At(q0, 6 * j + 3);
  ContactKinematics k;
  k.overlap = r_sum - d1;
  k.normal = nm;
  k.tangential_increment = pt * (dr - (a * dphi_i + a * dphi_j).cross(nm));
  k.overlap_prev = delta_prev;
  k.normal_force_prev = sphere_law_->CommittedElasticForce(delta_prev, memo);
  k.start_rates = start;
  const double delta0 = r_sum - d0;
  const DiscreteContactResponse c = sphere_law_->EvaluateDiscrete(delta0, k, h, form, history_prev, target, memo);
  Eigen::Vector3d normal_j = c.normal_force * (rm / r_bar);  // quotient forms: along −∇̄_r δ = r_m/r̄
  if (form == DiscreteGradientForm::kMidpoint) normal_j = c.normal_force * nm;
  if (form == DiscreteGradientForm::kCartesian) {
    const NormalContactLaw& elastic = sphere_law_->elastic();
    const double w0 = elastic.Potential(delta0), w1 = elastic.Potential(k.overlap);
    const double wm_force = elastic.Force(r_sum - dm);
    const Eigen::Vector3d grad = -wm_force * nm;
    const double dr2 = dr.squaredNorm(), num = (w1 - w0) - grad.dot(dr);
    constexpr double kEps = 2.220446049250313e-16;
    const bool use =
        dr2 > 0.0 && std::abs(num) > 8.0 * kEps * (std::abs(w0) + std::abs(w1) + std::abs(grad.dot(dr)));
    normal_j = -(grad + (use ? num / dr2 : 0.0) * dr) + c.damping_force * (rm / r_bar);
  }
  force_j = normal_j + c.tangential_force;
  arm_torque = a * nm.cross(c.tangential_force);
  return c;
}

DiscreteContactResponse SphereAssembly::DiscreteWallStep(const Eigen::VectorXd& q0, const Eigen::VectorXd& z0,
                                                         const WallCoordinates& x1, int i, int w, double h,
                                                         DiscreteGradientForm form, const TangentialStartRates& start,
                                                         std::span<const double> history_prev,
                                                         std::span<double> target, Eigen::Vector3d& force,
                                                         Eigen::Vector3d& torque, DiscreteNormalMemo* memo) const {
  // SphereWallImpact::EvaluateDiscreteStep.
  const AssemblyWall& wall = config_.walls[static_cast<size_t>(w)];
  const Eigen::Vector3d& n = wall.normal;
  const Eigen::Vector3d x = x1.segment<3>(0), phi = x1.segment<3>(3);
  const double delta_prev = WallOverlap(z0, 0, i, w);
  const double delta0 = WallOverlap(q0, 0, i, w);
  ContactKinematics k;
  k.overlap = radius_ - n.dot(x - wall.point);
  k.normal = n;
  k.tangential_increment = Tangential((x - At(z0, 6 * i)) - radius_ * (phi - At(z0, 6 * i + 3)).cross(n), n);
  k.overlap_prev = delta_prev;
  k.normal_force_prev = wall_law_->CommittedElasticForce(delta_prev, memo);
  k.start_rates = start;
  const DiscreteContactResponse c = wall_law_->EvaluateDiscrete(delta0, k, h, form, history_prev, target, memo);
  force = c.normal_force * n + c.tangential_force;
  torque = (-radius_ * n).cross(c.tangential_force);
  return c;
}

void SphereAssembly::DiscreteStepJacobianBlocks(const MechanicalState& before, const Eigen::VectorXd& q1, double h,
                                                DiscreteGradientForm form, double motion,
                                                ContactBlocks& blocks) const {
  const Eigen::VectorXd &q0 = before.q, &z0 = before.z;
  std::vector<StepContact> contacts;
  DiscreteStepContacts(q0, z0, q1, contacts);
  const long count = static_cast<long>(contacts.size());
  // The layout serially (the first body's 6 coordinates, then the second's), then each contact's values into its
  // own range on the contact threads: the same values for any thread count, no intermediate block storage.
  blocks.Clear();
  for (const StepContact& sc : contacts) {
    std::array<int, 12> coords;
    for (int c = 0; c < 6; ++c) {
      coords[static_cast<size_t>(c)] = 6 * sc.i + c;
      coords[static_cast<size_t>(c) + 6] = 6 * sc.other + c;
    }
    blocks.AddBlock(std::span<const int>(coords.data(), sc.wall ? 6 : 12));
  }
  blocks.SizeValues();
  const size_t h_size = static_cast<size_t>(history_);
  ParallelContactLoop(count, [&](long k) {
    const StepContact& sc = contacts[static_cast<size_t>(k)];
    std::array<double, kMaxLawHistory> sink{};  // the probes' law history (discarded)
    static constexpr std::array<double, kMaxLawHistory> kZero{};
    const double code = sc.wall ? WallCode(sc.other) : static_cast<double>(sc.other);
    std::span<const double> history_prev = FindHistory(z0, sc.i, code);
    if (history_prev.empty()) history_prev = std::span<const double>(kZero).subspan(0, h_size);
    const std::span<double> target = std::span<double>(sink).subspan(0, h_size);
    double* out = blocks.block_values(static_cast<size_t>(k));
    // The probes of the rotation coordinates leave δ₀, δ₁ and δ_prev as they are: their law values are reused.
    DiscreteNormalMemo memo;
    if (!sc.wall) {
      PairCoordinates x1;
      x1 << At(q1, 6 * sc.i), At(q1, 6 * sc.i + 3), At(q1, 6 * sc.other), At(q1, 6 * sc.other + 3);
      const TangentialStartRates start = PairStartRates(before, sc.i, sc.other, h);
      const auto pair_force = [&](const PairCoordinates& x) {
        Eigen::Vector3d force_j, arm_torque;
        DiscretePairStep(q0, z0, x, sc.i, sc.other, h, form, start, history_prev, target, force_j, arm_torque,
                         &memo);
        PairCoordinates f;
        f << force_j, arm_torque, -force_j, arm_torque;
        return f;
      };
      Eigen::Map<Eigen::Matrix<double, 12, 12>> block(out);  // column-major, as ContactBlocks stores it
      Eigen::Matrix<double, 12, 12> b;
      ContactBlockDifference(x1, motion, pair_force, b);
      block = b;
    } else {
      WallCoordinates x1;
      x1 << At(q1, 6 * sc.i), At(q1, 6 * sc.i + 3);
      const TangentialStartRates start = WallStartRates(before, sc.i, sc.other, h);
      const auto wall_force = [&](const WallCoordinates& x) {
        Eigen::Vector3d force, torque;
        DiscreteWallStep(q0, z0, x, sc.i, sc.other, h, form, start, history_prev, target, force, torque, &memo);
        WallCoordinates f;
        f << -force, -torque;
        return f;
      };
      Eigen::Map<Eigen::Matrix<double, 6, 6>> block(out);
      Eigen::Matrix<double, 6, 6> b;
      ContactBlockDifference(x1, motion, wall_force, b);
      block = b;
    }
  });
}

// --- energy -----------------------------------------------------------------------------------------

double SphereAssembly::KineticEnergy(const MechanicalState& s) const {
  double t = 0.0, r = 0.0;
  for (int i = 0; i < n_; ++i) {
    t += s.v.segment<3>(6 * i).squaredNorm();
    r += s.v.segment<3>(6 * i + 3).squaredNorm();
  }
  return 0.5 * mass_ * t + 0.5 * inertia_ * r;
}

double SphereAssembly::GravityEnergy(const MechanicalState& s) const {
  double h = 0.0;
  for (int i = 0; i < n_; ++i) h += s.q[6 * i + 2];
  return mass_ * config_.gravity * h;
}

double SphereAssembly::NormalElasticEnergy(const MechanicalState& s) const {
  double w = 0.0;
  std::vector<std::pair<int, int>>& pairs = Scratch().pairs;
  CandidatePairs(s.q, pairs);
  for (const std::pair<int, int>& p : pairs) {
    const double delta = PairOverlap(s.q, 0, p.first, p.second);
    if (delta > 0.0) w += sphere_law_->elastic().Potential(delta);
  }
  const int walls = static_cast<int>(config_.walls.size());
  for (int i = 0; i < n_; ++i)
    for (int k = 0; k < walls; ++k) {
      const double delta = WallOverlap(s.q, 0, i, k);
      if (delta > 0.0) w += wall_law_->elastic().Potential(delta);
    }
  return w;
}

double SphereAssembly::TangentialElasticEnergy(const MechanicalState& s) const {
  double u = 0.0;
  for (int i = 0; i < n_; ++i)
    for (int k = 0; k < slots_; ++k) {
      const int at = SlotAt(i, k);
      const double code = s.z[at];
      if (code == kEmpty) break;
      const bool wall = code < 0.0;
      const double delta = wall ? WallOverlap(s.q, 0, i, static_cast<int>(-2.0 - code))
                                : PairOverlap(s.q, 0, i, static_cast<int>(code));
      if (!(delta > 0.0)) continue;
      const ContactLaw& law = wall ? *wall_law_ : *sphere_law_;
      u += law.tangential()->StoredEnergy({s.z.data() + at + 1, static_cast<size_t>(history_)}, delta);
    }
  return u;
}

double SphereAssembly::PotentialEnergy(const MechanicalState& s) const {
  return GravityEnergy(s) + NormalElasticEnergy(s) + TangentialElasticEnergy(s);
}

double SphereAssembly::DissipationPower(const MechanicalState& s) const {
  if (!damped_) return 0.0;
  double p = 0.0;
  BroadPhaseScratch& scratch = Scratch();
  if (ContactCacheHolds(scratch, serial_, s, /*layout=*/nullptr)) {
    // Acceleration's active contacts at this q (velocity Verlet asks for P right after a; they depend on q alone):
    // the same contacts (δ > 0), normals r/|r|, C(δ) and order (pairs in candidate order, then the walls sphere by
    // sphere) as the loops below, so the same sum to the bit. The terms C δ̇² on the contact threads, their sum
    // serially in contact order: the same bits for any thread count.
    const long n = static_cast<long>(scratch.contacts.size());
    std::vector<double>& terms = scratch.power_terms;
    terms.resize(static_cast<size_t>(n));
    ParallelContactLoop(n, [&](long k) {
      const ContactForceTerms& c = scratch.contacts[static_cast<size_t>(k)];
      const double rate = c.b >= 0 ? -(At(s.v, 6 * c.b) - At(s.v, 6 * c.a)).dot(c.normal)
                                   : -c.normal.dot(At(s.v, 6 * c.a));
      terms[static_cast<size_t>(k)] = c.damping * rate * rate;
    });
    for (const double term : terms) p += term;
    return p;
  }
  std::vector<std::pair<int, int>>& pairs = Scratch().pairs;
  CandidatePairs(s.q, pairs);
  for (const std::pair<int, int>& pr : pairs) {
    const int i = pr.first, j = pr.second;
    const double delta = PairOverlap(s.q, 0, i, j);
    if (!(delta > 0.0)) continue;
    const Eigen::Vector3d r = At(s.q, 6 * j) - At(s.q, 6 * i);
    const double rate = -(At(s.v, 6 * j) - At(s.v, 6 * i)).dot(r / r.norm());
    p += sphere_law_->damping().Coefficient(delta) * rate * rate;
  }
  const int walls = static_cast<int>(config_.walls.size());
  for (int i = 0; i < n_; ++i)
    for (int w = 0; w < walls; ++w) {
      const double delta = WallOverlap(s.q, 0, i, w);
      if (!(delta > 0.0)) continue;
      const double rate = -config_.walls[static_cast<size_t>(w)].normal.dot(At(s.v, 6 * i));
      p += wall_law_->damping().Coefficient(delta) * rate * rate;
    }
  return p;
}

EnergyTerms SphereAssembly::EnergyBooks(const MechanicalState& s) const {
  EnergyTerms e;
  e.kinetic = KineticEnergy(s);
  e.stored = {{"gravity", GravityEnergy(s)},
              {"normal_elastic", NormalElasticEnergy(s)},
              {"tangential_elastic", TangentialElasticEnergy(s)}};
  e.damping_work = s.dissipated;
  e.friction_work = FrictionWork(s);
  e.generated_work = GeneratedWork(s);
  return e;
}

double SphereAssembly::BalanceResidual(const MechanicalState& s) const {
  const double scale = std::abs(e0_) > 0.0 ? std::abs(e0_) : 1.0;
  return (TotalEnergy(s) + s.dissipated + FrictionWork(s) - GeneratedWork(s) - e0_) / scale;
}

// --- diagnostics ------------------------------------------------------------------------------------

std::pair<long, long> SphereAssembly::CountContacts(const MechanicalState& s) const {
  long pairs_in_contact = 0, wall_contacts = 0;
  std::vector<std::pair<int, int>>& pairs = Scratch().pairs;
  CandidatePairs(s.q, pairs);
  for (const std::pair<int, int>& p : pairs) pairs_in_contact += PairOverlap(s.q, 0, p.first, p.second) > 0.0;
  const int walls = static_cast<int>(config_.walls.size());
  for (int i = 0; i < n_; ++i)
    for (int w = 0; w < walls; ++w) wall_contacts += WallOverlap(s.q, 0, i, w) > 0.0;
  return {pairs_in_contact, wall_contacts};
}

long SphereAssembly::OccupiedSlots(const MechanicalState& s) const {
  long n = 0;
  for (int i = 0; i < n_; ++i)
    for (int k = 0; k < slots_ && s.z[SlotAt(i, k)] != kEmpty; ++k) ++n;
  return n;
}

double SphereAssembly::MaxOverlap(const MechanicalState& s) const {
  double m = 0.0;
  std::vector<std::pair<int, int>>& pairs = Scratch().pairs;
  CandidatePairs(s.q, pairs);
  for (const std::pair<int, int>& p : pairs) m = std::max(m, PairOverlap(s.q, 0, p.first, p.second));
  const int walls = static_cast<int>(config_.walls.size());
  for (int i = 0; i < n_; ++i)
    for (int w = 0; w < walls; ++w) m = std::max(m, WallOverlap(s.q, 0, i, w));
  return m;
}

std::vector<std::string> SphereAssembly::ObservableNames() const {
  return {"sphere_contacts", "wall_contacts",        "max_overlap_m",   "kinetic_J",        "gravity_J",
          "normal_elastic_J", "tangential_elastic_J", "normal_damping_work_J", "friction_work_J",
          "generated_work_J", "residual_J"};
}

void SphereAssembly::Observe(const MechanicalState& s, std::vector<double>& values) const {
  const std::pair<long, long> contacts = CountContacts(s);
  const EnergyTerms e = EnergyBooks(s);
  values = {static_cast<double>(contacts.first),
            static_cast<double>(contacts.second),
            MaxOverlap(s),
            e.kinetic,
            e.stored[0].second,
            e.stored[1].second,
            e.stored[2].second,
            s.dissipated,
            e.friction_work,
            e.generated_work,
            e.Books() - e0_};
}

// Estimate (docs/reliability.md): the sphere-pair Hertz–Mindlin bound (HertzMindlinCriticalTimeStep) with the
// reduced mass m/2, R* = R/2, the tangential spring acting on 2(1/m + R²/I), at the approach speed
// 2 max|v_i| + √(2 g z_max) (the fastest relative speed a free fall in the packing can reach).
std::optional<double> SphereAssembly::CriticalTimeStep(const MechanicalState& s) const {
  const NormalContactLaw& elastic = sphere_law_->elastic();
  if (elastic.exponent() != 1.5) return std::nullopt;
  double v_max = 0.0, z_max = 0.0;
  for (int i = 0; i < n_; ++i) {
    v_max = std::max(v_max, s.v.segment<3>(6 * i).norm());
    z_max = std::max(z_max, s.q[6 * i + 2]);
  }
  const double speed = 2.0 * v_max + std::sqrt(2.0 * config_.gravity * std::max(z_max, 0.0));
  if (!(speed > 0.0)) return std::nullopt;
  const bool friction = sphere_law_->tangential()->friction_coefficient() > 0.0 && config_.shear_modulus_star > 0.0;
  const double w = friction ? 2.0 * (1.0 / mass_ + radius_ * radius_ / inertia_) : 0.0;
  return HertzMindlinCriticalTimeStep(0.5 * mass_, elastic.coefficient(), speed, config_.e_n,
                                      friction ? config_.shear_modulus_star : 1.0, 0.5 * radius_, w);
}

}  // namespace impactlab
