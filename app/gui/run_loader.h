// Loads several worker files as one run on a background thread (importWorkers: the files
// side by side on both cores), then merges them into the view the timeline shows, letting go
// of each worker's own trace (the run then points into the view). Progress
// (bytes over all files, files done, and each file's own share and state) and cancel as
// TraceLoader.
#pragma once

#include "model/import/workers.h"

#include <QFutureWatcher>
#include <QObject>
#include <QStringList>

#include <atomic>
#include <memory>
#include <mutex>
#include <vector>

namespace tracescope {

// One file of a run being loaded, as the loading UI lists it.
struct FileLoadState {
    enum class Stage { Waiting, Loading, Done, Failed };
    QString name;       // the file's name
    Stage stage = Stage::Waiting;
    double fraction = 0;  // of its bytes read
    QString error;      // Failed: why
};

struct LoadedRun {
    std::shared_ptr<const MultiWorkerRun> run;  // its workers live in `merged` (WorkerTrace::merged)
    std::shared_ptr<const Trace> merged;
};

class RunLoader : public QObject {
    Q_OBJECT
public:
    explicit RunLoader(QObject* parent = nullptr);
    ~RunLoader() override;

    // `label` names the run in the window (default: runLabel(paths)).
    void start(const QStringList& paths, const QString& label = {});
    void cancel();
    bool busy() const { return watcher_.isRunning(); }
    double fraction() const;
    // "12 of 64 files" while loading.
    QString filesText() const;
    // Each file of the load in progress (or the last one), in loading order.
    std::vector<FileLoadState> fileStates() const;

    // Synchronous (for --screenshot): the run and its merged view, or an error. Files that are not
    // one job are merged all the same (the run's warnings say so).
    static LoadedRun load(const QStringList& paths, QString* error);

    // After notOneJob: the loaded, unmerged run (once; null afterwards).
    std::shared_ptr<MultiWorkerRun> takePendingRun() { return std::move(pending_); }
    // Merges a run taken from takePendingRun in the background; `loaded` follows.
    void merge(std::shared_ptr<MultiWorkerRun> run, const QString& label);

signals:
    void loaded(tracescope::LoadedRun run, QString label);
    // The files loaded but are not one job (`reason`: checkOneJob's line); nothing is merged
    // until merge() is called with takePendingRun().
    void notOneJob(QString reason, QString label);
    void failed(QString message, QString label);
    void cancelled(QString label);
    // A file started, finished or failed (queued from the loading threads; bytes are polled).
    void fileStateChanged(int file);

private:
    struct State {
        std::atomic<bool> cancel{false};
        std::atomic<uint64_t> done{0}, total{0};
        std::atomic<size_t> filesDone{0};
        size_t files = 0;
        std::unique_ptr<std::atomic<uint64_t>[]> fileDone, fileTotal;  // bytes, per file
        mutable std::mutex mutex;                                       // guards `states`
        std::vector<FileLoadState> states;
    };
    struct Result {
        LoadedRun run;
        QString error;
        bool cancelled = false;
        QString notOneJob;  // set: `unmerged` waits for the user's choice
        std::shared_ptr<MultiWorkerRun> unmerged;
    };
    QString label_;
    std::shared_ptr<MultiWorkerRun> pending_;
    std::shared_ptr<State> state_;
    QFutureWatcher<std::shared_ptr<Result>> watcher_;

    static std::shared_ptr<Result> loadNow(const QStringList& paths, const std::shared_ptr<State>& state,
                                           RunLoader* notify = nullptr, bool askIfNotOneJob = false);
    // Aligns the workers without a wall clock on their first step, then merges the run.
    static LoadedRun mergeRun(std::shared_ptr<MultiWorkerRun> run);
};

// "rank-0.json.gz + 63 more" for a window title or status bar.
QString runLabel(const QStringList& paths);

}  // namespace tracescope

Q_DECLARE_METATYPE(tracescope::LoadedRun)
