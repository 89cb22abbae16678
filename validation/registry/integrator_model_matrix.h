// IntegratorModelMatrix: which registered integrator can advance which registered model, found by trying each
// pair in code (never by a hand-kept table): the model is built with its registered example keys (its defaults
// where it has no required key), the integrator takes
// a few steps of a tenth of the model's critical-step estimate from the initial state (or 1e-6 s when the model
// has none). A pair "runs" when those steps are accepted with a finite state; otherwise the cell carries the one-line
// reason the integrator or the model gave (the mathematical reason for an n/a, e.g. "needs the 1-D power-law
// oscillator"). Used by `impactlab list --matrix` and the validation report; user-registered integrators and
// models appear in it like the built-in ones.
#pragma once

#include <string>
#include <vector>

namespace impactlab {

struct MatrixCell {
  std::string integrator;
  std::string model;
  bool runs = false;
  std::string reason;  ///< empty when it runs
};

/// Every registered integrator × every registered model, rows in registry order.
std::vector<MatrixCell> IntegratorModelMatrix();

}  // namespace impactlab
