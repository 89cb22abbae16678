#include "integrators/generalized_alpha_parameters.h"

#include "core/checks.h"
#include "core/errors.h"

namespace impactlab {

GeneralizedAlphaParameters GeneralizedAlphaParameters::FromSpectralRadius(double rho_inf) {
  RequireInClosed("rho_inf", rho_inf, 0.0, 1.0);
  GeneralizedAlphaParameters p;
  p.alpha_m = (2.0 * rho_inf - 1.0) / (rho_inf + 1.0);
  p.alpha_f = rho_inf / (rho_inf + 1.0);
  p.gamma = 0.5 - p.alpha_m + p.alpha_f;
  const double s = 1.0 - p.alpha_m + p.alpha_f;
  p.beta = 0.25 * s * s;
  return p;
}

GeneralizedAlphaParameters GeneralizedAlphaParameters::Hht(double alpha_hht) {
  RequireInClosed("hht_alpha", alpha_hht, -1.0 / 3.0, 0.0);
  GeneralizedAlphaParameters p;
  p.alpha_m = 0.0;
  p.alpha_f = -alpha_hht;
  p.beta = 0.25 * (1.0 - alpha_hht) * (1.0 - alpha_hht);
  p.gamma = 0.5 - alpha_hht;
  return p;
}

GeneralizedAlphaParameters GeneralizedAlphaParameters::Newmark(double beta, double gamma) {
  RequireInLeftOpen("newmark_beta", beta, 0.0, 0.5);
  RequireInClosed("newmark_gamma", gamma, 0.5, 1.0);
  GeneralizedAlphaParameters p;
  p.beta = beta;
  p.gamma = gamma;
  return p;
}

void GeneralizedAlphaParameters::Validate() const {
  RequireInLeftOpen("beta", beta, 0.0, 1.0);
  RequireInClosed("gamma", gamma, 0.5, 1.5);
  RequireInClosed("alpha_m", alpha_m, -1.0, 0.5);
  RequireInClosed("alpha_f", alpha_f, 0.0, 0.5);
}

}  // namespace impactlab
