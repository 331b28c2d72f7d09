#include "views/query/sql_highlighter.h"

#include <QApplication>
#include <QPalette>

namespace tracescope {

namespace {

// SQLite's keywords users write most, and the functions they call (not the whole grammar).
const char* kKeywords =
    "select|from|where|group|by|order|having|limit|offset|as|and|or|not|in|is|null|like|glob|between|join|left|"
    "inner|outer|cross|on|using|union|all|intersect|except|distinct|case|when|then|else|end|with|recursive|asc|"
    "desc|create|temp|temporary|table|view|index|drop|insert|into|values|update|set|delete|exists|cast|over|"
    "partition|window|filter|explain|query|plan|integer|real|text|true|false|collate|nocase|escape";
const char* kFunctions =
    "count|sum|total|avg|min|max|group_concat|abs|round|length|lower|upper|substr|instr|replace|trim|coalesce|"
    "ifnull|nullif|iif|printf|format|extract_arg|row_number|rank|dense_rank|lag|lead|first_value|last_value|"
    "ntile|percent_rank|cume_dist|json_extract|typeof|hex|date|time|datetime|strftime|unixepoch|random";

}  // namespace

SqlHighlighter::SqlHighlighter(QTextDocument* document)
    : QSyntaxHighlighter(document),
      keyword_(QStringLiteral("\\b(%1)\\b").arg(QLatin1String(kKeywords)),
               QRegularExpression::CaseInsensitiveOption),
      function_(QStringLiteral("\\b(%1)\\s*(?=\\()").arg(QLatin1String(kFunctions)),
                QRegularExpression::CaseInsensitiveOption),
      number_(QStringLiteral("\\b\\d+(\\.\\d*)?([eE][-+]?\\d+)?\\b")) {
    updateColors();
}

void SqlHighlighter::updateColors() {
    // Readable on both themes: the palette's link colour for keywords, its mid tones for
    // comments; strings and numbers in hues that keep their contrast on dark and light bases.
    const QPalette p = QApplication::palette();
    const bool dark = p.color(QPalette::Base).lightness() < 128;
    keywordFormat_.setForeground(p.color(QPalette::Link));
    keywordFormat_.setFontWeight(QFont::Bold);
    functionFormat_.setForeground(dark ? QColor(0xd7, 0xa8, 0xff) : QColor(0x80, 0x30, 0xa0));
    stringFormat_.setForeground(dark ? QColor(0x9c, 0xdc, 0x7c) : QColor(0x1d, 0x7a, 0x1d));
    numberFormat_.setForeground(dark ? QColor(0xf0, 0xb0, 0x70) : QColor(0xa0, 0x50, 0x00));
    commentFormat_.setForeground(p.color(QPalette::PlaceholderText));
    commentFormat_.setFontItalic(true);
    rehighlight();
}

void SqlHighlighter::highlightBlock(const QString& text) {
    for (auto it = keyword_.globalMatch(text); it.hasNext();) {
        const auto m = it.next();
        setFormat(int(m.capturedStart()), int(m.capturedLength()), keywordFormat_);
    }
    for (auto it = function_.globalMatch(text); it.hasNext();) {
        const auto m = it.next();
        setFormat(int(m.capturedStart(1)), int(m.capturedLength(1)), functionFormat_);
    }
    for (auto it = number_.globalMatch(text); it.hasNext();) {
        const auto m = it.next();
        setFormat(int(m.capturedStart()), int(m.capturedLength()), numberFormat_);
    }
    // Strings and comments last: what they hold is not keywords. State 1: inside /* ... */.
    int i = 0;
    if (previousBlockState() == 1) {
        const int end = int(text.indexOf(QLatin1String("*/")));
        const int stop = end < 0 ? int(text.size()) : end + 2;
        setFormat(0, stop, commentFormat_);
        i = stop;
        if (end < 0) {
            setCurrentBlockState(1);
            return;
        }
    }
    setCurrentBlockState(0);
    while (i < text.size()) {
        const QChar c = text[i];
        if (c == QLatin1Char('\'') || c == QLatin1Char('"')) {
            int j = i + 1;
            while (j < text.size() && !(text[j] == c && (j + 1 >= text.size() || text[j + 1] != c))) j += text[j] == c ? 2 : 1;
            setFormat(i, std::min(int(text.size()), j + 1) - i, stringFormat_);
            i = j + 1;
        } else if (text.mid(i, 2) == QLatin1String("--")) {
            setFormat(i, int(text.size()) - i, commentFormat_);
            return;
        } else if (text.mid(i, 2) == QLatin1String("/*")) {
            const int end = int(text.indexOf(QLatin1String("*/"), i + 2));
            if (end < 0) {
                setFormat(i, int(text.size()) - i, commentFormat_);
                setCurrentBlockState(1);
                return;
            }
            setFormat(i, end + 2 - i, commentFormat_);
            i = end + 2;
        } else {
            ++i;
        }
    }
}

}  // namespace tracescope
