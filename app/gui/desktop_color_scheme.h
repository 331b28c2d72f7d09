// The desktop's light/dark preference, as the XDG desktop portal publishes it (the
// Settings interface's `org.freedesktop.appearance` / `color-scheme` key; GNOME, KDE Plasma
// and others answer it). Qt 6.4 has no QStyleHints::colorScheme, so we ask the portal over
// D-Bus ourselves, and follow its SettingChanged signal so a change applies live.
#pragma once

#include <QObject>
#include <QString>

class QDBusPendingCallWatcher;
class QDBusVariant;
class QVariant;

namespace tracescope {

// The portal's values: 0 no preference, 1 prefer dark, 2 prefer light.
enum class ColorSchemePreference { NoPreference = 0, Dark = 1, Light = 2 };

// The preference a portal value stands for: an unsigned (or signed) integer, possibly wrapped
// in D-Bus variants (the older Read method wraps it twice, ReadOne once). A missing value,
// another type or an unknown number is "no preference".
ColorSchemePreference parsePortalColorScheme(const QVariant& value);

class DesktopColorScheme : public QObject {
    Q_OBJECT
public:
    explicit DesktopColorScheme(QObject* parent = nullptr);

    // What the desktop prefers, as last heard (no preference until the portal answers, and
    // for good when there is no session bus or no portal).
    ColorSchemePreference preference() const { return preference_; }
    // Asks the portal (asynchronously) and subscribes to its changes; once only.
    void start();
    // True once the portal has answered or failed (or there is no session bus).
    bool answered() const { return answered_; }
    // Waits, running events, until the portal answered or `ms` passed (at start-up, so the
    // first frame has the desktop's colours). Returns answered().
    bool waitForAnswer(int ms);

public slots:
    // The portal's SettingChanged(namespace, key, value) signal (public for tests).
    void portalSettingChanged(const QString& ns, const QString& key, const QDBusVariant& value);

signals:
    void preferenceChanged(tracescope::ColorSchemePreference preference);
    // The first answer (or failure) of the portal arrived.
    void answerArrived();

private:
    void read(const QString& method);
    void readFinished(QDBusPendingCallWatcher* call, const QString& method);
    void setPreference(ColorSchemePreference p);
    void finishAnswer();

    ColorSchemePreference preference_ = ColorSchemePreference::NoPreference;
    bool started_ = false;
    bool answered_ = false;
};

}  // namespace tracescope
