// Browser check of the HTML report: `impactlab validate --quick --only oscillator` writes report.html, headless
// Chromium loads it, and the report's own inline script (report_writer.cpp) publishes on window load how many
// <img class="figure"> decoded: <body data-figures-loaded="N/M">. Every figure must load: N == M > 0.
// A negative control (a copy with one corrupt figure appended) must report N < M, so the check can fail.
// The per-paper summary and a key figure come before the full claim table (the first screen).
// A screenshot goes to <build>/report_screenshot.png. Skipped (MESSAGE, not a failure) without /usr/bin/chromium.
#include <doctest/doctest.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <regex>
#include <sstream>
#include <string>

namespace fs = std::filesystem;

namespace {

constexpr const char* kChromium = "/usr/bin/chromium";

std::string Capture(const std::string& cmd, int& status) {
  FILE* pipe = popen(cmd.c_str(), "r");
  if (!pipe) {
    status = -1;
    return "";
  }
  std::string out;
  char buf[65536];
  while (size_t n = fread(buf, 1, sizeof buf, pipe)) out.append(buf, n);
  status = pclose(pipe);
  return out;
}

fs::path FreshTempDir(const std::string& stem) {
  std::random_device rd;
  const fs::path p = fs::temp_directory_path() / (stem + std::to_string(rd()) + std::to_string(rd()));
  fs::create_directories(p);
  return p;
}

/// Headless Chromium with a throw-away profile and no network side channels.
std::string ChromiumCommand(const fs::path& profile, const std::string& action, const fs::path& page) {
  return std::string("timeout 90 ") + kChromium +
         " --headless --no-sandbox --disable-gpu --disable-quic --no-first-run --disable-background-networking"
         " --disable-component-update --disable-sync --hide-scrollbars --user-data-dir='" + profile.string() + "' " +
         action + " 'file://" + page.string() + "' 2>/dev/null";
}

/// The N/M of data-figures-loaded in the dumped DOM, or "" if absent.
std::string FiguresLoaded(const std::string& dom) {
  std::smatch m;
  static const std::regex re("data-figures-loaded=\"([0-9]+/[0-9]+)\"");
  return std::regex_search(dom, m, re) ? m[1].str() : "";
}

}  // namespace

TEST_CASE("report: every figure of report.html loads in headless Chromium") {
  if (!fs::exists(kChromium)) {
    MESSAGE("skipped: ", kChromium, " not found (apt-get install chromium; scripts/setup.sh lists it)");
    return;
  }
  const fs::path out = FreshTempDir("impactlab_report_");
  const fs::path profile = FreshTempDir("impactlab_chromium_profile_");
  int status = 0;
  Capture(std::string(IMPACTLAB_BINARY) + " validate --quick --only oscillator --out '" + out.string() + "' 2>&1",
          status);
  const fs::path html = out / "report.html";
  REQUIRE(fs::exists(html));

  const std::string dom = Capture(ChromiumCommand(profile, "--dump-dom", html), status);
  REQUIRE_MESSAGE(status == 0, "chromium --dump-dom failed");
  const std::string loaded = FiguresLoaded(dom);
  REQUIRE_MESSAGE(!loaded.empty(), "data-figures-loaded missing: the load script did not run");
  const auto slash = loaded.find('/');
  const int n = std::stoi(loaded.substr(0, slash)), total = std::stoi(loaded.substr(slash + 1));
  MESSAGE("figures loaded: ", loaded);
  CHECK(total > 0);
  CHECK(n == total);
  // What matters leads: the per-paper summary, then a key figure, both before the full claim table.
  const auto summary = dom.find("Summary per paper"), figure = dom.find("<img class=\"figure\""),
             claims = dom.find("All claims");
  REQUIRE(summary != std::string::npos);
  REQUIRE(figure != std::string::npos);
  REQUIRE(claims != std::string::npos);
  CHECK(summary < figure);
  CHECK(figure < claims);

  // Negative control: one corrupt PNG appended must be counted as not loaded.
  {
    std::ifstream in(html);
    std::stringstream buf;
    buf << in.rdbuf();
    std::string text = buf.str();
    const auto pos = text.rfind("<script>");
    REQUIRE(pos != std::string::npos);
    text.insert(pos, "<img class=\"figure\" alt=\"corrupt\" src=\"data:image/png;base64,iVBORw0KGgoAAAAAbroken\">");
    std::ofstream(out / "corrupt.html") << text;
    const std::string bad = FiguresLoaded(Capture(ChromiumCommand(profile, "--dump-dom", out / "corrupt.html"), status));
    CHECK(bad == std::to_string(n) + "/" + std::to_string(total + 1));
  }

  // Screenshot for a human look (not asserted beyond being written).
  const fs::path shot = fs::path(IMPACTLAB_BINARY).parent_path() / "report_screenshot.png";
  fs::remove(shot);
  Capture(ChromiumCommand(profile, "--window-size=1200,2400 --screenshot='" + shot.string() + "'", html), status);
  CHECK(fs::exists(shot));
  std::error_code ec;
  fs::remove_all(profile, ec);
  fs::remove_all(out, ec);
}
