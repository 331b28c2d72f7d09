// Where a flame graph's frames go on screen (an icicle: the root's row on top, callees below), as
// the timeline's layout is kept apart from its drawing: the view paints the rectangles this gives.
//
// The frame zoomed into (the focus) spans the whole width, its ancestors too (rows above it, drawn
// full width so a click zooms back out); below it each frame's children share its width in
// proportion to their value of the chosen metric, in the tree's order (heaviest first). Children
// narrower than the minimum width are folded into one rectangle per parent (their count and value
// kept, their callees not laid out), so a million frames never become a million rectangles.
#pragma once

#include "model/analysis/call_tree.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tracescope {

struct FlameRect {
    uint32_t node = kNoIndex;  // the frame; for a folded rectangle its parent
    uint32_t row = 0;          // 0: the first row (the root's child, or the topmost ancestor shown)
    double x0 = 0, x1 = 0;     // in pixels
    bool ancestor = false;     // above the focus: shown full width
    bool folded = false;       // several narrow frames
    uint32_t foldedCount = 0;
    TimeNs value = 0;    // the metric's value (the folded frames' sum)
    bool match = false;  // the name contains the search text
};

struct FlameLayoutOptions {
    CallMetric metric = CallMetric::Wall;
    uint32_t focus = kCallRoot;  // the frame zoomed into
    double width = 1000;         // pixels
    double minWidth = 2;         // narrower frames are folded
    uint32_t maxRows = 4096;
    std::string search;  // case-insensitive substring; empty: no match marks
};

struct FlameLayout {
    std::vector<FlameRect> rects;  // row by row, left to right
    uint32_t rows = 0;
    TimeNs focusValue = 0;    // the focus frame's value (100 % of the width)
    TimeNs matchedValue = 0;  // value of the matched frames under the focus, nested matches counted once
};

FlameLayout layoutFlame(const CallTree& tree, const FlameLayoutOptions& options);

// The rectangle at a point (x in pixels, row), or null.
const FlameRect* flameRectAt(const FlameLayout& layout, double x, uint32_t row);

}  // namespace tracescope
