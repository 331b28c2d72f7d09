#include "app/gui/run_loader.h"

#include "model/analysis/pod.h"
#include "model/trace/merge_workers.h"
#include "views/runner_future.h"

#include <QFileInfo>

namespace tracescope {

QString runLabel(const QStringList& paths) {
    if (paths.isEmpty()) return {};
    const QString first = QFileInfo(paths.front()).fileName();
    return paths.size() == 1 ? first : QObject::tr("%1 + %2 more").arg(first).arg(paths.size() - 1);
}

RunLoader::RunLoader(QObject* parent) : QObject(parent) {
    connect(&watcher_, &QFutureWatcher<std::shared_ptr<Result>>::finished, this, [this] {
        auto r = watcher_.result();
        if (r->cancelled) emit cancelled(label_);
        else if (!r->error.isEmpty()) emit failed(r->error, label_);
        else if (!r->notOneJob.isEmpty()) {
            pending_ = std::move(r->unmerged);
            emit notOneJob(r->notOneJob, label_);
        } else emit loaded(r->run, label_);
    });
}

RunLoader::~RunLoader() {
    cancel();
    watcher_.waitForFinished();
}

std::shared_ptr<RunLoader::Result> RunLoader::loadNow(const QStringList& paths, const std::shared_ptr<State>& state,
                                                      RunLoader* notify, bool askIfNotOneJob) {
    auto out = std::make_shared<Result>();
    std::vector<std::string> files;
    for (const QString& p : paths) files.push_back(p.toStdString());
    WorkerImportOptions options;
    if (state) {
        // The loader outlives its loads (its destructor waits), so a queued call to it is safe.
        auto changed = [state, notify](size_t file, FileLoadState::Stage stage, const std::string& error) {
            {
                std::lock_guard lock(state->mutex);
                if (file >= state->states.size()) return;
                state->states[file].stage = stage;
                state->states[file].error = QString::fromStdString(error);
            }
            if (notify)
                QMetaObject::invokeMethod(
                    notify, [notify, file] { emit notify->fileStateChanged(int(file)); }, Qt::QueuedConnection);
        };
        options.base.cancel = &state->cancel;
        options.base.progress = [state](uint64_t done, uint64_t total) {
            state->done.store(done, std::memory_order_relaxed);
            state->total.store(total, std::memory_order_relaxed);
        };
        options.fileProgress = [state](size_t file, uint64_t done, uint64_t total) {
            if (file < state->files) {
                state->fileDone[file].store(done, std::memory_order_relaxed);
                state->fileTotal[file].store(total, std::memory_order_relaxed);
            }
        };
        options.fileStarted = [changed](size_t file) { changed(file, FileLoadState::Stage::Loading, {}); };
        options.fileFinished = [state, changed](size_t file, const std::string& error) {
            state->filesDone.fetch_add(1, std::memory_order_relaxed);
            changed(file, error.empty() ? FileLoadState::Stage::Done : FileLoadState::Stage::Failed, error);
        };
    }
    MultiWorkerResult r = importWorkers(files, options);
    if (r.cancelled) {
        out->cancelled = true;
        return out;
    }
    if (!r.ok()) {
        out->error = QString::fromStdString(r.error);
        return out;
    }
    auto run = std::make_shared<MultiWorkerRun>(std::move(r.run));
    if (askIfNotOneJob && !r.job.oneJob()) {
        out->notOneJob = QString::fromStdString(r.job.reason);
        out->unmerged = std::move(run);
        return out;
    }
    out->run = mergeRun(std::move(run));
    return out;
}

LoadedRun RunLoader::mergeRun(std::shared_ptr<MultiWorkerRun> run) {
    // Workers without a wall clock are aligned on their first step before merging, so the
    // timeline shows them where the Pod page does (the run's offsets are the one source).
    alignWorkersOnFirstStep(*run);
    // The workers' own traces are let go as they are merged: the run is held once, in the view.
    LoadedRun out;
    out.merged = mergeWorkers(*run);
    out.run = std::move(run);
    return out;
}

void RunLoader::merge(std::shared_ptr<MultiWorkerRun> run, const QString& label) {
    cancel();
    watcher_.waitForFinished();
    label_ = label;
    watcher_.setFuture(runOnJobRunner(JobPriority::Interactive, [run = std::move(run)]() mutable {
        auto out = std::make_shared<Result>();
        out->run = mergeRun(std::move(run));
        return out;
    }));
}

LoadedRun RunLoader::load(const QStringList& paths, QString* error) {
    auto r = loadNow(paths, nullptr);
    if (error) *error = r->error;
    return r->run;
}

void RunLoader::start(const QStringList& paths, const QString& label) {
    cancel();
    watcher_.waitForFinished();
    label_ = label.isEmpty() ? runLabel(paths) : label;
    state_ = std::make_shared<State>();
    std::vector<std::string> files;
    for (const QString& p : paths) files.push_back(p.toStdString());
    const std::vector<std::string> expanded = expandWorkerPaths(files);
    state_->files = expanded.size();
    state_->fileDone = std::make_unique<std::atomic<uint64_t>[]>(expanded.size());
    state_->fileTotal = std::make_unique<std::atomic<uint64_t>[]>(expanded.size());
    for (const std::string& f : expanded) {
        FileLoadState one;
        one.name = QFileInfo(QString::fromStdString(f)).fileName();
        state_->states.push_back(std::move(one));
    }
    watcher_.setFuture(runOnJobRunner(JobPriority::Interactive,
                                      [this, paths, state = state_] { return loadNow(paths, state, this, true); }));
}

void RunLoader::cancel() {
    if (state_) state_->cancel = true;
}

double RunLoader::fraction() const {
    if (!state_) return 0;
    const uint64_t total = state_->total.load(std::memory_order_relaxed);
    return total ? double(state_->done.load(std::memory_order_relaxed)) / double(total) : 0;
}

std::vector<FileLoadState> RunLoader::fileStates() const {
    if (!state_) return {};
    std::vector<FileLoadState> out;
    {
        std::lock_guard lock(state_->mutex);
        out = state_->states;
    }
    for (size_t i = 0; i < out.size(); ++i) {
        const uint64_t total = state_->fileTotal[i].load(std::memory_order_relaxed);
        const uint64_t done = state_->fileDone[i].load(std::memory_order_relaxed);
        if (out[i].stage == FileLoadState::Stage::Done) out[i].fraction = 1;
        else if (total) out[i].fraction = std::min(1.0, double(done) / double(total));
    }
    return out;
}

QString RunLoader::filesText() const {
    if (!state_) return {};
    return tr("%1 of %2 files").arg(std::min(state_->filesDone.load(), state_->files)).arg(state_->files);
}

}  // namespace tracescope
