// SQL over a trace, measured in one run on FILE:
//
//   bench_sql FILE [--runs N]
//
// 1. Whole process, as a user runs them: `tracescope-cli query FILE "SELECT name, count(*),
//    sum(dur) FROM slice GROUP BY name"` against `tracescope-cli stats FILE` (op statistics, the
//    nearest command that reads every slice once), each N times (default 3) alternating, the
//    fastest of each; prints both and their ratio (the target: <= 2).
// 2. In process, after one import: the same query alone; a time window (the middle 1% of the
//    busiest track) with the rows the table produced against the rows in the window; the SQLite
//    export, with the slice table's rows per second (the target: >= 1 M/s).
#include "model/import/import.h"
#include "model/sql/sqlite_export.h"
#include "model/sql/trace_database.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

using namespace tracescope;
using Clock = std::chrono::steady_clock;

namespace {

const char* kGroupBy = "SELECT name, count(*), sum(dur) FROM slice GROUP BY name";

double seconds(Clock::time_point since) { return std::chrono::duration<double>(Clock::now() - since).count(); }

std::string quoted(const std::string& s) {
    std::string out = "'";
    for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return out + "'";
}

// The wall time of a shell command (its output discarded); negative when it failed.
double timeCommand(const std::string& command) {
    const auto t0 = Clock::now();
    const int rc = std::system((command + " >/dev/null 2>&1").c_str());
    return rc == 0 ? seconds(t0) : -1;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 2) {
        std::fprintf(stderr, "usage: bench_sql FILE [--runs N]\n");
        return 2;
    }
    const std::string file = argv[1];
    int runs = 3;
    for (int i = 2; i + 1 < argc; ++i)
        if (std::string(argv[i]) == "--runs") runs = std::max(1, std::atoi(argv[i + 1]));

    // 1. Whole process.
    const std::string cli = quoted(TRACESCOPE_CLI);
    double query = 1e30, stats = 1e30;
    for (int r = 0; r < runs; ++r) {
        const double q = timeCommand(cli + " query " + quoted(file) + " " + quoted(kGroupBy) + " --csv");
        const double s = timeCommand(cli + " stats " + quoted(file));
        if (q < 0 || s < 0) {
            std::fprintf(stderr, "bench_sql: tracescope-cli failed on %s\n", file.c_str());
            return 1;
        }
        query = std::min(query, q);
        stats = std::min(stats, s);
    }
    std::printf("whole process (fastest of %d): query GROUP BY name %.3f s, stats %.3f s, ratio %.2f (target <= 2)\n",
                runs, query, stats, query / stats);

    // 2. In process.
    const auto t0 = Clock::now();
    ImportResult imported = importTrace(file);
    if (!imported.ok()) {
        std::fprintf(stderr, "bench_sql: %s\n", imported.error.c_str());
        return 1;
    }
    std::shared_ptr<const Trace> trace(std::move(imported.trace));
    std::printf("import %.3f s, %zu slices\n", seconds(t0), trace->counts().slices);
    sql::TraceDatabase db(trace);
    auto t1 = Clock::now();
    uint64_t groups = 0;
    db.run(kGroupBy, nullptr, [&](const sql::SqlRow&) { return ++groups, true; });
    std::printf("GROUP BY name alone: %.3f s, %llu names\n", seconds(t1), (unsigned long long)groups);

    TrackIndex busiest = 0;
    for (TrackIndex t = 0; t < trace->tracks.size(); ++t)
        if (trace->tracks[t].slices.size() > trace->tracks[busiest].slices.size()) busiest = t;
    const SliceColumns& s = trace->tracks[busiest].slices;
    if (!s.empty()) {
        const TimeNs first = s.start.front(), last = s.start.back();
        const TimeNs from = first + (last - first) / 2, to = from + std::max<TimeNs>(1, (last - first) / 100);
        const uint64_t before = db.rowsProduced();
        uint64_t inWindow = 0;
        t1 = Clock::now();
        db.run("SELECT count(*) FROM slice WHERE track_id = " + std::to_string(busiest) + " AND ts BETWEEN " +
                   std::to_string(from) + " AND " + std::to_string(to),
               nullptr, [&](const sql::SqlRow& r) { return inWindow = uint64_t(r.integer(0)), true; });
        std::printf("window (1%% of the busiest track, %zu slices): %llu rows in it, %llu rows read, %.6f s\n", s.size(),
                    (unsigned long long)inWindow, (unsigned long long)(db.rowsProduced() - before), seconds(t1));
    }

    char path[] = "/tmp/bench_sql_XXXXXX";
    const int fd = mkstemp(path);
    if (fd < 0) return 1;
    close(fd);
    t1 = Clock::now();
    const sql::SqliteExportResult written = sql::exportToSqlite(db, path);
    const double all = seconds(t1);
    std::remove(path);
    if (!written.ok) {
        std::fprintf(stderr, "bench_sql: %s\n", written.error.c_str());
        return 1;
    }
    for (const sql::SqliteExportTable& t : written.tables)
        if (t.name == "slice")
            std::printf("export: slice table %llu rows in %.3f s = %.2f M slices/s (target >= 1); all tables %.3f s\n",
                        (unsigned long long)t.rows, t.seconds, double(t.rows) / std::max(t.seconds, 1e-9) / 1e6, all);
    return 0;
}
