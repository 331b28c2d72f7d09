#include "app/gui/settings_guard.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSettings>
#include <QStandardPaths>
#include <QStringDecoder>
#include <QTemporaryDir>

#include <sys/stat.h>

#include <memory>

namespace tracescope {
namespace {

// Where QSettings keeps the user's settings on Unix (qsettings.cpp: the generic config
// location, then <organization>/<application>.conf).
QString defaultSettingsPath(const QString& configDir) {
    const QString org = QCoreApplication::organizationName().isEmpty() ? QStringLiteral("Unknown Organization")
                                                                       : QCoreApplication::organizationName();
    return configDir + QLatin1Char('/') + org + QLatin1Char('/') + QCoreApplication::applicationName() +
           QStringLiteral(".conf");
}

// Real settings files are a few KB.
constexpr qint64 kMaxSettingsBytes = 16 << 20;

const char* specialKind(const QString& path) {
    struct stat st {};
    if (::stat(QFile::encodeName(path).constData(), &st) != 0) return nullptr;  // absent: created on save
    if (S_ISDIR(st.st_mode)) return "a folder";
    if (S_ISFIFO(st.st_mode)) return "a FIFO";
    if (S_ISSOCK(st.st_mode)) return "a socket";
    if (!S_ISREG(st.st_mode)) return "a device";
    return nullptr;
}

// A settings file Qt would misread: not UTF-8 text (binary junk parses as keys of junk),
// absurdly large, or text Qt's INI reader rejects (checked on a copy, so that Qt's cache of
// the real file never holds it).
bool isDamaged(const QByteArray& bytes, qint64 size) {
    if (size > kMaxSettingsBytes || bytes.contains('\0')) return true;
    QStringDecoder utf8(QStringDecoder::Utf8);
    (void)QString(utf8(bytes));
    if (utf8.hasError()) return true;
    QTemporaryDir dir;
    const QString copy = dir.filePath(QStringLiteral("check.conf"));
    QFile out(copy);
    if (!dir.isValid() || !out.open(QIODevice::WriteOnly) || out.write(bytes) != bytes.size()) return false;
    out.close();
    return QSettings(copy, QSettings::IniFormat).status() == QSettings::FormatError;
}

// Settings for this session only, in a temporary folder (kept until the program ends).
void useSessionSettings() {
    static std::unique_ptr<QTemporaryDir> session;
    session = std::make_unique<QTemporaryDir>();
    QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, session->path());
    QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, session->path());
}

}  // namespace

QString guardSettingsFile() {
    const QString configDir = QStandardPaths::writableLocation(QStandardPaths::GenericConfigLocation);
    QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, configDir);
    QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, configDir);
    const QString path = defaultSettingsPath(configDir);
    const QString shown = QDir::toNativeSeparators(path);
    if (const char* kind = specialKind(path)) {
        useSessionSettings();
        return QCoreApplication::translate("Settings",
                                           "The settings file %1 is %2, not a file: it was not opened. Default "
                                           "settings are used, and changes are not kept after this session.")
            .arg(shown, QString::fromLatin1(kind));
    }
    QFile file(path);
    if (!file.exists()) return {};
    if (!file.open(QIODevice::ReadOnly)) {
        useSessionSettings();
        return QCoreApplication::translate("Settings",
                                           "The settings file %1 cannot be read (%2): default settings are used, "
                                           "and changes are not kept after this session.")
            .arg(shown, file.errorString());
    }
    const qint64 size = file.size();
    const QByteArray bytes = file.read(kMaxSettingsBytes + 1);
    file.close();
    if (!isDamaged(bytes, size)) return {};
    // Kept for the user to look at; a fresh file is written when settings change.
    const QString aside = path + QStringLiteral(".damaged");
    QFile::remove(aside);
    if (!QFile::rename(path, aside)) {
        useSessionSettings();
        return QCoreApplication::translate("Settings",
                                           "The settings file %1 is damaged and was ignored: default settings are "
                                           "used, and changes are not kept after this session.")
            .arg(shown);
    }
    return QCoreApplication::translate("Settings",
                                       "The settings file %1 is damaged and was ignored: it was moved to %2, and "
                                       "default settings are used.")
        .arg(shown, QDir::toNativeSeparators(aside));
}

}  // namespace tracescope
