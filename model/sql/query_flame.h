// A query's result as a flame graph ("Flame graph" on the Query page): one folded stack per row
// from its `stack` column ("main;forward;aten::mm", flamegraph.pl's format, as `call_tree` or a
// recursive query over `slice` can build it) and its `value` column (ns), made into a top-down
// call tree (model/analysis/call_tree.h: callTreeFromFolded). Rows whose stack is not text or
// empty, or whose value is not a number >= 0, are left out and counted.
#pragma once

#include "model/analysis/call_tree.h"
#include "model/sql/trace_database.h"

#include <deque>
#include <string>
#include <vector>

namespace tracescope::sql {

class QueryFlameBuilder {
public:
    explicit QueryFlameBuilder(const std::vector<std::string>& columns);
    // True when the columns hold stack and value; else whyNot() says what is missing.
    bool usable() const { return stack_ >= 0 && value_ >= 0; }
    std::string whyNot() const;
    void add(const SqlRow& row);
    uint64_t skipped() const { return skipped_; }
    CallTree finish() const;

private:
    int stack_ = -1, value_ = -1;
    std::deque<std::string> stacks_;  // the rows' text (SqlRow's text lives only for its row)
    std::vector<FoldedStack> folded_;
    uint64_t skipped_ = 0;
};

}  // namespace tracescope::sql
