#include "views/background_pools.h"

#include <QThread>
#include <QThreadPool>

#include <algorithm>

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

}  // namespace tracescope
