#include "app/gui/help_menu.h"

#include "app/gui/guide_window.h"
#include "app/gui/help_texts.h"
#include "app/gui/whats_this.h"
#include "views/timeline/timeline_menu.h"
#include "views/timeline/timeline_view.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QDialog>
#include <QDialogButtonBox>
#include <QGuiApplication>
#include <QHeaderView>
#include <QLabel>
#include <QMainWindow>
#include <QMenuBar>
#include <QMessageBox>
#include <QTableWidget>
#include <QVBoxLayout>
#include <QWhatsThis>

#include <utility>

namespace tracescope {

void addHelpMenu(QMainWindow* window, TimelineView* timeline, std::function<QString()> report) {
    QMenu* help = window->menuBar()->addMenu(QObject::tr("&Help"));
    QAction* guide = help->addAction(QObject::tr("&User Guide"), window, [window] {
        auto* guideWindow = new GuideWindow(window);
        guideWindow->setAttribute(Qt::WA_DeleteOnClose);
        guideWindow->show();
    });
    guide->setShortcut(QKeySequence::HelpContents);
    guide->setEnabled(GuideWindow::available());
    QAction* controls = help->addAction(QObject::tr("&Timeline Controls\t?"), window, [window] {
        QMessageBox::information(window, QObject::tr("Timeline controls"), timelineControlsText());
    });
    timeline->setControlsAction(controls);  // '?' on the timeline
    help->addAction(QObject::tr("&Keyboard Shortcuts…"), window,
                    [window] { showShortcutsDialog(window, *window->menuBar()); });
    // What's This (Shift+F1), then a click on a figure: its definition (a tooltip's text, or a
    // table column's meaning).
    QAction* whatsThis = QWhatsThis::createAction(help);
    whatsThis->setText(QObject::tr("&What's This?"));
    help->addAction(whatsThis);
    if (!qApp->findChild<WhatsThisFromToolTip*>(QString(), Qt::FindDirectChildrenOnly))  // one per application
        qApp->installEventFilter(new WhatsThisFromToolTip(qApp));
    help->addAction(QObject::tr("&Report a Problem…"), window, [window, report = std::move(report)] {
        const QString text = report();
        QGuiApplication::clipboard()->setText(text);
        QMessageBox::information(
            window, QObject::tr("Report a problem"),
            QObject::tr("<p>Copied to the clipboard, for your report:</p><pre>%1</pre>").arg(text.toHtmlEscaped()));
    });
    help->addSeparator();
    help->addAction(QObject::tr("&About TraceScope"), window, [window] {
        QMessageBox::about(window, QObject::tr("About TraceScope"),
                           QObject::tr("<b>TraceScope %1</b><br>A desktop viewer for ML profiles: XSpace (.xplane.pb), "
                                       "Chrome trace JSON and TF1 RunMetadata.")
                               .arg(QApplication::applicationVersion()));
    });
}

void showShortcutsDialog(QWidget* parent, const QMenuBar& bar) {
    auto* dialog = new QDialog(parent);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setWindowTitle(QObject::tr("Keyboard shortcuts"));
    auto* layout = new QVBoxLayout(dialog);
    const std::vector<ShortcutRow> rows = shortcutRows(bar);
    auto* table = new QTableWidget(int(rows.size()), 3, dialog);
    table->setObjectName(QStringLiteral("shortcutsTable"));
    table->setHorizontalHeaderLabels({QObject::tr("Menu"), QObject::tr("Command"), QObject::tr("Keys")});
    for (int r = 0; r < int(rows.size()); ++r) {
        const ShortcutRow& row = rows[size_t(r)];
        int c = 0;
        for (const QString& text : {row.menu, row.command, row.keys}) table->setItem(r, c++, new QTableWidgetItem(text));
    }
    table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table->verticalHeader()->hide();
    table->horizontalHeader()->setStretchLastSection(true);
    table->resizeColumnsToContents();
    layout->addWidget(table);
    layout->addWidget(new QLabel(
        QObject::tr("On the timeline itself (zoom, pan, select, bookmarks): Help › Timeline Controls, or ? there."),
        dialog));
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, dialog);
    QObject::connect(buttons, &QDialogButtonBox::rejected, dialog, &QDialog::reject);
    layout->addWidget(buttons);
    dialog->resize(640, 520);
    dialog->show();
}

}  // namespace tracescope
