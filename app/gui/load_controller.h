// What opening a path means, and the loads it starts: a trace file, a profile folder (its
// newest run, the others in File › Runs), several workers' files as one run, or ranks'
// summaries (handed on to the window, which reads them at once). It owns the loaders and the
// status bar that shows their progress; what a load produces goes to whoever connects to the
// loaders' signals (the main window shows it).
#pragma once

#include <QObject>
#include <QString>
#include <QStringList>

#include <memory>
#include <string>
#include <vector>

class QMainWindow;
class QMenu;

namespace tracescope {

struct MultiWorkerRun;
struct RunInfo;
class LoadStatus;
class RunLoader;
class RunsMenu;
class TraceLoader;

class LoadController : public QObject {
    Q_OBJECT
public:
    // The status bar is `window`'s.
    explicit LoadController(QMainWindow* window);

    TraceLoader* traceLoader() const { return loader_; }
    RunLoader* runLoader() const { return runLoader_; }
    LoadStatus* status() const { return status_; }
    // File › Runs lives in `menu` from now on.
    void setRunsMenu(QMenu* menu);

    // One path: summaries, a profile folder, a folder of workers' files, or a trace file.
    void open(const QString& path);
    // Several paths together: the workers of one run (or their summaries).
    void openAll(const QStringList& paths);
    // A run just captured under `logdir` (File › Runs lists the logdir's runs).
    void openCaptured(const QString& logdir, const QString& runDir);
    // Files that are not one job, merged anyway (in the background; runLoader's `loaded` follows).
    void merge(std::shared_ptr<MultiWorkerRun> run, const QString& label);
    // The open document is no folder's run: File › Runs empties.
    void forgetRuns();
    bool busy() const;
    void cancel();

signals:
    // These are ranks' summaries (tracescope-pod's), named `label`.
    void summariesChosen(std::vector<std::string> summaryPaths, QString label);

private:
    // A trace file or one profile run (several hosts: a multi-worker run), in the background.
    void startLoad(const QString& target);
    // Several files as one run, in the background.
    void startRun(const QStringList& files, const QString& label);
    // One run of the listed folder (checked in File › Runs).
    void openListedRun(const RunInfo& run);

    TraceLoader* loader_;
    RunLoader* runLoader_;
    LoadStatus* status_;
    RunsMenu* runs_ = nullptr;
};

}  // namespace tracescope
