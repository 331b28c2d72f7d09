// Every page fits a 1280×800 window: on real traces with long kernel, op and scope names, a
// tf.data pipeline and memory events, no page (and no table, graph or text inside it) shows a
// horizontal scroll bar once its result is shown. The timeline is left out: its tracks scroll
// by design.
#include "app/gui/main_window.h"
#include "model/import/import.h"
#include "views/analysis_view.h"

#include <QAbstractScrollArea>
#include <QScrollBar>
#include <QStandardPaths>
#include <QtTest>

using namespace tracescope;

class PagesFitTest : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void noHorizontalScrollAt1280x800_data() {
        QTest::addColumn<QString>("file");
        const QString shared = QStringLiteral(TRACESCOPE_SHARED_DIR "/testdata/");
        QTest::newRow("pytorch h100") << shared + "gpu/torch_mlp_memory_h100.json";
        QTest::newRow("jax h100") << shared + "gpu/jax_mlp_h100.xplane.pb";
        QTest::newRow("tf keras fit") << QStringLiteral(TRACESCOPE_SOURCE_DIR "/tests/data/peers/tf_keras_fit.xplane.pb");
    }

    void noHorizontalScrollAt1280x800() {
        QFETCH(QString, file);
        ImportResult r = importTrace(file.toStdString());
        QVERIFY2(r.ok(), r.error.c_str());
        MainWindow w;
        w.resize(1280, 800);
        w.show();
        w.setTrace(std::shared_ptr<const Trace>(std::move(r.trace)), file);
        QStringList scrolled;
        for (const QString& id : w.viewIds()) {
            if (id == QLatin1String("timeline")) continue;
            QVERIFY(w.showView(id));
            for (AnalysisView* page : w.findChildren<AnalysisView*>()) {
                if (!page->isVisible()) continue;
                using State = AnalysisView::State;
                QVERIFY2(QTest::qWaitFor([page] { return page->state() != State::Queued && page->state() != State::Running; },
                                         60000),
                         qPrintable(id));
                QCoreApplication::processEvents();
                for (QAbstractScrollArea* area : page->findChildren<QAbstractScrollArea*>())
                    if (area->isVisible() && area->horizontalScrollBar()->isVisible())
                        scrolled << QStringLiteral("%1: %2 (%3 px more)")
                                        .arg(id, QString::fromLatin1(area->metaObject()->className()))
                                        .arg(area->horizontalScrollBar()->maximum());
            }
        }
        QVERIFY2(scrolled.isEmpty(), qPrintable(scrolled.join(QStringLiteral("; "))));
    }
};

QTEST_MAIN(PagesFitTest)
#include "tst_pages_fit.moc"
