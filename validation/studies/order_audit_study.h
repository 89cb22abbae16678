// Order audit study: every registered integrator's measured order against its declared traits()
// (validation/audit/order_audit.h), as a table in the report and one claim per applicable measure.
// Split as compute (AuditOrders) → claims (OrderAuditClaims, pure, unit-tested without simulation) →
// render (OrderAuditTable).
#pragma once

#include <vector>

#include "audit/order_audit.h"
#include "report/study.h"

namespace impactlab {

/// One claim per applicable measure of every audited row.
std::vector<Claim> OrderAuditClaims(const std::vector<OrderAuditRow>& rows);
/// Markdown table: integrator, kind, declared order, smooth and contact measures (or why not applicable).
std::string OrderAuditTable(const std::vector<OrderAuditRow>& rows);

class OrderAuditStudy final : public Study {
 public:
  std::string name() const override { return "order_audit"; }
  std::string title() const override { return "Order audit: every registered integrator against its declared traits"; }
  std::string source() const override {
    return "docs/theory.md §12.9; Hairer, Nørsett & Wanner 1993 §II.3; docs/exact-solution.md §5";
  }
  StudyResult Run(const StudyContext& context) const override;
};

}  // namespace impactlab
