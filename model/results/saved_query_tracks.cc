#include "model/results/saved_query_tracks.h"

#include "model/results/sql_result_tables.h"
#include "model/sql/query_track.h"

#include <memory>

namespace tracescope {

std::vector<DerivedCounterTrack> runSavedQueryTracks(ResultStore& store, const std::vector<SavedQueryTrack>& saved,
                                                     std::chrono::milliseconds timeout) {
    std::vector<DerivedCounterTrack> out;
    if (saved.empty()) return out;
    sql::TraceDatabase db(store.sharedTrace());
    addAnalysisTables(db, store);
    sql::QueryOptions options;
    options.timeout = timeout;
    for (const SavedQueryTrack& q : saved) {
        std::unique_ptr<sql::QueryTrackBuilder> builder;
        const sql::QueryOutcome outcome = db.run(
            q.sql,
            [&](const std::vector<std::string>& names) {
                builder = std::make_unique<sql::QueryTrackBuilder>(store.trace(), names);
            },
            [&](const sql::SqlRow& row) {
                builder->add(row);
                return true;
            },
            options);
        std::string why = !outcome.ok ? outcome.error
                          : !builder  ? "the query has no result"
                                      : builder->whyNot();
        if (!why.empty()) {
            DerivedCounterTrack failed;
            failed.source = DerivedSource::Query;
            failed.process = store.trace().processes.empty() ? kNoIndex : 0;
            failed.name = q.name;
            failed.query = q.sql;
            failed.error = std::move(why);
            out.push_back(std::move(failed));
            continue;
        }
        out.push_back(builder->finish(q.name, q.sql));
    }
    return out;
}

}  // namespace tracescope
