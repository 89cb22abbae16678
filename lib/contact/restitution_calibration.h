// Closed-form restitution calibrations [docs/theory.md §3, §5; docs/calibration.md].
//
//   ξ_L(e) = −ln e / √(π² + ln² e)             [Seed000 eq. (23)]; inverse e = exp(−π ξ/√(1−ξ²))
//   α(e, p) = √(2(p+1)) ξ_L(e)                  generalized Tsuji, exact for all v₀ [Seed000 eq. (25); Seed001]
//   α_seed001_summary(e, p) = p/(2(p+1)) ξ_L(e)  the formula printed in seed 001's summary — WRONG; kept only
//                                               so the test that refutes it can call it.
#pragma once

namespace impactlab {

/// ξ_L(e) for e ∈ (0, 1]; throws InvalidParameter("e", ...) otherwise.
double DampingRatioFromRestitution(double e);
/// e(ξ) = exp(−π ξ/√(1−ξ²)) for ξ ∈ [0, 1); 0 for ξ ≥ 1 (no rebound).
double RestitutionFromDampingRatio(double xi);
/// Generalized Tsuji coefficient α(e, p) = √(2(p+1)) ξ_L(e).
double TsujiAlphaFromRestitution(double e, double p);
/// Restitution of the generalized Tsuji law for a given α (ζ = α/√(2(p+1)); 0 if over-damped).
double RestitutionFromTsujiAlpha(double alpha, double p);
/// Seed 001 summary's printed formula α = p/(2(p+1)) ξ_L(e) (refuted by tests/lib/calibration_test.cpp).
double Seed001SummaryAlpha(double e, double p);

}  // namespace impactlab
