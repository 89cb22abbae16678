#include "report/report_writer.h"

#include <sys/utsname.h>

#include <Eigen/Core>
#include <boost/version.hpp>
#include <ceres/version.h>
#include <array>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <iomanip>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <sundials/sundials_config.h>

#include "io/atomic_file.h"
#include "report/matrix_section.h"
#include "report/report_sections.h"

namespace impactlab {

namespace fs = std::filesystem;

namespace {

std::string Base64(const std::string& in) {
  static const char* t = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  int val = 0, bits = -6;
  for (unsigned char c : in) {
    val = (val << 8) + c;
    bits += 8;
    while (bits >= 0) {
      out.push_back(t[(val >> bits) & 0x3F]);
      bits -= 6;
    }
  }
  if (bits > -6) out.push_back(t[((val << 8) >> (bits + 8)) & 0x3F]);
  while (out.size() % 4) out.push_back('=');
  return out;
}

std::string Machine() {
  std::string cpu;
  std::ifstream f("/proc/cpuinfo");
  for (std::string line; std::getline(f, line);)
    if (line.rfind("model name", 0) == 0) {
      cpu = line.substr(line.find(':') + 2);
      break;
    }
  utsname u{};
  uname(&u);
  return std::string(u.sysname) + " " + u.release + " " + u.machine + ", " + cpu;
}

std::string Versions() {
  std::ostringstream os;
  os << "Eigen " << EIGEN_WORLD_VERSION << "." << EIGEN_MAJOR_VERSION << "." << EIGEN_MINOR_VERSION
     << ", SUNDIALS " << SUNDIALS_VERSION << ", Boost " << BOOST_VERSION / 100000 << "." << BOOST_VERSION / 100 % 1000
     << ", Ceres " << CERES_VERSION_STRING << ", compiler " << __VERSION__;
  return os.str();
}

std::string Tolerance(const Claim& c) {
  std::ostringstream tol;
  tol << (c.published ? "±" : "≤ ") << std::setprecision(3) << c.tolerance << (c.relative ? " rel" : "");
  return tol.str();
}

std::string BandText(const Claim& c) {
  if (!c.band) return "-";
  std::ostringstream os;  // (a stream, not "[" + std::string: GCC 12 -Wrestrict false positive)
  os << "[" << ReportNumber(c.band->low) << ", " << ReportNumber(c.band->high) << "]";
  return os.str();
}

std::string RowClass(ClaimStatus s) {
  switch (s) {
    case ClaimStatus::kPass: return "";
    case ClaimStatus::kKnownDeviation: return "deviation";
    case ClaimStatus::kFixed: return "fixed";
    default: return "fail";
  }
}

struct ClaimRef {
  const Claim* claim;
  const StudyRecord* study;
};

/// Per paper: claims, pass, known deviation, fixed, fail (outside band included).
ReportTable PaperSummary(const std::vector<ClaimRef>& claims) {
  std::map<std::string, std::array<int, 5>> counts;  // total, pass, deviation, fixed, fail
  for (const auto& r : claims) {
    auto& n = counts[PaperOf(*r.claim, r.study->name)];
    ++n[0];
    switch (r.claim->status) {
      case ClaimStatus::kPass: ++n[1]; break;
      case ClaimStatus::kKnownDeviation: ++n[2]; break;
      case ClaimStatus::kFixed: ++n[3]; break;
      default: ++n[4];
    }
  }
  ReportTable t{{"paper", "claims", "pass", "known deviation (in band)", "fixed", "fail"}, {}, {}};
  for (const auto& [paper, n] : counts) {
    t.rows.push_back({PaperTitle(paper), std::to_string(n[0]), std::to_string(n[1]), std::to_string(n[2]),
                      std::to_string(n[3]), n[4] ? "**" + std::to_string(n[4]) + "**" : "0"});
    t.row_class.push_back(n[4] ? "fail" : "");
  }
  return t;
}

/// Every listed claim (known deviation, fixed, outside band) and every failing claim.
ReportTable DeviationTable(const std::vector<ClaimRef>& claims) {
  ReportTable t{{"claim", "study", "paper value", "ours", "tolerance", "reviewed band (ours at review)", "status",
                 "reason", "evidence for the band"},
                {},
                {}};
  for (const auto& r : claims) {
    const Claim& c = *r.claim;
    if (c.status == ClaimStatus::kPass) continue;
    t.rows.push_back({c.id, r.study->name, ReportNumber(c.published), ReportNumber(c.measured), Tolerance(c),
                      c.band ? BandText(c) + " (" + ReportNumber(c.band->expected) + ")" : "not listed",
                      std::string(ToString(c.status)), c.band ? c.band->reason : c.description,
                      c.band ? c.band->evidence : ""});
    t.row_class.push_back(RowClass(c.status));
  }
  return t;
}

ReportTable ClaimTable(const std::vector<ClaimRef>& claims) {
  ReportTable t{{"study", "claim", "source", "paper / target", "ours", "Δ", "tolerance", "band", "result"}, {}, {}};
  for (const auto& r : claims) {
    const Claim& c = *r.claim;
    std::optional<double> delta;
    if (c.published) delta = c.measured - *c.published;
    const std::string status(ToString(c.status));
    t.rows.push_back({r.study->name, c.description, c.source, ReportNumber(c.published), ReportNumber(c.measured),
                      ReportNumber(delta), Tolerance(c), BandText(c), c.status == ClaimStatus::kPass ? status : "**" + status + "**"});
    t.row_class.push_back(RowClass(c.status));
  }
  return t;
}

nlohmann::json ClaimJson(const Claim& c, const std::string& study) {
  auto num = [](double x) { return std::isfinite(x) ? nlohmann::json(x) : nlohmann::json(nullptr); };
  nlohmann::json j = {{"study", study}, {"id", c.id}, {"description", c.description}, {"source", c.source},
                      {"published", c.published ? nlohmann::json(*c.published) : nlohmann::json(nullptr)},
                      {"measured", num(c.measured)}, {"tolerance", c.tolerance}, {"relative", c.relative},
                      {"pass", c.pass}, {"status", std::string(ToString(c.status))},
                      {"known_deviation", c.status == ClaimStatus::kKnownDeviation}, {"note", c.note}};
  if (c.band)
    j["band"] = {{"low", c.band->low}, {"high", c.band->high}, {"expected", c.band->expected},
                 {"reason", c.band->reason}, {"evidence", c.band->evidence}};
  return j;
}

std::string EmbeddedFigure(const fs::path& png, const std::string& caption, const std::string& css_class) {
  std::ifstream in(png, std::ios::binary);
  if (!in) return "<p class=\"fail\">figure " + HtmlEscape(caption) + " missing</p>";
  std::stringstream buf;
  buf << in.rdbuf();
  return "<figure class=\"" + css_class + "\"><img class=\"figure\" alt=\"" + HtmlEscape(caption) +
         "\" src=\"data:image/png;base64," + Base64(buf.str()) + "\"><figcaption>" + HtmlEscape(caption) +
         "</figcaption></figure>";
}

const char* kStyle =
    "<style>body{font-family:sans-serif;max-width:1200px;margin:auto}table{border-collapse:collapse;margin:6px 0}"
    "td,th{border:1px solid #999;padding:2px 6px;font-size:13px}.fail{color:#b00;font-weight:bold}"
    "tr.deviation{background:#fff4d6}tr.fixed{background:#e3f3e3}img{max-width:100%}"
    "figure.key{display:inline-block;width:49%;margin:0;vertical-align:top}figure.key figcaption{font-size:12px}"
    "</style>";

}  // namespace

void RenderFigures(const fs::path& out) {
  const fs::path script = fs::path(IMPACTLAB_SOURCE_DIR) / "scripts" / "plot_figures.py";
  if (!fs::exists(script)) return;
  // Debian's python3-matplotlib belongs to /usr/bin/python3 (a python3 earlier on PATH may lack it).
  const std::string python = fs::exists("/usr/bin/python3") ? "/usr/bin/python3" : "python3";
  const std::string cmd = python + " '" + script.string() + "' '" + out.string() + "'";
  if (std::system(cmd.c_str()) != 0)
    std::fprintf(stderr, "impactlab: warning: figure rendering failed (python3-matplotlib missing?)\n");
}

ReportSummary WriteReport(const fs::path& out, const std::vector<StudyRecord>& records,
                          const KnownDeviations& deviations, const ValidationOptions& options) {
  ReportSummary summary;
  std::vector<ClaimRef> all;
  nlohmann::json results;
  results["quick"] = options.quick;
  results["versions"] = Versions();
  results["machine"] = Machine();
  results["claims"] = nlohmann::json::array();
  results["studies"] = nlohmann::json::array();
  std::set<std::string> studies_run, claim_ids;
  for (const auto& r : records) {
    if (!r.error.empty()) summary.problems.push_back("ERROR: study " + r.name + ": " + r.error);
    else studies_run.insert(r.name);
    results["studies"].push_back({{"name", r.name}, {"title", r.title}, {"source", r.source},
                                  {"seconds", r.seconds}, {"error", r.error}});
    for (const auto& c : r.result.claims) {
      all.push_back({&c, &r});
      claim_ids.insert(c.id);
      ++summary.total;
      switch (c.status) {
        case ClaimStatus::kPass: ++summary.passed; break;
        case ClaimStatus::kKnownDeviation: ++summary.known_deviations; break;
        case ClaimStatus::kFixed:
          ++summary.fixed;
          summary.problems.push_back("FIXED: " + c.id + " now passes (measured " + ReportNumber(c.measured) +
                                     "): remove its entry from the known deviations");
          break;
        default:
          ++summary.failed;
          summary.problems.push_back(
              (c.status == ClaimStatus::kOutsideBand ? "OUTSIDE BAND: " : "FAIL: ") + c.id + " measured " +
              ReportNumber(c.measured) + ", paper " + ReportNumber(c.published) + " " + Tolerance(c) +
              (c.band ? ", reviewed band " + BandText(c) : ", not a listed known deviation"));
      }
      results["claims"].push_back(ClaimJson(c, r.name));
    }
  }
  summary.stale_entries = StaleEntries(deviations, studies_run, claim_ids);
  for (const auto& id : summary.stale_entries)
    summary.problems.push_back("STALE: known deviation entry " + id + " matches no claim of its study");
  const bool errors = studies_run.size() != records.size();
  summary.all_ok = !errors && summary.failed == 0 && summary.stale_entries.empty();
  {
    std::ostringstream h;
    h << summary.passed << " of " << summary.total << " claims pass, " << summary.known_deviations
      << " known deviations inside their reviewed bands, " << summary.fixed << " fixed, " << summary.failed
      << " fail" << (summary.stale_entries.empty() ? "" : ", " + std::to_string(summary.stale_entries.size()) + " stale entries")
      << (options.quick ? " (quick mode)" : "") << ".";
    summary.headline = h.str();
  }
  const ReportTable papers = PaperSummary(all), deviation_table = DeviationTable(all), claim_table = ClaimTable(all);
  summary.table_markdown = papers.Markdown() + "\n" + deviation_table.Markdown();
  results["passed"] = summary.passed;
  results["known_deviations"] = summary.known_deviations;
  results["fixed"] = summary.fixed;
  results["failed"] = summary.failed;
  results["stale_entries"] = summary.stale_entries;
  results["total"] = summary.total;
  results["all_ok"] = summary.all_ok;
  WriteFileAtomically(out / "results.json", results.dump(2) + "\n");

  std::ostringstream md, html;
  const std::string rerun = "impactlab validate" + std::string(options.quick ? " --quick" : "") + " --out " + out.string();
  md << "# impactlab validation report\n\n" << summary.headline << "\n\n";
  for (const auto& p : summary.problems) md << "- " << p << "\n";
  md << "\n## Summary per paper\n\n" << papers.Markdown() << "\n";
  html << "<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>impactlab validation report</title>" << kStyle
       << "</head><body><h1>impactlab validation report</h1><p><b>" << HtmlEscape(summary.headline) << "</b></p>";
  if (!summary.problems.empty()) {
    html << "<ul>";
    for (const auto& p : summary.problems) html << "<li class=\"fail\">" << HtmlEscape(p) << "</li>";
    html << "</ul>";
  }
  html << "<h2>Summary per paper</h2>" << papers.Html();
  // Key figures: what a researcher looks at first (work–precision, energy error vs dt, seed reproductions).
  md << "## Key figures\n\n";
  html << "<h2>Key figures</h2><div>";
  for (const auto& r : records)
    for (const auto& f : r.result.key_figures) {
      md << "![" << r.name << ": " << f << "](" << r.name << "/" << f << ")\n\n";
      html << EmbeddedFigure(out / r.name / f, r.name + ": " + f, "key");
    }
  html << "</div>";
  if (const MatrixSection matrix = IntegratorModelMatrixSection(); !matrix.empty()) {
    const char* intro = "Each pair tried in code (`impactlab list --matrix`): ✓ runs, n/a with the reason below.";
    md << "## Integrator × model matrix\n\n" << intro << "\n\n" << matrix.table.Markdown() << "\n";
    html << "<h2>Integrator × model matrix</h2><p>" << HtmlEscape(intro) << "</p>" << matrix.table.Html() << "<ul>";
    for (const auto& r : matrix.reasons) {
      md << "- n/a: " << r << "\n";
      html << "<li>n/a: " << HtmlEscape(r) << "</li>";
    }
    md << "\n";
    html << "</ul>";
  }
  md << "## Known deviations and failures\n\nEvery claim that misses its published tolerance, with the band our "
        "measured value is expected to stay in (validation/known_deviations.toml); outside the band it fails.\n\n"
     << deviation_table.Markdown() << "\n";
  html << "<h2>Known deviations and failures</h2>" << deviation_table.Html();
  md << "## All claims\n\n" << claim_table.Markdown() << "\n";
  html << "<h2>All claims</h2>" << claim_table.Html();
  md << "- Libraries: " << Versions() << "\n- Machine: " << Machine() << "\n- Rerun everything: `" << rerun << "`\n\n";
  html << "<p>Libraries: " << HtmlEscape(Versions()) << "<br>Machine: " << HtmlEscape(Machine())
       << "<br>Rerun everything: <code>" << HtmlEscape(rerun) << "</code></p>";
  for (const auto& r : records) {
    md << "## " << r.title << " (`" << r.name << "`)\n\n";
    md << "Source: " << r.source << ". Rerun: `impactlab validate --only " << r.name
       << (options.quick ? " --quick" : "") << "`. Time: " << std::fixed << std::setprecision(1) << r.seconds
       << " s.\n\n";
    md.unsetf(std::ios::fixed);
    html << "<h2>" << HtmlEscape(r.title) << "</h2><p>Source: " << HtmlEscape(r.source)
         << ". Rerun: <code>impactlab validate --only " << r.name << "</code></p>";
    if (!r.error.empty()) {
      md << "**The study failed with an error:** " << r.error << "\n\n";
      html << "<p class=\"fail\">Error: " << HtmlEscape(r.error) << "</p>";
    }
    for (const auto& t : r.result.tables_markdown) {
      md << t << "\n";
      html << "<pre>" << HtmlEscape(t) << "</pre>";
    }
    for (const auto& f : r.result.figures) {
      md << "![" << f << "](" << r.name << "/" << f << ")\n\n";
      html << EmbeddedFigure(out / r.name / f, f, "");
    }
    if (!r.result.narrative.empty()) {
      md << r.result.narrative << "\n\n";
      html << "<pre>" << HtmlEscape(r.result.narrative) << "</pre>";
    }
  }
  // Browser self-check (tests/validation/report_html_test.cpp): on window load, count the figures that
  // decoded (naturalWidth > 0) and publish "N/M" as <body data-figures-loaded>, read back by headless Chromium.
  html << "<script>window.addEventListener('load',function(){var f=document.querySelectorAll('img.figure'),n=0;"
          "f.forEach(function(i){if(i.complete&&i.naturalWidth>0)n++;});"
          "document.body.dataset.figuresLoaded=n+'/'+f.length;});</script>";
  html << "</body></html>\n";
  WriteFileAtomically(out / "report.md", md.str());
  WriteFileAtomically(out / "report.html", html.str());
  return summary;
}

}  // namespace impactlab
