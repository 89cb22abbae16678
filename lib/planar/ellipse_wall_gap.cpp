#include "planar/ellipse_wall_gap.h"

namespace impactlab {

PlanarGap EllipseWallGap(const Ellipse& ellipse, int body, const Eigen::Vector2d& centre, double theta,
                         const Wall& wall) {
  PlanarGap g;
  g.body_a = -1;
  g.body_b = body;
  const Eigen::Matrix2d s = ellipse.ShapeMatrix(theta);
  const Eigen::Vector2d& n = wall.normal;
  const double h = std::sqrt(n.dot(s * n));
  g.delta = h - n.dot(centre - wall.point);
  g.normal = n;
  g.tangent = Perp(n);
  const Eigen::Vector2d deepest = centre - s * n / h;
  g.point = deepest + 0.5 * g.delta * n;
  g.effective_radius = ellipse.CurvatureRadius(h);  // the wall is flat
  return g;
}

}  // namespace impactlab
