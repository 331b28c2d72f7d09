// The tf.data page's rows for the Details panel. Each figure comes from the tf.data analysis
// result: this only words them.
//  * A graph box clicked: that iterator's figures in the call the graph shows (its events in the
//    call, summed), naming the call and the number of events, with a link to each event.
//  * One iterator event selected anywhere: which iterator, pipeline and call it counted in, its
//    own share of the box's self time, and a link back to the box's figures.
// The box and one event's own details differ in "self": tf.data's subtracts only the time input
// iterators overlapped it, so the work an event runs itself (a map function) is self time; the
// timeline's subtracts every slice nested in the event.
#pragma once

#include "model/analysis/tf_data.h"
#include "views/details/details_item.h"

#include <functional>
#include <vector>

namespace tracescope {

// "call #0 (the slowest of 6)", "call #3 of 6 (slowest first)".
QString tfDataCallName(size_t rank, size_t calls);

// The figures of iterator `iteratorId` in call `rank` of pipeline `pipeline`.
DetailsGroup tfDataIteratorDetails(const Trace& trace, const TfDataResult& r, size_t pipeline, size_t rank,
                                   uint64_t iteratorId);

// Rows for one iterator event's details; none when `slice` is not an iterator event of a call.
// `showBox(pipeline, rank, iteratorId)` shows that event's box.
std::vector<DetailsItem> tfDataEventAnnotation(const Trace& trace, const TfDataResult& r, SliceRef slice,
                                               const std::function<void(size_t, size_t, uint64_t)>& showBox);

}  // namespace tracescope
