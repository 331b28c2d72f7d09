#include "app/gui/view_options_menu.h"

#include "views/name_style.h"
#include "views/timeline/counter_style.h"

#include <QAction>
#include <QActionGroup>
#include <QMenu>
#include <QSettings>

#include <optional>
#include <utility>

namespace tracescope {

void addViewOptions(QMenu* view) {
    // Short C++ / kernel names (no return type, namespaces or parameters) in the timeline and tables.
    QAction* shortNames = view->addAction(QObject::tr("&Short Names"));
    shortNames->setCheckable(true);
    shortNames->setToolTip(
        QObject::tr("Show C++ and kernel names without return type, namespaces and parameter list; "
                    "tooltips, Details and CSV keep the full name"));
    const bool shortWanted = QSettings().value(QStringLiteral("view/shortNames"), true).toBool();
    NameStyleSetting::instance().setStyle(shortWanted ? NameStyle::Short : NameStyle::Full);
    shortNames->setChecked(shortWanted);
    QObject::connect(shortNames, &QAction::toggled, view, [](bool on) {
        QSettings().setValue(QStringLiteral("view/shortNames"), on);
        NameStyleSetting::instance().setStyle(on ? NameStyle::Short : NameStyle::Full);
    });
    // Counter tracks as steps or lines: as their data is (model/query/counter_layout.h), or all one way.
    QMenu* counters = view->addMenu(QObject::tr("&Counters"));
    auto* counterGroup = new QActionGroup(counters);
    const QString savedCounters = QSettings().value(QStringLiteral("view/counters"), QStringLiteral("auto")).toString();
    for (const auto& [key, text] :
         {std::pair{"auto", QObject::tr("As the &Data Is (steps for held values, lines for measurements)")},
          std::pair{"step", QObject::tr("All as &Steps")}, std::pair{"line", QObject::tr("All as &Lines")}}) {
        QAction* a = counters->addAction(text);
        a->setCheckable(true);
        counterGroup->addAction(a);
        const QString k = QString::fromLatin1(key);
        auto apply = [k] {
            CounterStyleSetting::instance().setMode(k == QLatin1String("step")   ? std::optional(CounterDrawMode::Step)
                                                    : k == QLatin1String("line") ? std::optional(CounterDrawMode::Line)
                                                                                 : std::nullopt);
        };
        if (k == savedCounters) {
            a->setChecked(true);
            apply();
        }
        QObject::connect(a, &QAction::triggered, counters, [k, apply] {
            QSettings().setValue(QStringLiteral("view/counters"), k);
            apply();
        });
    }
}

}  // namespace tracescope
