// Friction × conserving schemes (issue: one contact seam): the energy-consistent schemes (Simo–Tarnow, EFDA)
// against velocity Verlet and CVODE on the frictional sphere–wall impact (Kharaz et al. 2001 materials,
// Seed002 Table 3) for all six tangential laws, and on the ECC ellipsoid–wall impact (Seed000 §6):
//  (a) gross slip (θ ≥ 50°): β and e_t of every scheme against rigid-body impulse theory at the measured e_n
//      (Seed002 §2, eqs. 20–22; docs/theory.md §6 "Gross-slip rigid limit"), tolerance 1e-3;
//  (b) the energy each law creates by itself, W_g/E₀ (the Mindlin integral laws are not conservative,
//      docs/theory.md §6 "Energy bookkeeping"), and each scheme's integration residual max|E + D − W_g − E₀|/E₀;
//  (c) integration residual vs dt (figure) for ST, EFDA, Verlet and RK4;
//  (d) ellipsoid–wall (θ = 30°, e_cn = 0.5, adaptive damping): the conserving schemes reproduce CVODE's e_cn and
//      e_E to 1e-4 at 1000 steps per contact;
//  (e) observed order of e_t and β of Simo–Tarnow and EFDA against CVODE (rtol 1e-12) on the undamped
//      micro-slip impact (θ = 30°, mindlin_integral), 100 … 800 steps per contact: 2.0 ± 0.15.
// compute (typed results) → claims (a pure function of them) → render (tables, CSV, figure specs).
#pragma once

#include <string>
#include <vector>

#include "report/study.h"

namespace impactlab {

/// One sphere–wall run of the study.
struct FrictionRun {
  std::string law, scheme;
  double theta_deg = 0.0, dt = 0.0;
  double e_n = 0.0, e_t = 0.0, beta = 0.0;
  double rigid_e_t = 0.0, rigid_beta = 0.0;  ///< rigid-body theory at the measured e_n
  double generated_rel = 0.0;                ///< W_g / E₀ (signed)
  double integration_residual = 0.0;         ///< max |E + D − W_g − E₀|/E₀
};

/// One ellipsoid–wall run.
struct EllipsoidRun {
  std::string scheme;
  double contact_duration = 0.0;  ///< located [s]
  double e_cn = 0.0, e_E = 0.0, balance = 0.0;
};

/// (e) observed order of a scheme's rebound quantities against a fine CVODE reference (undamped, micro-slip).
struct OrderRun {
  std::string scheme;
  std::vector<double> steps_per_contact, error_e_t, error_beta;
  double order_e_t = 0.0, order_beta = 0.0;  ///< least-squares slopes of log error vs log dt
};

struct FrictionConservingResults {
  std::vector<FrictionRun> gross_slip;   ///< (a), (b): every law × scheme at θ = 60°
  std::vector<FrictionRun> dt_ladder;    ///< (c): one law, every scheme, several dt
  std::vector<EllipsoidRun> ellipsoid;   ///< (d)
  std::vector<OrderRun> orders;          ///< (e)
};

/// The runs (no output).
FrictionConservingResults ComputeFrictionConserving(bool quick);
/// The claims, a pure function of the results.
std::vector<Claim> FrictionConservingClaims(const FrictionConservingResults& r);

class FrictionConservingStudy final : public Study {
 public:
  std::string name() const override { return "friction_conserving"; }
  std::string title() const override { return "Friction x conserving schemes: sphere-wall and ellipsoid-wall"; }
  std::string source() const override { return "Seed002 §2-3 (Kharaz et al. 2001 case), Seed000 §6, Seed003 eqs. 5-8"; }
  StudyResult Run(const StudyContext& context) const override;
};

}  // namespace impactlab
