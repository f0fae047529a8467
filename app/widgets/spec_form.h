// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#pragma once

#include "core/plan.h"
#include "core/plan_spec.h"

#include <QHash>
#include <QString>
#include <QWidget>

#include <memory>
#include <vector>

class QAction;
class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QFormLayout;
class QGroupBox;
class QLabel;
class QLineEdit;
class QSpinBox;
class QToolButton;
class QUndoStack;
class QVBoxLayout;

namespace railyard::app {

class PlanController;
class SpecEditCommand;

/// The plan specification (interfaces.md §1) as a form. Every valid edit re-plans through the
/// controller and goes on an undo stack; a value the planner refuses is marked at its field
/// with the reason, and so is a value the form can reject itself (then nothing is re-planned).
class SpecForm : public QWidget {
    Q_OBJECT
public:
    explicit SpecForm(PlanController& controller, QWidget* parent = nullptr);
    ~SpecForm() override;

    /// Shows `spec` in the fields (no re-plan) and clears the marks the form made itself.
    void showSpec(const core::PlanSpec& spec);
    /// Moves the focus to the field behind a spec field path ("nodes", "link.width", ...),
    /// expanding and scrolling to it when needed.
    void focusField(const QString& specField);
    /// The widget that edits a spec field path, or nullptr (tests and highlighting).
    /// Accepts aliases ("gpus", "grow_to", "oversubscription", "link") and list items ("lossless.pfc_priority[1]").
    QWidget* fieldWidget(const QString& specField) const;
    /// Why the field is marked ("" when it is not): an input error, or an error finding.
    QString fieldProblem(const QString& specField) const;

    /// Edit history of the spec; undo and redo re-plan.
    QUndoStack* undoStack() const { return m_undo; }
    /// Actions for an Edit menu, with the platform's Undo/Redo shortcuts.
    QAction* undoAction() const { return m_undoAction; }
    QAction* redoAction() const { return m_redoAction; }

signals:
    /// The user changed the spec (after the controller has it).
    void specEdited(const core::PlanSpec& spec);

private:
    friend class SpecEditCommand;

    /// One spec field: its editor, row label and inline reason label.
    struct Field {
        QString path;
        QWidget* editor = nullptr;
        QLabel* label = nullptr;
        QLabel* reason = nullptr;
        QWidget* row = nullptr;
        QFormLayout* form = nullptr;
        QString tip;
        int mergeId = -1;
    };
    enum class Mark { None, Finding, Error };

    // spec_form_build.cpp
    void build();
    void buildCluster(QVBoxLayout* column);
    void buildLink(QVBoxLayout* column);
    void buildSwitches(QVBoxLayout* column);
    void buildShape(QVBoxLayout* column);
    void buildRacks(QVBoxLayout* column);
    void buildLossless(QVBoxLayout* column);
    void buildAddressing(QVBoxLayout* column);
    void updateAddressingEnabled();
    QFormLayout* addGroup(QVBoxLayout* column, const QString& title, QGroupBox** box = nullptr);
    int addField(QFormLayout* form, const QString& path, const QString& label, QWidget* editor, const QString& tip,
        QWidget* content = nullptr);
    void connectField(int index);
    void alignLabels();

    // spec_form.cpp
    void fieldEdited(int index);
    void sizeModeChanged();
    void applySpec(const core::PlanSpec& spec, bool show);
    void controllerSpecChanged();
    core::PlanSpec readSpec(QHash<QString, QString>& problems) const;
    void readLink(core::PlanSpec& spec) const;
    void readShape(core::PlanSpec& spec, QHash<QString, QString>& problems) const;
    void readExtras(core::PlanSpec& spec, QHash<QString, QString>& problems) const;
    void validate(const core::PlanSpec& spec, QHash<QString, QString>& problems) const;
    void showLink(const core::PlanSpec& spec);
    void showExtras(const core::PlanSpec& spec);
    void syncChoices(const core::PlanSpec& spec);
    void fillSwitchChoices(core::Fabric fabric, const core::PlanSpec& spec);
    void fillNicChoices(core::Fabric fabric, const std::string& selected);
    void updateDerived();
    void updateWidthLabels();
    int gpusPerNode(const core::PlanSpec& spec) const;

