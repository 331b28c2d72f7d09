#include "app/gui/single_instance.h"

#include "app/gui/main_window.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLocalServer>
#include <QLocalSocket>
#include <QSettings>

#include <unistd.h>

namespace tracescope {

namespace {

// A hand-over is one line of JSON ({"paths": [...]}) answered by "ok\n"; a line longer than
// this is not one (a stray client): the connection is dropped.
constexpr qint64 kMaxMessageBytes = 1 << 20;

const char* kHandOffKey = "filesFromOtherLaunches";

}  // namespace

HandOffTarget handOffTarget() {
    return QSettings().value(QLatin1String(kHandOffKey)).toString() == QLatin1String("this-window")
               ? HandOffTarget::ThisWindow
               : HandOffTarget::NewWindow;
}

void setHandOffTarget(HandOffTarget target) {
    QSettings().setValue(QLatin1String(kHandOffKey), target == HandOffTarget::ThisWindow ? QStringLiteral("this-window")
                                                                                        : QStringLiteral("new-window"));
}

MainWindow* openHandedOver(MainWindow& window, const QStringList& paths) {
    MainWindow* target = &window;
    if (handOffTarget() == HandOffTarget::NewWindow && (window.trace() || window.loading())) {
        target = new MainWindow;
        target->setAttribute(Qt::WA_DeleteOnClose);
        target->resize(window.size());
        target->show();
    }
    if (paths.size() > 1) target->openPaths(paths);  // several files: the workers of one run
    else if (!paths.isEmpty()) target->openPath(paths.front());
    target->raise();
    target->activateWindow();
    return target;
}

QString InstanceServer::defaultName() {
    const QString override = qEnvironmentVariable("TRACESCOPE_INSTANCE_NAME");
    return override.isEmpty() ? QStringLiteral("tracescope-%1").arg(::getuid()) : override;
}

bool InstanceServer::sendToRunning(const QStringList& paths, const QString& name, int timeoutMs) {
    QLocalSocket socket;
    socket.connectToServer(name);
    if (!socket.waitForConnected(timeoutMs)) return false;
    QJsonArray absolute;
    for (const QString& p : paths) absolute.append(QFileInfo(p).absoluteFilePath());
    const QByteArray line = QJsonDocument(QJsonObject{{QStringLiteral("paths"), absolute}}).toJson(QJsonDocument::Compact) + '\n';
    socket.write(line);
    if (!socket.waitForBytesWritten(timeoutMs)) return false;
    while (!socket.canReadLine())
        if (!socket.waitForReadyRead(timeoutMs)) return false;
    return socket.readLine().trimmed() == "ok";
}

InstanceServer::InstanceServer(QObject* parent) : QObject(parent), server_(new QLocalServer(this)) {
    server_->setSocketOptions(QLocalServer::UserAccessOption);  // this user's launches only
    connect(server_, &QLocalServer::newConnection, this, &InstanceServer::accept);
}

bool InstanceServer::listen(const QString& name) {
    if (server_->listen(name)) return true;
    // A socket file left by a viewer that died: nobody answers on it (sendToRunning failed).
    QLocalServer::removeServer(name);
    return server_->listen(name);
}

void InstanceServer::accept() {
    while (QLocalSocket* socket = server_->nextPendingConnection()) {
        connect(socket, &QLocalSocket::disconnected, socket, &QObject::deleteLater);
        connect(socket, &QLocalSocket::readyRead, this, [this, socket] {
            if (!socket->canReadLine()) {
                if (socket->bytesAvailable() > kMaxMessageBytes) socket->abort();
                return;
            }
            const QJsonDocument doc = QJsonDocument::fromJson(socket->readLine());
            QStringList paths;
            for (const QJsonValue& v : doc.object().value(QStringLiteral("paths")).toArray())
                if (v.isString() && QDir::isAbsolutePath(v.toString())) paths << v.toString();
            socket->write(paths.isEmpty() ? "refused\n" : "ok\n");
            socket->flush();
            socket->disconnectFromServer();
            if (!paths.isEmpty()) emit pathsReceived(paths);
        });
    }
}

}  // namespace tracescope
