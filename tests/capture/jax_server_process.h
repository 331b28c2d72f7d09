// A real JAX profiler server (tests/capture/jax_profiler_server.py) run by the peers'
// Python (tests/peers/setup.sh BUILD makes BUILD/peers-venv; TRACESCOPE_PEERS_PYTHON
// overrides it), for the capture tests against a real peer.
#pragma once

#include <QElapsedTimer>
#include <QFileInfo>
#include <QProcess>
#include <QString>

#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>

namespace tracescope::capture::testing {

constexpr int kSkipExitCode = 77;  // CTest's SKIP_RETURN_CODE for these tests

inline QString peersPython() {
    const char* env = std::getenv("TRACESCOPE_PEERS_PYTHON");
    return QString::fromLocal8Bit(env && *env ? env : TRACESCOPE_PEERS_PYTHON);
}

inline bool pythonHasJax(const QString& python) {
    if (!QFileInfo(python).isExecutable()) return false;
    QProcess p;
    p.start(python, {"-c", "import jax"});
    return p.waitForFinished(60000) && p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0;
}

// 0 when no Python with JAX: the caller exits with kSkipExitCode, or 1 under CI=true,
// since CI must make that environment (as the other peer tests do).
inline int skipWithoutJax() {
    if (pythonHasJax(peersPython())) return 0;
    const bool ci = qEnvironmentVariable("CI") == QLatin1String("true");
    std::fprintf(stderr, "%s: no Python with JAX at %s (run tests/peers/setup.sh BUILD, or set "
                         "TRACESCOPE_PEERS_PYTHON)\n", ci ? "FAIL (CI=true)" : "skipped", qPrintable(peersPython()));
    return ci ? 1 : kSkipExitCode;
}

inline int freePort() {
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof addr;
    int port = 0;
    if (::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0 &&
        ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) == 0)
        port = ntohs(addr.sin_port);
    ::close(fd);
    return port;
}

// Starts the server on `port` for `seconds` and waits until it listens; the server's
// output so far (for a failure message) goes to `output`.
inline bool startJaxServer(QProcess& server, int port, int seconds, QByteArray& output) {
    server.setProcessChannelMode(QProcess::MergedChannels);
    server.start(peersPython(), {QStringLiteral(TRACESCOPE_SOURCE_DIR "/tests/capture/jax_profiler_server.py"),
                                 QString::number(port), QString::number(seconds)});
    if (!server.waitForStarted()) return false;
    QElapsedTimer wait;
    wait.start();
    while (!output.contains("READY") && wait.elapsed() < 90000 && server.state() == QProcess::Running) {
        server.waitForReadyRead(1000);
        output += server.readAll();
    }
    return output.contains("READY");
}

}  // namespace tracescope::capture::testing
