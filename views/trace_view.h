// The interface every analysis view implements, so the main window can host it
// as a tab and wire cross-navigation without knowing the view.
#pragma once

#include "model/trace/trace.h"

#include <QStringList>
#include <QWidget>

#include <memory>
#include <vector>

namespace tracescope {

class StepMarkerChoice;
class TraceSelection;

class TraceView : public QWidget {
    Q_OBJECT
public:
    using QWidget::QWidget;
    // Called with the loaded trace (or nullptr when closed). Heavy work must not block the UI thread.
    virtual void setTrace(std::shared_ptr<const Trace> trace) = 0;
    // The shared selection the main window owns; views listen and publish through it.
    virtual void setSelection(TraceSelection* selection) { selection_ = selection; }
    // The step marker the user picked, shared by the step-based pages (the main window owns it).
    virtual void setStepMarkerChoice(StepMarkerChoice*) {}
    // The view's parts (tabs) that --view names on their own ("roofline" of the XLA Ops page),
    // and showing one; false for an id the view does not have.
    virtual QStringList partIds() const { return {}; }
    virtual bool showPart(const QString&) { return false; }

protected:
    TraceSelection* selection_ = nullptr;
};

}  // namespace tracescope
