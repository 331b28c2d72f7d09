// Colours SQL as the Query page's editor shows it: keywords, functions, strings, numbers and
// comments (-- to the end of the line, /* ... */ across lines), in the theme's colours.
#pragma once

#include <QRegularExpression>
#include <QSyntaxHighlighter>
#include <QTextCharFormat>

namespace tracescope {

class SqlHighlighter : public QSyntaxHighlighter {
    Q_OBJECT
public:
    explicit SqlHighlighter(QTextDocument* document);
    // Picks the colours again (the theme changed).
    void updateColors();

protected:
    void highlightBlock(const QString& text) override;

private:
    QRegularExpression keyword_, function_, number_;
    QTextCharFormat keywordFormat_, functionFormat_, stringFormat_, numberFormat_, commentFormat_;
};

}  // namespace tracescope
