#include "views/background_pools.h"

#include <QThread>
#include <QThreadPool>

#include <algorithm>

#ifdef __linux__
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

namespace tracescope {

namespace {

QThreadPool* makePool(const char* name) {
    auto* pool = new QThreadPool;  // lives until exit: jobs may still finish while the app quits
    pool->setObjectName(QString::fromLatin1(name));
    pool->setMaxThreadCount(std::max(2, QThread::idealThreadCount()));
    return pool;
}

}  // namespace

QThreadPool* analysisPool() {
    static QThreadPool* pool = makePool("analysis");
    return pool;
}

QThreadPool* interactivePool() {
    static QThreadPool* pool = makePool("interactive");
    return pool;
}

void yieldToTheUi() {
#ifdef __linux__
    // Per thread on Linux (QThread priorities do not apply to SCHED_OTHER threads).
    thread_local bool lowered = false;
    if (lowered) return;
    lowered = true;
    setpriority(PRIO_PROCESS, id_t(syscall(SYS_gettid)), 10);
#endif
}

}  // namespace tracescope
