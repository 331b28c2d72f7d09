// Help › User Guide: the Markdown guide of resources/guide/, compiled into the viewer (":/guide"),
// shown offline with its pictures (the dark theme's pictures in the dark theme, scaled to the
// window), its links between chapters, and Back, Forward and Contents.
#pragma once

#include <QDialog>
#include <QTextBrowser>

namespace tracescope {

class GuideBrowser : public QTextBrowser {
    Q_OBJECT
public:
    explicit GuideBrowser(QWidget* parent = nullptr);
    // Pictures: "NAME-light.png" becomes "NAME-dark.png" in the dark theme, and wide ones are
    // scaled to the page's width.
    QVariant loadResource(int type, const QUrl& name) override;
};

class GuideWindow : public QDialog {
    Q_OBJECT
public:
    // False when the viewer was built without the guide's resources.
    static bool available();
    explicit GuideWindow(QWidget* parent = nullptr);
    GuideBrowser* browser() const { return browser_; }
    // A chapter by file name ("timeline.md"); the contents page when empty.
    void showChapter(const QString& file = {});

private:
    GuideBrowser* browser_;
};

}  // namespace tracescope
