#include "report/report_writer.h"

#include <sys/utsname.h>

#include <Eigen/Core>
#include <boost/version.hpp>
#include <ceres/version.h>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <iomanip>
#include <nlohmann/json.hpp>
#include <sstream>
#include <sundials/sundials_config.h>

#include "io/atomic_file.h"

namespace impactlab {

namespace fs = std::filesystem;

namespace {

std::string Num(const std::optional<double>& v) {
  if (!v) return "-";
  std::ostringstream os;
  os << std::setprecision(7) << *v;
  return os.str();
}

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

std::string HtmlEscape(const std::string& s) {
  std::string o;
  for (char c : s) {
    if (c == '<') o += "&lt;";
    else if (c == '>') o += "&gt;";
    else if (c == '&') o += "&amp;";
    else o += c;
  }
  return o;
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

std::string Table(const std::vector<const Claim*>& claims, const std::vector<std::string>& study) {
  std::ostringstream t;
  t << "| study | claim | source | paper / target | ours | Δ | tolerance | result |\n";
  t << "|---|---|---|---|---|---|---|---|\n";
  for (size_t i = 0; i < claims.size(); ++i) {
    const Claim& c = *claims[i];
    std::optional<double> delta;
    if (c.published) delta = c.measured - *c.published;
    std::ostringstream tol;
    tol << (c.published ? "±" : "≤ ") << std::setprecision(3) << c.tolerance << (c.relative ? " rel" : "");
    t << "| " << study[i] << " | " << c.description << " | " << c.source << " | " << Num(c.published) << " | "
      << Num(c.measured) << " | " << Num(delta) << " | " << tol.str() << " | "
      << (c.pass ? "pass" : c.known_deviation ? "known deviation" : "**FAIL**") << " |\n";
  }
  return t.str();
}

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
                          const ValidationOptions& options) {
  ReportSummary summary;
  std::vector<const Claim*> all;
  std::vector<std::string> owner;
  nlohmann::json results;
  results["quick"] = options.quick;
  results["versions"] = Versions();
  results["machine"] = Machine();
  results["claims"] = nlohmann::json::array();
  results["studies"] = nlohmann::json::array();
  bool errors = false;
  for (const auto& r : records) {
    errors = errors || !r.error.empty();
    results["studies"].push_back({{"name", r.name}, {"title", r.title}, {"source", r.source},
                                  {"seconds", r.seconds}, {"error", r.error}});
    for (const auto& c : r.result.claims) {
      all.push_back(&c);
      owner.push_back(r.name);
      ++summary.total;
      if (c.pass) ++summary.passed;
      else if (c.known_deviation) ++summary.known_deviations;
      results["claims"].push_back({{"study", r.name}, {"id", c.id}, {"description", c.description},
                                   {"source", c.source},
                                   {"published", c.published ? nlohmann::json(*c.published) : nlohmann::json(nullptr)},
                                   {"measured", std::isfinite(c.measured) ? nlohmann::json(c.measured) : nlohmann::json(nullptr)},
                                   {"tolerance", c.tolerance}, {"relative", c.relative}, {"pass", c.pass},
                                   {"known_deviation", c.known_deviation}, {"note", c.note}});
    }
  }
  summary.all_ok = !errors && summary.passed + summary.known_deviations == summary.total;
  summary.table_markdown = Table(all, owner);
  results["passed"] = summary.passed;
  results["total"] = summary.total;
  results["all_ok"] = summary.all_ok;
  WriteFileAtomically(out / "results.json", results.dump(2) + "\n");

  std::ostringstream md, html;
  md << "# impactlab validation report\n\n";
  md << summary.passed << " of " << summary.total << " claims pass";
  if (summary.known_deviations) md << ", " << summary.known_deviations << " documented known deviations";
  md << (options.quick ? " (quick mode)" : "") << ".\n\n";
  md << "- Libraries: " << Versions() << "\n- Machine: " << Machine() << "\n- Rerun everything: `impactlab validate"
     << (options.quick ? " --quick" : "") << " --out " << out.string() << "`\n\n";
  md << "## Summary\n\n" << summary.table_markdown << "\n";
  html << "<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>impactlab validation report</title>"
          "<style>body{font-family:sans-serif;max-width:1100px;margin:auto}table{border-collapse:collapse}"
          "td,th{border:1px solid #999;padding:2px 6px;font-size:13px}.fail{color:#b00;font-weight:bold}"
          "img{max-width:100%}</style></head><body><h1>impactlab validation report</h1>";
  html << "<p>" << summary.passed << " of " << summary.total << " claims pass"
       << (options.quick ? " (quick mode)" : "") << ".</p><p>Libraries: " << HtmlEscape(Versions())
       << "<br>Machine: " << HtmlEscape(Machine()) << "</p><h2>Summary</h2><table><tr><th>study</th><th>claim</th>"
          "<th>source</th><th>paper / target</th><th>ours</th><th>tolerance</th><th>result</th></tr>";
  for (size_t i = 0; i < all.size(); ++i) {
    const Claim& c = *all[i];
    html << "<tr><td>" << owner[i] << "</td><td>" << HtmlEscape(c.description) << "</td><td>" << HtmlEscape(c.source)
         << "</td><td>" << Num(c.published) << "</td><td>" << Num(c.measured) << "</td><td>" << c.tolerance
         << (c.relative ? " rel" : "") << "</td><td class=\"" << (c.pass ? "" : "fail") << "\">"
         << (c.pass ? "pass" : c.known_deviation ? "known deviation" : "FAIL") << "</td></tr>";
  }
  html << "</table>";
  for (const auto& r : records) {
    md << "## " << r.title << " (`" << r.name << "`)\n\n";
    md << "Source: " << r.source << ". Rerun: `impactlab validate --only " << r.name
       << (options.quick ? " --quick" : "") << "`. Time: " << std::fixed << std::setprecision(1) << r.seconds
       << " s.\n\n";
    md.unsetf(std::ios::fixed);
    html << "<h2>" << HtmlEscape(r.title) << "</h2><p>Source: " << HtmlEscape(r.source) << ". Rerun: <code>impactlab validate --only "
         << r.name << "</code></p>";
    if (!r.error.empty()) {
      md << "**The study failed with an error:** " << r.error << "\n\n";
      html << "<p class=\"fail\">Error: " << HtmlEscape(r.error) << "</p>";
    }
    for (const auto& t : r.result.tables_markdown) {
      md << t << "\n";
      html << "<pre>" << HtmlEscape(t) << "</pre>";
    }
    for (const auto& f : r.result.figures) {
      const fs::path png = out / r.name / f;
      md << "![" << f << "](" << r.name << "/" << f << ")\n\n";
      std::ifstream in(png, std::ios::binary);
      if (in) {
        std::stringstream buf;
        buf << in.rdbuf();
        html << "<figure><img class=\"figure\" alt=\"" << f << "\" src=\"data:image/png;base64," << Base64(buf.str())
             << "\"><figcaption>" << f << "</figcaption></figure>";
      } else {
        html << "<p class=\"fail\">figure " << f << " missing</p>";
      }
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
