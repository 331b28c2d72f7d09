// The main window's status bar: what is open (file name and trace summary, a link to its import
// warnings) and what is loading (progress, Cancel, and for several files a "Files" popup with
// each file's share and state). It reads the progress of the two loaders it is given.
#pragma once

#include <QObject>
#include <QString>

class QLabel;
class QProgressBar;
class QPushButton;
class QStatusBar;
class QTimer;
class QToolButton;

namespace tracescope {

struct Trace;
class LoadProgressList;
class RunLoader;
class TraceLoader;

class LoadStatus : public QObject {
    Q_OBJECT
public:
    LoadStatus(QStatusBar* bar, TraceLoader* loader, RunLoader* runLoader);

    // "Loading <what> …" (or `text` as it is, e.g. "Merging …"), progress shown and updated.
    void startLoading(const QString& what);
    void showText(const QString& text);
    // Loading ended (loaded, failed or cancelled): progress and Cancel go away.
    void stopLoading();
    // A part of the file shown while nothing loads (--screenshot --preview): the bar shows
    // its share of the file.
    void showFixedProgress(double fraction);
    // The open trace's name and summary and its import warnings; nothing when `trace` is null.
    void showTrace(const Trace* trace, const QString& path);
    // The summary and warnings go, the file label stays (a preview of another file shows).
    void clearSummary();
    // A run with no one file: its name (HTML) in place of the file name.
    void setFileText(const QString& html);
    // The per-file list of a multi-file load (in the "Files" popup).
    LoadProgressList* fileList() const { return fileList_; }

signals:
    // The status bar's import-warnings link was clicked.
    void warningsRequested();
    // Every 50 ms while loading: the share of the bytes read (0 until the importer reports).
    void progressed(double fraction);

private:
    void updateFileList();
    TraceLoader* loader_;
    RunLoader* runLoader_;
    QLabel* fileLabel_;
    QLabel* summaryLabel_;
    QLabel* warningLabel_;
    QProgressBar* progress_;
    QPushButton* cancel_;
    QToolButton* filesButton_;
    LoadProgressList* fileList_;
    QTimer* timer_;
};

}  // namespace tracescope
