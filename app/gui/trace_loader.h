// Loads a trace on a worker thread through importTrace, with progress and cancel.
#pragma once

#include "model/import/import.h"

#include <QFutureWatcher>
#include <QObject>
#include <QString>

#include <atomic>
#include <memory>

namespace tracescope {

class TraceLoader : public QObject {
    Q_OBJECT
public:
    explicit TraceLoader(QObject* parent = nullptr);
    ~TraceLoader() override;

    void start(const QString& path);
    void cancel();
    bool busy() const { return watcher_.isRunning(); }
    QString path() const { return path_; }
    // Bytes done / total so far (polled by the UI; the importer thread writes them).
    double fraction() const;

signals:
    void loaded(std::shared_ptr<const tracescope::Trace> trace, QString path);
    void failed(QString message, QString path);
    void cancelled(QString path);

private:
    struct State {
        std::atomic<bool> cancel{false};
        std::atomic<uint64_t> done{0}, total{0};
    };
    QString path_;
    std::shared_ptr<State> state_;
    QFutureWatcher<std::shared_ptr<ImportResult>> watcher_;
};

}  // namespace tracescope
