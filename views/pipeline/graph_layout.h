// Top-down layered layout of a small directed graph with Graphviz's dot (through its C
// library): node centres, edge curves and the bounding box, in pixels (1 px = 1 pt at 100 %).
// Falls back to a plain layered layout when the dot plugin cannot be loaded.
#pragma once

#include <QPainterPath>
#include <QPointF>
#include <QRectF>
#include <QSizeF>

#include <utility>
#include <vector>

namespace tracescope {

struct GraphLayout {
    std::vector<QPointF> centers;         // per node
    std::vector<QPainterPath> edgePaths;  // per edge, from tail to head
    std::vector<QPointF> arrowTips;       // per edge: the arrow tip, at the parent (data flows up)
    std::vector<QPointF> arrowFrom;       // per edge: a point just before the tip (arrow direction)
    QRectF bounds;
    bool byGraphviz = false;
};

// Nodes are boxes of the given sizes; edges are (tail, head) node indices. Rank order is
// top-down from the nodes without incoming edges.
GraphLayout layoutTopDown(const std::vector<QSizeF>& nodeSizes, const std::vector<std::pair<int, int>>& edges);

}  // namespace tracescope
