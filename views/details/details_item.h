// What a page tells the Details panel about something it picked that is not one slice (e.g. one
// tf.data iterator's events in one call, summed), or adds to a slice's details (which call of
// which pipeline an iterator event counted in). The page fills in the figures from its analysis
// result; the panel only lays them out as rows.
#pragma once

#include "model/trace/types.h"

#include <QString>

#include <functional>
#include <vector>

namespace tracescope {

struct DetailsItem {
    QString key;
    // On a slice link the panel adds the slice's name, duration, start and track after it.
    QString value;
    QString toolTip;
    SliceRef link;                  // valid: a click selects this slice
    std::function<void()> action;   // set (and no link): a click runs it
    std::vector<DetailsItem> children;
    bool expanded = true;
};

struct DetailsGroup {
    QString title;  // one line, plain text
    std::vector<DetailsItem> items;
};

}  // namespace tracescope
