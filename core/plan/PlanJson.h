#pragma once

#include "model/Host.h"
#include "model/TestParams.h"
#include "plan/TestPlan.h"

#include <QJsonObject>

namespace wb {

/// The one JSON form of hosts, parameters and plans: the result store, plan files (PlanFile) and the settings'
/// host list (Config) all write it. Secrets never reach the JSON: options that Secrets::isSecret names are
/// dropped both ways.
class PlanJson
{
public:
    /// A host: name, address, port, OS label, server type, link speed, whether it is the built-in responder, and
    /// its options.
    static QJsonObject hostToJson(const Host &host);
    static Host hostFromJson(const QJsonObject &object);
    /// A plan's parameters; a key the JSON lacks keeps TestParams' default.
    static QJsonObject paramsToJson(const TestParams &params);
    static TestParams paramsFromJson(const QJsonObject &object);
    /// A whole plan: its hosts, protocols, frame sizes, repetitions, host order and parameters.
    static QJsonObject planToJson(const TestPlan &plan);
    static TestPlan planFromJson(const QJsonObject &object);
};

} // namespace wb
