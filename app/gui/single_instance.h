// One viewer per user session, as a file manager expects: `tracescope FILE` while a viewer runs
// hands FILE to it (a local socket named per user) and exits; the running viewer opens it in a
// new window or its own, as File > Open From Other Launches says. --new-instance skips this.
#pragma once

#include <QObject>
#include <QString>
#include <QStringList>

class QLocalServer;

namespace tracescope {

// Where files handed over by another launch open (File > Files From Other Launches).
enum class HandOffTarget { NewWindow, ThisWindow };
HandOffTarget handOffTarget();
void setHandOffTarget(HandOffTarget target);

class MainWindow;

// Opens paths another launch handed over: in `window` when it is empty or the setting says so,
// else in a new window (deleted when closed). Returns the window that opens them.
MainWindow* openHandedOver(MainWindow& window, const QStringList& paths);

class InstanceServer : public QObject {
    Q_OBJECT
public:
    // The socket's name for this user (TRACESCOPE_INSTANCE_NAME overrides it: tests).
    static QString defaultName();
    // Hands `paths` (made absolute here) to the viewer listening on `name`; true when it took
    // them. False at once when none listens.
    static bool sendToRunning(const QStringList& paths, const QString& name = defaultName(), int timeoutMs = 3000);

    explicit InstanceServer(QObject* parent = nullptr);
    // Listens on `name` (a stale socket of a viewer that died is replaced); false if it cannot.
    bool listen(const QString& name = defaultName());

signals:
    // Paths another launch handed over (absolute), in the order given.
    void pathsReceived(QStringList paths);

private:
    QLocalServer* server_;
    void accept();
};

}  // namespace tracescope
