#include "app/gui/not_one_job_dialog.h"

#include <QMessageBox>
#include <QPushButton>

namespace tracescope {

namespace {
const char* kChoice = "choice";
}

QMessageBox* notOneJobBox(QWidget* parent, const QString& reason, int files) {
    auto* box = new QMessageBox(parent);
    box->setIcon(QMessageBox::Question);
    box->setWindowTitle(QObject::tr("Not one job"));
    box->setText(QObject::tr("<b>These %1 files are not one job.</b>").arg(files));
    QString said = reason;  // "different jobs: …" as a sentence
    if (!said.isEmpty()) said[0] = said[0].toUpper();
    box->setInformativeText(
        QObject::tr("%1.<br><br>Merged, they would share one timeline and clock as if they ran together.")
            .arg(said.toHtmlEscaped()));
    auto add = [box](const QString& text, QMessageBox::ButtonRole role, NotOneJobChoice choice, const QString& tip) {
        QPushButton* b = box->addButton(text, role);
        b->setProperty(kChoice, int(choice));
        b->setToolTip(tip);
        return b;
    };
    QPushButton* first = nullptr;
    if (files <= kMaxSeparateWindows)
        first = add(QObject::tr("Open Separately"), QMessageBox::AcceptRole, NotOneJobChoice::Separately,
                    QObject::tr("Each file in a window of its own"));
    if (files == 2) {
        QPushButton* compare =
            add(QObject::tr("Compare"), QMessageBox::AcceptRole, NotOneJobChoice::Compare,
                QObject::tr("Open the first file and compare it with the second (the Compare page)"));
        if (!first) first = compare;
    }
    QPushButton* merge = add(QObject::tr("Merge Anyway"), QMessageBox::DestructiveRole, NotOneJobChoice::Merge,
                             QObject::tr("One run of %1 workers on the files' clocks, with a warning").arg(files));
    add(QObject::tr("Cancel"), QMessageBox::RejectRole, NotOneJobChoice::Cancel, {});
    box->setDefaultButton(first ? first : merge);
    for (QAbstractButton* b : box->buttons())
        if (b->property(kChoice).toInt() == int(NotOneJobChoice::Cancel)) box->setEscapeButton(b);
    return box;
}

NotOneJobChoice askNotOneJob(QWidget* parent, const QString& reason, int files) {
    QMessageBox* box = notOneJobBox(parent, reason, files);
    box->exec();
    QAbstractButton* clicked = box->clickedButton();
    const NotOneJobChoice choice =
        clicked ? NotOneJobChoice(clicked->property(kChoice).toInt()) : NotOneJobChoice::Cancel;
    box->deleteLater();
    return choice;
}

}  // namespace tracescope
