#include "report/report_sections.h"

#include <cctype>
#include <iomanip>
#include <sstream>

namespace impactlab {

std::string HtmlEscape(const std::string& s) {
  std::string o;
  for (char c : s) {
    if (c == '<') o += "&lt;";
    else if (c == '>') o += "&gt;";
    else if (c == '&') o += "&amp;";
    else if (c == '"') o += "&quot;";
    else o += c;
  }
  return o;
}

std::string ReportNumber(const std::optional<double>& v) {
  if (!v) return "-";
  std::ostringstream os;
  os << std::setprecision(7) << *v;
  return os.str();
}

std::string ReportTable::Markdown() const {
  auto cell = [](std::string s) {
    for (size_t p = 0; (p = s.find('|', p)) != std::string::npos; p += 2) s.replace(p, 1, "\\|");
    return s;
  };
  std::ostringstream t;
  t << "|";
  for (const auto& h : header) t << " " << h << " |";
  t << "\n|";
  for (size_t i = 0; i < header.size(); ++i) t << "---|";
  t << "\n";
  for (const auto& r : rows) {
    t << "|";
    for (const auto& c : r) t << " " << cell(c) << " |";
    t << "\n";
  }
  return t.str();
}

std::string ReportTable::Html() const {
  std::ostringstream t;
  t << "<table><tr>";
  for (const auto& h : header) t << "<th>" << HtmlEscape(h) << "</th>";
  t << "</tr>";
  for (size_t i = 0; i < rows.size(); ++i) {
    const std::string cls = i < row_class.size() ? row_class[i] : "";
    t << (cls.empty() ? "<tr>" : "<tr class=\"" + cls + "\">");
    for (const auto& c : rows[i]) {
      const bool bold = c.size() > 4 && c.rfind("**", 0) == 0 && c.compare(c.size() - 2, 2, "**") == 0;  // Markdown bold
      t << "<td>" << (bold ? "<b>" + HtmlEscape(c.substr(2, c.size() - 4)) + "</b>" : HtmlEscape(c)) << "</td>";
    }
    t << "</tr>";
  }
  t << "</table>";
  return t.str();
}

std::string PaperOf(const Claim& claim, const std::string& study) {
  const std::string& s = claim.source;
  for (size_t i = 0; i + 7 <= s.size(); ++i) {
    const bool compact = (s.compare(i, 4, "Seed") == 0 || s.compare(i, 4, "seed") == 0);
    if (!compact) continue;
    size_t j = i + 4;
    if (j < s.size() && s[j] == ' ') ++j;
    if (j + 3 <= s.size() && s[j] == '0' && s[j + 1] == '0' && std::isdigit(static_cast<unsigned char>(s[j + 2])))
      return std::string("Seed00") + s[j + 2];
  }
  if (study.rfind("seed00", 0) == 0 && study.size() > 6) return std::string("Seed00") + study[6];
  return "other";
}

std::string PaperTitle(const std::string& paper) {
  if (paper == "Seed000")
    return "Seed 000 — consistent control of energy dissipation in non-spherical particle contact "
           "(ellipsoid–wall, contact-centric dynamics)";
  if (paper == "Seed001") return "Seed 001 — Feng: exact phase-space solution of the power-law damped contact oscillator";
  if (paper == "Seed002") return "Seed 002 — Ganguli, Goswami & Bose 2025: review of Hertz–Mindlin tangential models";
  if (paper == "Seed003") return "Seed 003 — Bao & Pérez-Aparicio: EFDA, energy frictional dissipating algorithm";
  return "other — theory checks, integrator comparisons, calibration, benchmarks";
}

}  // namespace impactlab
