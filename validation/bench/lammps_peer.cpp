#include "bench/lammps_peer.h"

#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <regex>
#include <sstream>

#include "contact/damping/viscous_dampers.h"
#include "core/errors.h"
#include "registry/sphere_assembly_registration.h"

namespace impactlab::bench {
namespace {

std::string G17(double x) {
  char buffer[40];
  std::snprintf(buffer, sizeof buffer, "%.17g", x);
  return buffer;
}

const TsujiDamping& RequireTsuji(const ContactLaw& law, const char* which) {
  const auto* tsuji = dynamic_cast<const TsujiDamping*>(&law.damping());
  if (!tsuji) throw InvalidParameter("damping", law.damping().name(), std::string("tsuji for the LAMMPS peer (") + which + ")");
  return *tsuji;
}

void RequireHertz(const ContactLaw& law, double effective_modulus, double effective_radius, const char* which) {
  if (law.elastic().name() != "hertz")
    throw InvalidParameter("normal_law", law.elastic().name(), std::string("hertz for the LAMMPS peer (") + which + ")");
  const double k = 4.0 / 3.0 * effective_modulus * std::sqrt(effective_radius);
  if (std::abs(law.elastic().coefficient() - k) > 1e-12 * k)
    throw InvalidParameter("normal_law coefficient", law.elastic().coefficient(),
                           std::string("4/3 E* sqrt(R*) for the LAMMPS peer (") + which + ")");
}

std::string ReadFile(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace

double LammpsTsujiAlpha(double e) {
  return 1.2728 - 4.2783 * e + 11.087 * e * e - 22.348 * std::pow(e, 3) + 27.467 * std::pow(e, 4) -
         18.022 * std::pow(e, 5) + 4.8218 * std::pow(e, 6);
}

double LammpsRestitutionForTsujiAlpha(double alpha) {
  // α_L decreases monotonically on [0, 1] (from 1.2728 to ≈ 3e-4); bisection to round-off.
  const double a0 = LammpsTsujiAlpha(0.0), a1 = LammpsTsujiAlpha(1.0);
  if (!(alpha <= a0 && alpha >= a1))
    throw InvalidParameter("Tsuji alpha", alpha, "in [" + G17(a1) + ", " + G17(a0) + "] (LAMMPS's alpha(e) range)");
  double lo = 0.0, hi = 1.0;
  for (int i = 0; i < 200 && hi - lo > 1e-16; ++i) {
    const double mid = 0.5 * (lo + hi);
    (LammpsTsujiAlpha(mid) > alpha ? lo : hi) = mid;
  }
  return 0.5 * (lo + hi);
}

nlohmann::json LammpsPacking::ToJson() const {
  return {{"pair_coeff", "hertz/material " + G17(pair_E) + " " + G17(pair_e) + " " + G17(poisson) +
                             " tangential mindlin_rescale/force " + G17(pair_kt) + " 0.0 " + G17(mu) + " damping tsuji"},
          {"wall", "hertz/material " + G17(wall_E) + " " + G17(wall_e) + " " + G17(poisson) +
                       " tangential mindlin_rescale/force " + G17(wall_kt) + " 0.0 " + G17(mu) + " damping tsuji"},
          {"tsuji_alpha_pair", pair_alpha},
          {"tsuji_alpha_wall", wall_alpha},
          {"lammps_restitution_pair", pair_e},
          {"lammps_restitution_wall", wall_e},
          {"dt", dt},
          {"warmup_steps", warmup_steps},
          {"timed_steps", timed_steps},
          {"box", {lx, ly}}};
}

LammpsPacking MapToLammps(const ParameterSet& parameters, const SphereAssembly& model, double dt, long warmup_steps,
                          long timed_steps) {
  const SphereAssemblyParameters a = SphereAssemblyParametersFrom(parameters);
  LammpsPacking p;
  p.configuration = model.configuration();
  const double s = a.spacing();
  p.lx = a.nx * s;
  p.ly = a.ny * s;
  // The box of SphereAssemblyParameters::Configuration: floor z = 0, walls x = 0, lx and y = 0, ly.
  const auto& w = p.configuration.walls;
  if (w.size() != 5 || w[0].normal != Eigen::Vector3d::UnitZ() || w[0].point.z() != 0.0 || w[2].point.x() != p.lx ||
      w[4].point.y() != p.ly)
    throw InvalidParameter("walls", static_cast<double>(w.size()), "the floor-and-four-walls box for the LAMMPS peer");
  if (a.poisson != a.nu_wall || a.E != a.E_wall)
    throw InvalidParameter("E_wall / nu_wall", a.E_wall, "the spheres' material for the LAMMPS peer");
  p.poisson = a.poisson;
  const double r = a.radius;
  const double pair_e_star = a.pair_effective_modulus(), wall_e_star = a.wall_effective_modulus();
  RequireHertz(model.sphere_law(), pair_e_star, 0.5 * r, "sphere-sphere");
  RequireHertz(model.wall_law(), wall_e_star, r, "sphere-wall");
  for (const ContactLaw* law : {&model.sphere_law(), &model.wall_law()})
    if (!law->tangential() || law->tangential()->name() != "mindlin_rescaled_incremental")
      throw InvalidParameter("tangential_law", law->tangential() ? law->tangential()->name() : std::string("none"),
                             "mindlin_rescaled_incremental for the LAMMPS peer (mindlin_rescale/force)");
  p.pair_E = 2.0 * (1.0 - a.poisson * a.poisson) * pair_e_star;
  p.wall_E = 2.0 * (1.0 - a.poisson) * wall_e_star;
  p.pair_kt = 8.0 * a.pair_effective_shear_modulus();
  p.wall_kt = 8.0 * a.wall_effective_shear_modulus();
  p.pair_alpha = RequireTsuji(model.sphere_law(), "sphere-sphere").alpha();
  p.wall_alpha = RequireTsuji(model.wall_law(), "sphere-wall").alpha();
  p.pair_e = LammpsRestitutionForTsujiAlpha(p.pair_alpha);
  p.wall_e = LammpsRestitutionForTsujiAlpha(p.wall_alpha);
  p.mu = model.sphere_law().tangential()->friction_coefficient();
  if (model.wall_law().tangential()->friction_coefficient() != p.mu)
    throw InvalidParameter("mu", model.wall_law().tangential()->friction_coefficient(), "the pair's mu at the walls");
  p.dt = dt;
  p.warmup_steps = warmup_steps;
  p.timed_steps = timed_steps;
  return p;
}

std::string LammpsDataFile(const LammpsPacking& p) {
  const auto& c = p.configuration;
  const size_t n = c.positions.size();
  double z_top = 0.0;
  for (const auto& x : c.positions) z_top = std::max(z_top, x.z());
  std::ostringstream os;
  os << "LAMMPS data file of an impactlab sphere_assembly packing (impactlab bench, docs/performance.md)\n\n"
     << n << " atoms\n1 atom types\n\n"
     << "0 " << G17(p.lx) << " xlo xhi\n0 " << G17(p.ly) << " ylo yhi\n0 " << G17(z_top + 20.0 * c.radius)
     << " zlo zhi\n\nAtoms # sphere\n\n";
  for (size_t i = 0; i < n; ++i)
    os << i + 1 << " 1 " << G17(2.0 * c.radius) << ' ' << G17(c.density) << ' ' << G17(c.positions[i].x()) << ' '
       << G17(c.positions[i].y()) << ' ' << G17(c.positions[i].z()) << '\n';
  os << "\nVelocities\n\n";
  for (size_t i = 0; i < n; ++i) {
    const Eigen::Vector3d w = c.spins.empty() ? Eigen::Vector3d::Zero() : c.spins[i];
    os << i + 1 << ' ' << G17(c.velocities[i].x()) << ' ' << G17(c.velocities[i].y()) << ' '
       << G17(c.velocities[i].z()) << ' ' << G17(w.x()) << ' ' << G17(w.y()) << ' ' << G17(w.z()) << '\n';
  }
  return os.str();
}

std::string LammpsInputScript(const LammpsPacking& p) {
  const std::string pair = "hertz/material " + G17(p.pair_E) + " " + G17(p.pair_e) + " " + G17(p.poisson) +
                           " tangential mindlin_rescale/force " + G17(p.pair_kt) + " 0.0 " + G17(p.mu) +
                           " damping tsuji";
  const std::string wall = "granular hertz/material " + G17(p.wall_E) + " " + G17(p.wall_e) + " " + G17(p.poisson) +
                           " tangential mindlin_rescale/force " + G17(p.wall_kt) + " 0.0 " + G17(p.mu) +
                           " damping tsuji";
  std::ostringstream os;
  os << "# impactlab bench: the sphere_assembly packing in LAMMPS (mapping: validation/bench/lammps_peer.h)\n"
     << "units si\natom_style sphere\ndimension 3\nboundary f f f\nnewton off\ncomm_modify vel yes\n"
     << "read_data packing.data\n"
     << "pair_style granular\npair_coeff * * " << pair << "\n"
     // Skin 0.1 R: the packing moves by ~1e-4 R per step, so the list is built once per run.
     << "neighbor " << G17(0.1 * p.configuration.radius) << " bin\nneigh_modify delay 0 every 1 check yes\n"
     << "fix integrate all nve/sphere\n"
     << "fix gravity all gravity " << G17(p.configuration.gravity) << " vector 0 0 -1\n"
     << "fix floor all wall/gran " << wall << " zplane 0 NULL\n"
     << "fix xwalls all wall/gran " << wall << " xplane 0 " << G17(p.lx) << "\n"
     << "fix ywalls all wall/gran " << wall << " yplane 0 " << G17(p.ly) << "\n"
     << "compute rot all erotate/sphere\n"
     << "thermo_style custom step ke c_rot\nthermo_modify norm no\nthermo 0\n"
     << "timestep " << G17(p.dt) << "\n";
  if (p.dump_final)
    os << "run 0\nwrite_dump all custom initial.dump id fx fy fz modify format float %.17g sort id\n";
  os << "run " << p.warmup_steps << "\n"
     << "run " << p.timed_steps << "\n";
  if (p.dump_final)
    os << "write_dump all custom final.dump id x y z vx vy vz omegax omegay omegaz modify format float %.17g "
          "sort id\n";
  return os.str();
}

std::vector<LammpsLoop> ParseLammpsLoops(const std::string& log) {
  static const std::regex line(R"(Loop time of ([0-9.eE+-]+) on ([0-9]+) procs for ([0-9]+) steps with ([0-9]+) atoms)");
  std::vector<LammpsLoop> loops;
  for (auto it = std::sregex_iterator(log.begin(), log.end(), line); it != std::sregex_iterator(); ++it)
    loops.push_back({std::stod((*it)[1]), std::stoi((*it)[2]), std::stol((*it)[3]), std::stol((*it)[4])});
  return loops;
}

std::filesystem::path FindLammps() {
  if (const char* env = std::getenv("IMPACTLAB_LAMMPS"); env && *env) {
    const std::filesystem::path p = env;
    if (p.filename() == p) return FindOnPath(env);
    std::error_code ec;
    return std::filesystem::is_regular_file(p, ec) && ::access(p.c_str(), X_OK) == 0 ? p : std::filesystem::path();
  }
  return FindOnPath("lmp");
}

LammpsResult RunLammpsPacking(const std::filesystem::path& lammps, const LammpsPacking& p,
                              const std::filesystem::path& directory) {
  LammpsResult r;
  std::filesystem::create_directories(directory);
  {
    std::ofstream(directory / "packing.data") << LammpsDataFile(p);
    std::ofstream(directory / "in.packing") << LammpsInputScript(p);
  }
  std::filesystem::remove(directory / "log.lammps");
  std::filesystem::remove(directory / "final.dump");
  // One core: one process (no mpirun), one OpenMP thread, no accelerator suffix (-sf not given).
  r.child = RunChild({lammps.string(), "-in", "in.packing", "-log", "log.lammps", "-screen", "none", "-nocite"},
                     {"OMP_NUM_THREADS=1"}, directory, directory / "stdout.txt", directory / "stderr.txt");
  const std::string log = ReadFile(directory / "log.lammps");
  if (!r.child.ok()) {
    const auto error_at = log.find("ERROR");
    r.error = !r.child.error.empty() ? r.child.error
              : error_at != std::string::npos
                  ? log.substr(error_at, log.find('\n', error_at) - error_at)
                  : "lmp exited with " + std::to_string(r.child.exit_code);
    return r;
  }
  const std::vector<LammpsLoop> loops = ParseLammpsLoops(log);
  const size_t expected = p.dump_final ? 3 : 2;
  if (loops.size() != expected) {
    r.error = "expected " + std::to_string(expected) + " 'Loop time' lines in log.lammps, found " +
              std::to_string(loops.size());
    return r;
  }
  r.timed = loops.back();
  if (r.timed.procs != 1 || r.timed.steps != p.timed_steps ||
      r.timed.atoms != static_cast<long>(p.configuration.positions.size())) {
    r.error = "unexpected loop: " + std::to_string(r.timed.procs) + " procs, " + std::to_string(r.timed.steps) +
              " steps, " + std::to_string(r.timed.atoms) + " atoms";
    return r;
  }
  if (p.dump_final) {
    const size_t n = p.configuration.positions.size();
    std::ifstream forces(directory / "initial.dump");
    std::string header;
    while (std::getline(forces, header))
      if (header.rfind("ITEM: ATOMS", 0) == 0) break;
    r.initial_force.assign(n, Eigen::Vector3d::Zero());
    long atom = 0;
    Eigen::Vector3d f;
    size_t read_forces = 0;
    while (forces >> atom >> f.x() >> f.y() >> f.z() && atom >= 1 && static_cast<size_t>(atom) <= n) {
      r.initial_force[atom - 1] = f;
      ++read_forces;
    }
    if (read_forces != n) r.error = "initial.dump: read " + std::to_string(read_forces) + " of " + std::to_string(n);
    std::ifstream in(directory / "final.dump");
    std::string text;
    r.x.assign(n, Eigen::Vector3d::Zero());
    r.v = r.x;
    r.omega = r.x;
    while (std::getline(in, text))
      if (text.rfind("ITEM: ATOMS", 0) == 0) break;
    long id = 0;
    Eigen::Vector3d x, v, w;
    size_t read = 0;
    while (in >> id >> x.x() >> x.y() >> x.z() >> v.x() >> v.y() >> v.z() >> w.x() >> w.y() >> w.z()) {
      if (id < 1 || static_cast<size_t>(id) > n) break;
      r.x[id - 1] = x;
      r.v[id - 1] = v;
      r.omega[id - 1] = w;
      ++read;
    }
    if (read != n && r.error.empty()) r.error = "final.dump: read " + std::to_string(read) + " of " + std::to_string(n) + " atoms";
  }
  return r;
}

}  // namespace impactlab::bench
