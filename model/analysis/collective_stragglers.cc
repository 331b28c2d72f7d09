#include "model/analysis/collective_stragglers.h"

#include "model/analysis/analysis_progress.h"

#include <algorithm>
#include <map>
#include <tuple>

namespace tracescope {

StragglerResult matchCollectives(const std::vector<RankCollectives>& ranks) {
    StragglerResult out;
    const size_t n = ranks.size();
    bool allSeq = true, anyCall = false;
    for (const RankCollectives& r : ranks)
        if (r.result)
            for (const CollectiveCall& c : r.result->calls) {
                anyCall = true;
                allSeq = allSeq && c.seq.has_value();
            }
    out.bySeq = anyCall && allSeq;

    // Key: (group, kind or "", Seq or the ordinal, the occurrence of that Seq on the rank). A
    // Seq that comes again on one rank (its counter reset) is told apart by its occurrence.
    using Key = std::tuple<std::string, std::string, int64_t, uint64_t>;
    std::map<Key, size_t> index;
    for (size_t ri = 0; ri < n; ++ri) {
        if (!ranks[ri].result) continue;
        std::map<std::tuple<std::string, std::string, int64_t>, uint64_t> seen;
        const std::vector<CollectiveCall>& calls = ranks[ri].result->calls;
        for (size_t ci = 0; ci < calls.size(); ++ci) {
            analysisTick();
            const CollectiveCall& c = calls[ci];
            Key key;
            uint64_t ordinal = 0;
            if (out.bySeq) {
                const uint64_t occurrence = seen[{c.group, "", *c.seq}]++;
                key = {c.group, "", *c.seq, occurrence};
            } else {
                ordinal = seen[{c.group, c.kind, 0}]++;
                key = {c.group, c.kind, int64_t(ordinal), 0};
            }
            auto [it, fresh] = index.emplace(key, out.collectives.size());
            if (fresh) {
                MatchedCollective& m = out.collectives.emplace_back();
                m.group = c.group;
                m.kind = c.kind;
                if (out.bySeq) m.seq = c.seq;
                m.ordinal = out.bySeq ? std::get<3>(key) : ordinal;
                m.calls.assign(n, std::nullopt);
                m.arrivalNs.assign(n, 0);
            }
            MatchedCollective& m = out.collectives[it->second];
            if (m.calls[ri]) continue;  // cannot happen with the occurrence in the key; kept safe
            m.calls[ri] = ci;
            m.arrivalNs[ri] = plusSat(c.startNs, ranks[ri].offsetNs);
            ++m.ranksPresent;
        }
    }

    out.ranks.resize(n);
    for (size_t ri = 0; ri < n; ++ri) out.ranks[ri].rank = ri;
    std::vector<MatchedCollective> matched;
    for (MatchedCollective& m : out.collectives) {
        if (m.ranksPresent < 2) {
            out.unmatchedCalls += m.ranksPresent;
            continue;
        }
        TimeNs earliest = 0, latest = 0;
        bool first = true;
        for (size_t ri = 0; ri < n; ++ri) {
            if (!m.calls[ri]) continue;
            const TimeNs a = m.arrivalNs[ri];
            if (first || a < earliest) earliest = a;
            if (first || a > latest) latest = a, m.lateRank = ri;
            first = false;
        }
        m.skewNs = latest - earliest;
        for (size_t ri = 0; ri < n; ++ri) {
            if (!m.calls[ri]) continue;
            const TimeNs wait = latest - m.arrivalNs[ri];
            m.inducedWaitNs = plusSat(m.inducedWaitNs, wait);
            out.ranks[ri].waitedNs = plusSat(out.ranks[ri].waitedNs, wait);
        }
        RankWait& late = out.ranks[m.lateRank];
        late.inducedWaitNs = plusSat(late.inducedWaitNs, m.inducedWaitNs);
        ++late.lateCount;
        matched.push_back(std::move(m));
    }
    out.collectives = std::move(matched);
    std::stable_sort(out.collectives.begin(), out.collectives.end(),
                     [](const MatchedCollective& a, const MatchedCollective& b) {
                         const auto earliest = [](const MatchedCollective& m) {
                             TimeNs e = 0;
                             bool first = true;
                             for (size_t i = 0; i < m.calls.size(); ++i)
                                 if (m.calls[i] && (first || m.arrivalNs[i] < e)) e = m.arrivalNs[i], first = false;
                             return e;
                         };
                         return earliest(a) < earliest(b);
                     });
    std::stable_sort(out.ranks.begin(), out.ranks.end(),
                     [](const RankWait& a, const RankWait& b) { return a.inducedWaitNs > b.inducedWaitNs; });
    if (n < 2) out.notes.push_back("one rank: stragglers need the traces of two or more ranks");
    else if (out.collectives.empty() && anyCall)
        out.notes.push_back("no collective was found on two or more ranks");
    if (out.unmatchedCalls > 0)
        out.notes.push_back(std::to_string(out.unmatchedCalls) +
                            " calls were found on one rank only (ranks missing, or traces that start or end at "
                            "different calls)");
    if (anyCall && !out.bySeq)
        out.notes.push_back("matched by order (the n-th call of a kind in a group on each rank): the traces do not "
                            "record every call's Seq");
    return out;
}

}  // namespace tracescope
