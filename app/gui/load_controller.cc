#include "app/gui/load_controller.h"

#include "app/gui/load_status.h"
#include "app/gui/run_loader.h"
#include "app/gui/runs_menu.h"
#include "app/gui/trace_loader.h"
#include "model/import/logdir.h"
#include "model/import/workers.h"
#include "model/results/summary_run.h"

#include <QFileInfo>
#include <QMainWindow>
#include <QStatusBar>

#include <utility>

namespace tracescope {

namespace {

std::vector<std::string> summariesIn(const QStringList& paths) {
    std::vector<std::string> p;
    for (const QString& x : paths) p.push_back(x.toStdString());
    return summaryPaths(p);
}

bool severalWorkers(const QString& folder) { return expandWorkerPaths({folder.toStdString()}).size() > 1; }

}  // namespace

LoadController::LoadController(QMainWindow* window) : QObject(window) {
    loader_ = new TraceLoader(this);
    loader_->setObjectName(QStringLiteral("traceLoader"));
    runLoader_ = new RunLoader(this);
    status_ = new LoadStatus(window->statusBar(), loader_, runLoader_);
    // Loading ends however it ends: the window shows what came of it.
    connect(loader_, &TraceLoader::loaded, status_, &LoadStatus::stopLoading);
    connect(loader_, &TraceLoader::failed, status_, &LoadStatus::stopLoading);
    connect(loader_, &TraceLoader::cancelled, status_, &LoadStatus::stopLoading);
    connect(runLoader_, &RunLoader::loaded, status_, &LoadStatus::stopLoading);
    connect(runLoader_, &RunLoader::failed, status_, &LoadStatus::stopLoading);
    connect(runLoader_, &RunLoader::cancelled, status_, &LoadStatus::stopLoading);
    connect(runLoader_, &RunLoader::notOneJob, status_, &LoadStatus::stopLoading);
}

void LoadController::setRunsMenu(QMenu* menu) {
    runs_ = new RunsMenu(menu, [this](const RunInfo& run) { openListedRun(run); });
}

void LoadController::open(const QString& path) {
    if (const std::vector<std::string> summaries = summariesIn({path}); !summaries.empty()) {
        emit summariesChosen(summaries, QFileInfo(path).fileName());
        return;
    }
    if (QFileInfo(path).isDir()) {
        // A logdir or profile folder: list its runs and open the newest (listRuns sorts newest first).
        const std::vector<RunInfo> runs = listRuns(path.toStdString());
        // A folder of several workers' trace files (rank-0.json.gz, rank-1.json.gz…): one run.
        if (runs.empty() && severalWorkers(path)) {
            openAll({path});
            return;
        }
        runs_->setFolder(runs.empty() ? QString() : path);
        if (!runs.empty()) {
            openListedRun(runs.front());
            return;
        }
    } else {
        runs_->setFolder({});
    }
    runs_->rebuild(path);
    startLoad(path);
}

void LoadController::openAll(const QStringList& paths) {
    if (const std::vector<std::string> summaries = summariesIn(paths); !summaries.empty()) {
        emit summariesChosen(summaries, runLabel(paths));
        return;
    }
    if (paths.size() == 1 && !QFileInfo(paths.front()).isDir()) {
        open(paths.front());
        return;
    }
    forgetRuns();
    startRun(paths, runLabel(paths));
}

void LoadController::openCaptured(const QString& logdir, const QString& runDir) {
    runs_->setFolder(logdir);
    runs_->rebuild(runDir);
    startLoad(runDir);
}

void LoadController::merge(std::shared_ptr<MultiWorkerRun> run, const QString& label) {
    status_->startLoading(label);
    status_->showText(tr("Merging %1 …").arg(label));
    runLoader_->merge(std::move(run), label);
}

void LoadController::forgetRuns() {
    runs_->setFolder({});
    runs_->rebuild({});
}

bool LoadController::busy() const { return loader_->busy() || runLoader_->busy(); }

void LoadController::cancel() {
    loader_->cancel();
    runLoader_->cancel();
}

void LoadController::startLoad(const QString& target) {
    // A profile run of several hosts: each host is a worker of one run (its own clock offset, the Pod page).
    if (QFileInfo(target).isDir() && severalWorkers(target)) {
        startRun({target}, runLabel({target}));
        return;
    }
    status_->startLoading(QFileInfo(target).fileName());
    loader_->start(target);
}

void LoadController::startRun(const QStringList& files, const QString& label) {
    status_->startLoading(label);
    runLoader_->start(files, label);
}

void LoadController::openListedRun(const RunInfo& run) {
    runs_->rebuild(RunsMenu::key(run));
    if (run.kind != RunKind::TorchCycle) {
        startLoad(QString::fromStdString(run.path));
        return;
    }
    // A PyTorch cycle: its one worker's file, or its workers together as one run (the Pod page).
    QStringList files;
    for (const std::string& f : run.files) files << QString::fromStdString(f);
    if (files.size() == 1) {
        startLoad(files.front());
        return;
    }
    // Named by its folder and cycle ("profiler — cycle 2"): its files' names say less.
    startRun(files,
             tr("%1 — %2").arg(QFileInfo(QString::fromStdString(run.path)).fileName(), QString::fromStdString(run.name)));
}

}  // namespace tracescope
