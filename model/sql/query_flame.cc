#include "model/sql/query_flame.h"

#include <cmath>

namespace tracescope::sql {

QueryFlameBuilder::QueryFlameBuilder(const std::vector<std::string>& columns) {
    for (int i = 0; i < int(columns.size()); ++i) {
        const std::string& c = columns[size_t(i)];
        if (c == "stack" && stack_ < 0) stack_ = i;
        else if (c == "value" && value_ < 0) value_ = i;
    }
}

std::string QueryFlameBuilder::whyNot() const {
    if (usable()) return {};
    return "a flame graph needs the columns stack (frames joined with ';') and value; this result has " +
           std::string(stack_ < 0 && value_ < 0 ? "neither" : stack_ < 0 ? "no stack" : "no value");
}

void QueryFlameBuilder::add(const SqlRow& row) {
    if (!usable()) return;
    const int valueType = row.type(value_);
    const double value = valueType == SQLITE_INTEGER || valueType == SQLITE_FLOAT ? row.real(value_) : -1;
    const std::string_view stack = row.type(stack_) == SQLITE_TEXT ? row.text(stack_) : std::string_view();
    // Beyond 2^62 ns (146 years) a value is no time: left out rather than wrapped.
    if (stack.empty() || !std::isfinite(value) || value < 0 || value > 4.6e18) {
        ++skipped_;
        return;
    }
    stacks_.emplace_back(stack);
    folded_.push_back({stacks_.back(), TimeNs(std::llround(value))});
}

CallTree QueryFlameBuilder::finish() const { return callTreeFromFolded(folded_); }

}  // namespace tracescope::sql
