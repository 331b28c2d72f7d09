// Runs the built tracescope-cli (TRACESCOPE_CLI) with arguments and collects its exit code and
// output, for the CLI tests. A run that does not end within a minute is killed: exit code -1,
// as for a crash.
#pragma once

#include <QProcess>
#include <QStringList>

#include <string>

struct CliRun {
    int exitCode = -1;
    std::string out, err;
};

inline CliRun runCli(const QStringList& args) {
    QProcess p;
    p.start(QStringLiteral(TRACESCOPE_CLI), args);
    CliRun r;
    if (!p.waitForFinished(60000)) {
        p.kill();
        p.waitForFinished(5000);
        return r;
    }
    r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r.out = p.readAllStandardOutput().toStdString();
    r.err = p.readAllStandardError().toStdString();
    return r;
}
