// Loads a trace on a worker thread through importTrace, with progress and cancel. A large
// Chrome JSON file is previewed meanwhile (model/import/import_preview): the traces of its
// first 16 MiB, 128 MiB… of events arrive through previewReady while the whole imports.
#pragma once

#include "model/import/import.h"
#include "model/import/import_preview.h"

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

    // Previews are off for the Compare page's second trace and for tests that want one result.
    void setPreviews(bool enabled) { previews_ = enabled; }
    // The first preview's bytes of event text (16 MiB; tests use small files).
    void setPreviewStart(quint64 bytes) { previewStart_ = bytes; }
    void start(const QString& path);
    void cancel();
    bool busy() const { return watcher_.isRunning(); }
    QString path() const { return path_; }
    // Bytes done / total so far (polled by the UI; the importer thread writes them).
    double fraction() const;

signals:
    void loaded(std::shared_ptr<const tracescope::Trace> trace, QString path);
    // A part of the file being loaded (its first `textBytes` of events), before loaded().
    void previewReady(std::shared_ptr<const tracescope::Trace> trace, QString path, quint64 textBytes);
    void failed(QString message, QString path);
    void cancelled(QString path);

private:
    struct State {
        std::atomic<bool> cancel{false};
        std::atomic<bool> finished{false};      // the whole import ended
        std::atomic<bool> stopPreviews{false};  // ended or cancelled: a preview reading stops
        std::atomic<uint64_t> done{0}, total{0};
    };
    QString path_;
    bool previews_ = true;
    quint64 previewStart_ = kFirstPreviewBytes;
    std::shared_ptr<State> state_;
    void startPreviews();
    QFutureWatcher<std::shared_ptr<ImportResult>> watcher_;
    QFuture<void> previewJob_;  // the previews of the current start(), read in turn
};

}  // namespace tracescope