    // spec_form_marks.cpp
    const Field* findField(const QString& specField) const;
    bool splitProblem(const QString& line, QString& path, QString& reason) const;
    void planFailed(const QStringList& errors);
    void planReady(const std::shared_ptr<const core::Plan>& plan);
    void refreshMarks();
    void setMark(const Field& field, Mark mark, const QString& reason);
    void setRacksExpanded(bool expanded);

    PlanController& m_controller;
    QUndoStack* m_undo = nullptr;
    QAction* m_undoAction = nullptr;
    QAction* m_redoAction = nullptr;
    bool m_updating = false; ///< the form is filling its fields: edits are not the user's
    bool m_applying = false; ///< the form is handing a spec to the controller
    std::vector<Field> m_fields;
    QHash<QString, QString> m_localProblems;  ///< path -> reason, found by the form
    QHash<QString, QString> m_inputProblems;  ///< path -> reason, from the planner's input errors
    QHash<QString, QString> m_findingProblems; ///< path -> reason, from error findings of the plan
    QStringList m_unplacedProblems;            ///< errors that name no field of the form
    core::Fabric m_shownFabric = core::Fabric::InfiniBand;

    QLabel* m_errors = nullptr;
    QLineEdit* m_name = nullptr;
    QComboBox* m_fabric = nullptr;
    QComboBox* m_nodeType = nullptr;
    QComboBox* m_sizeMode = nullptr;
    QSpinBox* m_size = nullptr;
    QLabel* m_sizeDerived = nullptr;
    QSpinBox* m_gpusPerNode = nullptr;
    QSpinBox* m_rails = nullptr;
    QComboBox* m_nic = nullptr;
    QLineEdit* m_nodeNames = nullptr;
    QFormLayout* m_linkForm = nullptr;
    QComboBox* m_generation = nullptr;
    QComboBox* m_width = nullptr;
    QComboBox* m_speed = nullptr;
    QComboBox* m_lanes = nullptr;
    QComboBox* m_leafSwitch = nullptr;
    QComboBox* m_spineSwitch = nullptr;
    QComboBox* m_coreSwitch = nullptr;
    QSpinBox* m_suSize = nullptr;
    QComboBox* m_leafRatio = nullptr;
    QComboBox* m_spineRatio = nullptr;
    QComboBox* m_tiers = nullptr;
    QSpinBox* m_planes = nullptr;
    QSpinBox* m_reserved = nullptr;
    QSpinBox* m_management = nullptr;
    QSpinBox* m_growTo = nullptr;
    QToolButton* m_racksToggle = nullptr;
    QWidget* m_racksBody = nullptr;
    QSpinBox* m_nodesPerRack = nullptr;
    QComboBox* m_leafPlacement = nullptr;
    QDoubleSpinBox* m_rackWidth = nullptr;
    QDoubleSpinBox* m_inRack = nullptr;
    QDoubleSpinBox* m_slack = nullptr;
    QDoubleSpinBox* m_suPitch = nullptr;
    QDoubleSpinBox* m_spineDistance = nullptr;
    QDoubleSpinBox* m_coreDistance = nullptr;
    QGroupBox* m_lossless = nullptr;
    QComboBox* m_losslessMode = nullptr;
    QLineEdit* m_pfcPriorities = nullptr;
    QCheckBox* m_ecn = nullptr;
    QCheckBox* m_dcqcn = nullptr;
    QComboBox* m_trust = nullptr;
    QSpinBox* m_roceDscp = nullptr;
    QSpinBox* m_cnpDscp = nullptr;
    QSpinBox* m_mtu = nullptr;
    QGroupBox* m_addressing = nullptr;
    QCheckBox* m_routed = nullptr;
    QComboBox* m_addressScheme = nullptr;
    QLineEdit* m_fabricRange = nullptr;
    QLineEdit* m_loopbackRange = nullptr;
    QComboBox* m_asnScheme = nullptr;
    QLineEdit* m_asnBase = nullptr;
};

} // namespace railyard::app
