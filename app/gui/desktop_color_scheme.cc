#include "app/gui/desktop_color_scheme.h"

#include <QDBusConnection>
#include <QDBusMessage>
#include <QDBusPendingCallWatcher>
#include <QDBusVariant>
#include <QEventLoop>
#include <QTimer>

namespace tracescope {

namespace {

// The XDG desktop portal's Settings interface (flatpak's xdg-desktop-portal documentation,
// "org.freedesktop.portal.Settings").
const char* const kService = "org.freedesktop.portal.Desktop";
const char* const kPath = "/org/freedesktop/portal/desktop";
const char* const kInterface = "org.freedesktop.portal.Settings";
const char* const kNamespace = "org.freedesktop.appearance";
const char* const kKey = "color-scheme";
// A portal started on demand answers in well under this; past it we stay light.
constexpr int kCallTimeoutMs = 2000;

}  // namespace

ColorSchemePreference parsePortalColorScheme(const QVariant& value) {
    QVariant v = value;
    // Read (portal version 1) answers a variant inside a variant; ReadOne one variant.
    for (int depth = 0; depth < 4 && v.metaType() == QMetaType::fromType<QDBusVariant>(); ++depth)
        v = qvariant_cast<QDBusVariant>(v).variant();
    qlonglong n = -1;
    switch (v.metaType().id()) {
    case QMetaType::UInt:
    case QMetaType::Int:
    case QMetaType::UShort:
    case QMetaType::Short:
    case QMetaType::UChar:
    case QMetaType::ULongLong:
    case QMetaType::LongLong: n = v.toLongLong(); break;
    default: break;  // a string, a bool, nothing at all: not what the portal documents
    }
    if (n == 1) return ColorSchemePreference::Dark;
    if (n == 2) return ColorSchemePreference::Light;
    return ColorSchemePreference::NoPreference;
}

DesktopColorScheme::DesktopColorScheme(QObject* parent) : QObject(parent) {}

void DesktopColorScheme::start() {
    if (started_) return;
    started_ = true;
    QDBusConnection bus = QDBusConnection::sessionBus();
    if (!bus.isConnected()) {  // no session bus (a headless machine, a container): stay light
        finishAnswer();
        return;
    }
    bus.connect(QString::fromLatin1(kService), QString::fromLatin1(kPath), QString::fromLatin1(kInterface),
                QStringLiteral("SettingChanged"), this, SLOT(portalSettingChanged(QString, QString, QDBusVariant)));
    read(QStringLiteral("ReadOne"));
}

void DesktopColorScheme::read(const QString& method) {
    QDBusMessage call = QDBusMessage::createMethodCall(QString::fromLatin1(kService), QString::fromLatin1(kPath),
                                                       QString::fromLatin1(kInterface), method);
    call << QString::fromLatin1(kNamespace) << QString::fromLatin1(kKey);
    auto* watcher = new QDBusPendingCallWatcher(QDBusConnection::sessionBus().asyncCall(call, kCallTimeoutMs), this);
    connect(watcher, &QDBusPendingCallWatcher::finished, this,
            [this, method](QDBusPendingCallWatcher* w) { readFinished(w, method); });
}

void DesktopColorScheme::readFinished(QDBusPendingCallWatcher* call, const QString& method) {
    call->deleteLater();
    const QDBusMessage reply = call->reply();
    if (reply.type() == QDBusMessage::ReplyMessage && !reply.arguments().isEmpty()) {
        setPreference(parsePortalColorScheme(reply.arguments().constFirst()));
    } else if (method == QLatin1String("ReadOne") && call->error().type() == QDBusError::UnknownMethod) {
        read(QStringLiteral("Read"));  // portals older than version 2 only have Read
        return;
    }
    // Any other error (no portal, no such key): no preference, which means light.
    finishAnswer();
}

void DesktopColorScheme::portalSettingChanged(const QString& ns, const QString& key, const QDBusVariant& value) {
    if (ns != QLatin1String(kNamespace) || key != QLatin1String(kKey)) return;
    setPreference(parsePortalColorScheme(QVariant::fromValue(value)));
}

void DesktopColorScheme::setPreference(ColorSchemePreference p) {
    if (p == preference_) return;
    preference_ = p;
    emit preferenceChanged(p);
}

void DesktopColorScheme::finishAnswer() {
    if (answered_) return;
    answered_ = true;
    emit answerArrived();
}

bool DesktopColorScheme::waitForAnswer(int ms) {
    if (answered_ || !started_) return answered_;
    QEventLoop loop;
    connect(this, &DesktopColorScheme::answerArrived, &loop, &QEventLoop::quit);
    QTimer::singleShot(ms, &loop, &QEventLoop::quit);
    loop.exec(QEventLoop::ExcludeUserInputEvents);
    return answered_;
}

}  // namespace tracescope
