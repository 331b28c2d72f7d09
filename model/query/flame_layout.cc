#include "model/query/flame_layout.h"

#include "model/trace/text_match.h"

#include <algorithm>

namespace tracescope {

namespace {

// The search marks names that contain the text, ignoring ASCII case (as the timeline's search).
bool contains(std::string_view name, const std::string& needle) {
    return !needle.empty() && containsIgnoringCase(name, needle);
}

}  // namespace

FlameLayout layoutFlame(const CallTree& tree, const FlameLayoutOptions& o) {
    FlameLayout out;
    if (tree.nodes.empty()) return out;
    const uint32_t focus = o.focus < tree.nodes.size() ? o.focus : kCallRoot;
    out.focusValue = tree.width(focus, o.metric);

    // The focus and its ancestors (the root itself is not drawn), full width.
    std::vector<uint32_t> chain;
    for (uint32_t n = focus; n != kCallRoot && n != kNoIndex; n = tree.nodes[n].parent) chain.push_back(n);
    std::reverse(chain.begin(), chain.end());
    uint32_t row = 0;
    for (uint32_t n : chain) {
        FlameRect r;
        r.node = n;
        r.row = row++;
        r.x0 = 0;
        r.x1 = o.width;
        r.ancestor = n != focus;
        r.value = tree.width(n, o.metric);
        r.match = contains(tree.nodes[n].name, o.search);
        out.rects.push_back(r);
    }
    if (out.focusValue <= 0 || o.width <= 0) {
        out.rows = row;
        return out;
    }
    // Frames wider than the focus (a wall-time callee of overlapping calls) are clipped to it.

    // Breadth first under the focus: (node, x0, x1, row of its children, inside a match).
    struct Item {
        uint32_t node;
        double x0, x1;
        uint32_t row;
        bool matched;
    };
    const bool focusMatched = focus != kCallRoot && contains(tree.nodes[focus].name, o.search);
    if (focusMatched) out.matchedValue = out.focusValue;
    std::vector<Item> level{{focus, 0, o.width, row, focusMatched}}, next;
    const double scale = o.width / double(out.focusValue);
    while (!level.empty() && row < o.maxRows) {
        next.clear();
        for (const Item& it : level) {
            double x = it.x0;
            FlameRect fold;
            fold.node = it.node;
            fold.folded = true;
            fold.row = it.row;
            for (uint32_t c : tree.nodes[it.node].children) {
                const TimeNs v = tree.width(c, o.metric);
                if (v <= 0) continue;
                const double w = double(v) * scale;
                if (w < o.minWidth) {
                    if (fold.foldedCount == 0) fold.x0 = x;
                    ++fold.foldedCount;
                    addSat(fold.value, v);
                    x += w;
                    fold.x1 = x;
                    continue;
                }
                FlameRect r;
                r.node = c;
                r.row = it.row;
                r.x0 = x;
                r.x1 = std::min(x + w, it.x1);
                r.value = v;
                r.match = contains(tree.nodes[c].name, o.search);
                if (r.match && !it.matched) addSat(out.matchedValue, v);
                out.rects.push_back(r);
                next.push_back({c, r.x0, r.x1, it.row + 1, it.matched || r.match});
                x += w;
            }
            if (fold.foldedCount > 0 && fold.x1 - fold.x0 >= 1) {
                fold.x1 = std::min(fold.x1, it.x1);
                out.rects.push_back(fold);
            }
        }
        if (!next.empty()) ++row;
        level.swap(next);
    }
    for (const FlameRect& r : out.rects) out.rows = std::max(out.rows, r.row + 1);
    return out;
}

const FlameRect* flameRectAt(const FlameLayout& layout, double x, uint32_t row) {
    for (const FlameRect& r : layout.rects)
        if (r.row == row && x >= r.x0 && x < r.x1) return &r;
    return nullptr;
}

}  // namespace tracescope
