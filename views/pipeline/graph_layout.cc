#include "views/pipeline/graph_layout.h"

#include <graphviz/cgraph.h>
#include <graphviz/gvc.h>

#include <QByteArray>

#include <algorithm>
#include <map>
#include <string>

namespace tracescope {

namespace {

constexpr double kPointsPerInch = 72.0;

void set(void* obj, const char* name, const QByteArray& value) {
    agsafeset(obj, const_cast<char*>(name), const_cast<char*>(value.constData()), const_cast<char*>(""));
}

// Layers by longest distance from a source; nodes side by side within a layer.
GraphLayout layered(const std::vector<QSizeF>& sizes, const std::vector<std::pair<int, int>>& edges) {
    GraphLayout out;
    const int n = int(sizes.size());
    std::vector<int> layer(size_t(n), 0);
    for (int pass = 0; pass < n; ++pass) {
        bool changed = false;
        for (auto [a, b] : edges)
            if (layer[size_t(b)] < layer[size_t(a)] + 1 && layer[size_t(a)] + 1 < n) {
                layer[size_t(b)] = layer[size_t(a)] + 1;
                changed = true;
            }
        if (!changed) break;
    }
    const int layers = n ? *std::max_element(layer.begin(), layer.end()) + 1 : 0;
    const double gapX = 30, gapY = 50;
    std::vector<double> rowHeight(size_t(layers), 0), rowWidth(size_t(layers), 0);
    for (int i = 0; i < n; ++i) {
        rowHeight[size_t(layer[size_t(i)])] = std::max(rowHeight[size_t(layer[size_t(i)])], sizes[size_t(i)].height());
        rowWidth[size_t(layer[size_t(i)])] += sizes[size_t(i)].width() + gapX;
    }
    const double width = layers ? *std::max_element(rowWidth.begin(), rowWidth.end()) : 0;
    std::vector<double> x(size_t(layers), 0), y(size_t(layers), 0);
    for (int l = 0; l < layers; ++l) {
        x[size_t(l)] = (width - rowWidth[size_t(l)]) / 2 + gapX / 2;
        if (l > 0) y[size_t(l)] = y[size_t(l - 1)] + rowHeight[size_t(l - 1)] + gapY;
    }
    out.centers.resize(size_t(n));
    for (int i = 0; i < n; ++i) {
        const int l = layer[size_t(i)];
        out.centers[size_t(i)] = {x[size_t(l)] + sizes[size_t(i)].width() / 2, y[size_t(l)] + rowHeight[size_t(l)] / 2};
        x[size_t(l)] += sizes[size_t(i)].width() + gapX;
    }
    for (auto [a, b] : edges) {
        const QPointF from = out.centers[size_t(a)] + QPointF(0, sizes[size_t(a)].height() / 2);
        const QPointF to = out.centers[size_t(b)] - QPointF(0, sizes[size_t(b)].height() / 2);
        QPainterPath p(from);
        p.lineTo(to);
        out.edgePaths.push_back(p);
        out.arrowTips.push_back(from);
        out.arrowFrom.push_back(from + QPointF(0, 10));
    }
    out.bounds = QRectF(0, 0, width, layers ? y.back() + rowHeight.back() : 0);
    return out;
}

}  // namespace

GraphLayout layoutTopDown(const std::vector<QSizeF>& sizes, const std::vector<std::pair<int, int>>& edges) {
    GVC_t* gvc = gvContext();
    if (!gvc) return layered(sizes, edges);
    Agraph_t* g = agopen(const_cast<char*>("tfdata"), Agdirected, nullptr);
    set(g, "rankdir", "TB");
    set(g, "nodesep", "0.3");
    set(g, "ranksep", "0.45");
    set(g, "splines", "spline");
    std::vector<Agnode_t*> nodes;
    for (size_t i = 0; i < sizes.size(); ++i) {
        QByteArray name = "n" + QByteArray::number(qulonglong(i));
        Agnode_t* v = agnode(g, name.data(), 1);
        set(v, "shape", "box");
        set(v, "fixedsize", "true");
        set(v, "label", "");
        set(v, "width", QByteArray::number(sizes[i].width() / kPointsPerInch, 'f', 4));
        set(v, "height", QByteArray::number(sizes[i].height() / kPointsPerInch, 'f', 4));
        nodes.push_back(v);
    }
    std::vector<Agedge_t*> edgeObjs;
    for (auto [a, b] : edges) {
        Agedge_t* e = agedge(g, nodes[size_t(a)], nodes[size_t(b)], nullptr, 1);
        if (e) set(e, "dir", "back");
        edgeObjs.push_back(e);
    }
    GraphLayout out;
    if (gvLayout(gvc, g, "dot") != 0) {
        agclose(g);
        gvFreeContext(gvc);
        return layered(sizes, edges);
    }
    const boxf bb = GD_bb(g);
    auto flip = [&](pointf p) { return QPointF(p.x - bb.LL.x, bb.UR.y - p.y); };
    for (Agnode_t* v : nodes) out.centers.push_back(flip(ND_coord(v)));
    for (Agedge_t* e : edgeObjs) {
        QPainterPath path;
        QPointF tip, from;
        const splines* spl = e ? ED_spl(e) : nullptr;
        if (spl && spl->size > 0 && spl->list[0].size > 0) {
            const bezier& bz = spl->list[0];
            path.moveTo(flip(bz.list[0]));
            for (int i = 1; i + 2 < bz.size; i += 3) path.cubicTo(flip(bz.list[i]), flip(bz.list[i + 1]), flip(bz.list[i + 2]));
            // Edges run parent -> child with dir=back: the arrow is at the parent (data flows up).
            if (bz.sflag) {
                tip = flip(bz.sp);
                from = flip(bz.list[0]);
            } else if (bz.eflag) {
                tip = flip(bz.ep);
                from = flip(bz.list[bz.size - 1]);
            }
        }
        out.edgePaths.push_back(path);
        out.arrowTips.push_back(tip);
        out.arrowFrom.push_back(from);
    }
    out.bounds = QRectF(0, 0, bb.UR.x - bb.LL.x, bb.UR.y - bb.LL.y);
    out.byGraphviz = true;
    gvFreeLayout(gvc, g);
    agclose(g);
    gvFreeContext(gvc);
    return out;
}

}  // namespace tracescope
