#include "studies/order_audit_study.h"

#include <cmath>
#include <iomanip>
#include <sstream>

#include "io/atomic_file.h"

namespace impactlab {

namespace {

std::string Fmt(double x, int digits = 3) {
  std::ostringstream os;
  os << std::setprecision(digits) << x;
  return os.str();
}

std::string MeasureText(const AuditMeasure& m, AuditKind kind) {
  if (!m.applicable) return "n/a";
  if (!m.measured) return "no fit (errors outside [1e-11, 1e-2])";
  const std::string verdict = m.pass ? "" : " **FAIL**";
  switch (kind) {
    case AuditKind::kExact: return "error " + Fmt(*m.measured) + verdict;
    case AuditKind::kAdaptive: return "error ∝ rtol^" + Fmt(*m.measured) + verdict;
    case AuditKind::kFixedStep: break;
  }
  return Fmt(*m.measured) + " (expected " + Fmt(m.expected) + ")" + verdict;
}

Claim MeasureClaim(const OrderAuditRow& row, const AuditMeasure& m, const std::string& problem) {
  const std::string id = "order_audit." + row.integrator + "." + problem;
  const double measured = m.measured ? *m.measured : NAN;
  const std::string on = problem == "smooth" ? "harmonic oscillator" : "undamped Hertz contact (exact reference)";
  switch (row.kind) {
    case AuditKind::kExact:
      return MakeClaim(id, row.integrator + " (declared exact): global error on the " + on, "traits().exact",
                       std::nullopt, measured, kExactErrorMax);
    case AuditKind::kAdaptive:
      return MakeClaim(id, row.integrator + " (adaptive): slope of log error vs log rtol on the " + on +
                               " (tolerance proportionality)",
                       "Shampine 1994 §6", 0.5 * (kToleranceSlopeMin + kToleranceSlopeMax), measured,
                       0.5 * (kToleranceSlopeMax - kToleranceSlopeMin));
    case AuditKind::kFixedStep: break;
  }
  return MakeClaim(id,
                   row.integrator + ": observed order on the " + on + " vs declared order " +
                       std::to_string(row.declared_order) +
                       (problem == "smooth" ? "" : " (expected min(r, p + 1) = min(r, 2.5))"),
                   problem == "smooth" ? "traits().order" : "traits().order; docs/exact-solution.md §5", m.expected,
                   measured, kOrderTolerance);
}

}  // namespace

std::vector<Claim> OrderAuditClaims(const std::vector<OrderAuditRow>& rows) {
  std::vector<Claim> claims;
  for (const auto& row : rows) {
    if (row.smooth.applicable) claims.push_back(MeasureClaim(row, row.smooth, "smooth"));
    if (row.contact.applicable) claims.push_back(MeasureClaim(row, row.contact, "contact"));
  }
  return claims;
}

std::string OrderAuditTable(const std::vector<OrderAuditRow>& rows) {
  std::ostringstream t;
  t << "Measured against declared traits(): fixed-step order (slope of log error vs log h, expected ± "
    << kOrderTolerance << "), adaptive tolerance proportionality (slope in [" << kToleranceSlopeMin << ", "
    << kToleranceSlopeMax << "]), exact schemes (error ≤ " << kExactErrorMax << ").\n\n"
    << "| integrator | kind | declared order | smooth (harmonic oscillator) | through contact (undamped Hertz) | audit |\n"
    << "|---|---|---|---|---|---|\n";
  for (const auto& r : rows) {
    std::string note;
    if (!r.smooth.applicable) note += " smooth n/a: " + r.smooth.not_applicable_reason + ".";
    if (!r.contact.applicable) note += " contact n/a: " + r.contact.not_applicable_reason + ".";
    for (auto& c : note)
      if (c == '|' || c == '\n') c = ' ';
    t << "| " << r.integrator << " | " << ToString(r.kind) << " | " << (r.kind == AuditKind::kExact ? "exact" : std::to_string(r.declared_order))
      << " | " << MeasureText(r.smooth, r.kind) << " | " << MeasureText(r.contact, r.kind) << " | "
      << (!r.audited() ? "not audited" : r.pass() ? "pass" : "**FAIL**") << note << " |\n";
  }
  return t.str();
}

StudyResult OrderAuditStudy::Run(const StudyContext& ctx) const {
  ctx.progress("auditing every registered integrator");
  const std::vector<OrderAuditRow> rows = AuditOrders(IntegratorRegistry());
  StudyResult result;
  result.claims = OrderAuditClaims(rows);
  result.tables_markdown.push_back(OrderAuditTable(rows));
  std::ostringstream csv;
  csv << "integrator,problem,kind,declared_order,step_or_rtol,error\n" << std::setprecision(10);
  for (const auto& r : rows)
    for (const auto* m : {&r.smooth, &r.contact})
      for (size_t i = 0; i < m->steps.size(); ++i)
        csv << r.integrator << ',' << (m == &r.smooth ? "smooth" : "contact") << ',' << ToString(r.kind) << ','
            << r.declared_order << ',' << m->steps[i] << ',' << m->errors[i] << '\n';
  WriteFileAtomically(ctx.out_dir / "order_audit.csv", csv.str());
  return result;
}

}  // namespace impactlab
