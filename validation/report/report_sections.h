// Report sections shared by every study: a table is built once as rows of cells and rendered both as
// Markdown and as HTML; the per-paper grouping of claims.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "report/claim.h"

namespace impactlab {

struct ReportTable {
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;
  std::vector<std::string> row_class;  ///< per row: "" or a CSS class ("fail", "deviation", "fixed")
  std::string Markdown() const;
  std::string Html() const;
};

/// The seed paper a claim reproduces: the first "Seed00N" / "seed 00N" named in its source, else the
/// study name's "seed00N_" prefix, else "other".
std::string PaperOf(const Claim& claim, const std::string& study);
/// Human title of a paper key ("Seed000" … "Seed003", "other").
std::string PaperTitle(const std::string& paper);
/// "1.234568e-05" style with 7 significant digits, "-" for nullopt.
std::string ReportNumber(const std::optional<double>& v);
std::string HtmlEscape(const std::string& s);

}  // namespace impactlab
